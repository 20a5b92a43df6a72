# test_report.py: renders tools/report on synthetic runs and checks the page, then loads it in headless Chromium.
# The browser check screenshots the page and reads the loaded DOM for its charts (no Chromium: skip; CI=true: fail).
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
GEMM = "L1/GEMM/tiled/n:1024/wg:{}/manual_time"
GEMM_SHAPES = {"8x8": 1.6, "16x4": 1.4, "4x16": 1.9, "16x16": 1.0, "32x8": 1.1, "8x32": 1.5, "32x32": 1.3,
               "64x4": 1.2, "auto": 1.25}
STENCIL = "L1/Stencil/5pt/n:4096/wg:{}/manual_time"


def run_entries(seed, slow_gemm=1.0, speed=1.0, broken=False):
    """One run: L0 ceilings, L1 work-group sweeps, L2 cases; times in ns scaled by 1/speed."""
    def times(ns, rel_sd=0.01):
        return sr.noisy(ns / speed, 5, rel_sd, seed + int(ns) % 97)
    entries = sr.bench("L0/Compute/fma/type:float/manual_time", times(1e6), flop=1e10)
    entries += sr.bench("L0/GlobalBandwidth/copy/type:float4/access:coalesced/size:3/manual_time",
                        times(1e6), bytes_moved=8e8)
    for shape, factor in GEMM_SHAPES.items():
        slow = slow_gemm if shape == "16x16" else 1.0
        entries += sr.bench(GEMM.format(shape), times(2e6 * factor * slow), flop=2 * 1024 ** 3,
                            bytes_moved=3 * 4 * 1024 ** 2)
    for size, factor in (("64", 1.3), ("128", 1.0), ("256", 1.1)):
        entries += sr.bench(STENCIL.format(size), times(5e5 * factor), flop=5 * 4096 ** 2,
                            bytes_moved=2 * 4 * 4096 ** 2)
    entries += sr.bench("L2/Reduce/sum/n:16M/manual_time", times(3e5), flop=16e6, bytes_moved=64e6)
    error = "verification failed: max rel error 0.2 > 1e-5" if broken else None
    entries += sr.bench("L2/Scan/inclusive/n:16M/manual_time", times(4e5), error=error)
    entries[0]["bytes_per_second"] = float("nan")  # bare NaN in the input: treated as missing
    return entries


def timeline():
    points = [[0.05 * i, 1e13 * min(1.0, 0.4 + 0.1 * i)] for i in range(12)]
    return json.dumps(points)


def write_runs(directory):
    """Three runs of device A (the last one slower in GEMM 16x16 and broken in Scan, and with the
    interference and variance plots), one of device B."""
    a = sr.context(sr.FINGERPRINT_A, "Synthetic GPU A", clock_ramp_timeline=timeline())
    b = sr.context(sr.FINGERPRINT_B, "Synthetic GPU B")
    busy = json.dumps([{"name": "L2/Reduce/sum/n:16M", "reason": "host busy"}])
    specs = [("a1.json", run_entries(1), a), ("a2.json", run_entries(2), a),
             ("b1.json", run_entries(3, speed=1.5), dict(b, host_busy_benchmarks=busy)),
             ("a3.json", run_entries(4, slow_gemm=1.2, broken=True) + interference_run(), a)]
    return [sr.write_run(os.path.join(directory, name), entries, ctx) for name, entries, ctx in specs]


class ReportCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sr.need(sr.have_matplotlib(), "python3-matplotlib")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.runs = write_runs(cls.tmp.name)
        cls.html_path = os.path.join(cls.tmp.name, "report.html")
        cls.done = sr.run_tool_in_process("report", *cls.runs, "-o", cls.html_path)
        with open(cls.html_path, encoding="utf-8") as handle:
            cls.html = handle.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class Page(ReportCase):
    def test_report_is_written_atomically(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        leftovers = [f for f in os.listdir(self.tmp.name) if f.endswith(".tmp")]
        self.assertEqual(leftovers, [])

    def test_page_is_self_contained(self):
        # Namespace URIs inside SVG are names, not requests; anything else that would load must be absent.
        without_ns = re.sub(r'xmlns(:\w+)?="[^"]*"', "", self.html)
        for pattern in (r"<script[^>]+src=", r"<link\b", r"<img\b", r"@import", r"url\((?!#)",
                        r"https?://", r"<iframe\b"):
            self.assertIsNone(re.search(pattern, without_ns), pattern)

    def test_page_has_every_section(self):
        kinds = re.findall(r'data-kind="(\w+)"', self.html)
        self.assertEqual(kinds.count("roofline"), 2)  # one per device
        self.assertEqual(kinds.count("heatmap"), 2)   # GEMM (2-D shapes) and Stencil (1-D sizes)
        self.assertEqual(kinds.count("timeline"), 1)  # only device A has a clock ramp
        self.assertEqual(kinds.count("devices"), 1)
        self.assertGreaterEqual(kinds.count("history"), 10)
        for title in ("Summary per level", "Roofline", "Work-group shapes", "Clock ramp", "History", "Devices"):
            self.assertIn(f"<h2>{title}</h2>", self.html)

    def test_regression_and_errors_are_marked(self):
        # a3 is slower than a2 in GEMM 16x16 by 20%: its history shows a regression point with a tooltip.
        row = re.search(re.escape(GEMM.format("16x16")) + r"</code></td><td>(<svg.*?</svg>)", self.html)
        self.assertIsNotNone(row)
        self.assertEqual(row.group(1).count('class="regression"'), 1)
        self.assertIn("REGRESSION: time +", row.group(1))
        other = re.search(re.escape(GEMM.format("8x8")) + r"</code></td><td>(<svg.*?</svg>)", self.html)
        self.assertNotIn('class="regression"', other.group(1))
        self.assertIn('<li class="verification"><code>L2/Scan/inclusive/n:16M/manual_time</code>', self.html)
        # a benchmark the run measured on a busy host is marked in its results row (device B's run)
        self.assertEqual(self.html.count('<span class="bad unreliable">unreliable: host busy</span>'), 1)

    def test_heatmap_caption_names_best_and_driver_choice(self):
        # In a3, 16x16 is 20% slower than before, so 32x8 (1.1x in a1) is now the best shape.
        self.assertIn("L1/GEMM/tiled/n:1024/manual_time: best wg:32x8", self.html)
        self.assertIn("driver&#x27;s choice (wg:auto)", self.html)

    def test_bad_input_leaves_no_file(self):
        out = os.path.join(self.tmp.name, "bad.html")
        done = sr.run_tool_in_process("report", self.runs[0], os.path.join(self.tmp.name, "missing.json"), "-o", out)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertFalse(os.path.exists(out))


class SparseRuns(unittest.TestCase):
    """Runs without L0 ceilings, work-group sweeps or a clock ramp still give a page that says so."""

    def test_sections_explain_what_is_missing(self):
        sr.need(sr.have_matplotlib(), "python3-matplotlib")
        with tempfile.TemporaryDirectory() as tmp:
            ctx = sr.context()
            del ctx["device_fingerprint"]
            one = sr.write_run(os.path.join(tmp, "one.json"), sr.bench("L2/Reduce/sum/manual_time", [3e5]), ctx)
            none = sr.write_run(os.path.join(tmp, "none.json"), [], ctx)
            out = os.path.join(tmp, "r.html")
            done = sr.run_tool_in_process("report", one, none, "-o", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out, encoding="utf-8") as handle:
                page = handle.read()
        self.assertNotIn("data-kind=", page)
        for text in ("no case reports both flop_per_second and bytes_per_second",
                     "No benchmark in the latest run varies its work-group shape",
                     "no clock_ramp_timeline", "No benchmark in two of these runs",
                     "No L0/Interference benchmark beside a competitor", "No L1/FFT2D frames benchmark"):
            self.assertIn(text, page)


class RooflineAcrossRuns(unittest.TestCase):
    """An L1-only run takes its roof from an earlier L0 run of the same device."""

    def test_ceilings_come_from_the_devices_l0_run(self):
        sr.need(sr.have_matplotlib(), "python3-matplotlib")
        with tempfile.TemporaryDirectory() as tmp:
            l0 = sr.write_run(os.path.join(tmp, "l0.json"),
                              sr.bench("L0/Compute/mad/type:float/width:4/wg:256/size:3/manual_time", [1e6], flop=6e10) +
                              sr.bench("L0/GlobalBandwidth/copy/type:float4/manual_time", [1e6], bytes_moved=4e9))
            l1 = sr.write_run(os.path.join(tmp, "l1.json"),
                              sr.bench("L1/GEMM/tiled/manual_time", [1e6], flop=2e10, bytes_moved=1e8))
            out = os.path.join(tmp, "r.html")
            done = sr.run_tool_in_process("report", l0, l1, "-o", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out, encoding="utf-8") as handle:
                page = handle.read()
        self.assertIn("ceilings from the L0 cases of its runs: 60", page)
        self.assertIn("4 TB/s", page)
        # The roofs this filtered pair does not measure are named as missing.
        self.assertIn("Roofs not measured in the runs of Synthetic GPU A: FP64, L2 cache, L1 cache, local memory",
                      page)


# ---------------------------------------------------------------- runs as gpu_bench writes them now

MS = 1e6  # ns


def rate(name, per_second, metric, noise=0.001, **extra):
    """One benchmark taking 1 ms per unit that runs at per_second of metric (FLOP/s or bytes/s)."""
    return sr.measured(name, [MS], noise=noise, work={metric: per_second * 1e-3}, **extra)


def point(name, flops, intensity, noise=0.001):
    """A case at `flops` FLOP/s and `intensity` FLOP/byte."""
    return sr.measured(name, [MS], noise=noise, work={"flop_per_second": flops * 1e-3,
                                                      "bytes_per_second": flops / intensity * 1e-3})


def l0_roofs():
    """Every L0 case the roofline reads: FP32 20 TFLOP/s, FP64 10, DRAM 2 TB/s, L1 16, L2 6.2, local 12."""
    entries = rate("L0/Compute/mad/type:float/width:4/wg:256/size:3/manual_time", 20e12, "flop_per_second")
    entries += rate("L0/Compute/mad/type:float/width:1/wg:256/size:3/manual_time", 19e12, "flop_per_second")
    entries += rate("L0/Compute/mad/type:double/width:4/wg:256/size:3/manual_time", 10e12, "flop_per_second")
    entries += rate("L0/GlobalBandwidth/read/type:float4/access:coalesced/size:3/manual_time", 2e12,
                    "bytes_per_second")
    entries += rate("L0/GlobalBandwidth/copy/type:float4/access:coalesced/size:3/manual_time", 1.8e12,
                    "bytes_per_second")
    entries += rate("L0/GlobalBandwidth/write/type:float4/access:coalesced/size:3/manual_time", 2.6e12,
                    "bytes_per_second")  # not a DRAM roof: writes may be absorbed by L2
    sweep = [("4KiB", 16e12), ("8KiB", 15.9e12), ("16KiB", 15.8e12), ("32KiB", 15.9e12), ("64KiB", 15.5e12),
             ("128KiB", 11e12), ("256KiB", 9e12), ("512KiB", 6.2e12), ("1MiB", 6.1e12), ("2MiB", 5.9e12),
             ("4MiB", 5.8e12), ("8MiB", 3.5e12), ("16MiB", 2.2e12), ("32MiB", 2.1e12), ("64MiB", 2.1e12)]
    for ws, bandwidth in sweep:
        entries += rate(f"L0/MemoryHierarchy/read/type:float4/ws:{ws}/size:3/manual_time", bandwidth,
                        "bytes_per_second")
    entries += rate("L0/LocalMemory/read/type:float/stride:1/size:3/manual_time", 12e12, "bytes_per_second")
    entries += rate("L0/LocalMemory/read/type:float/stride:2/size:3/manual_time", 6e12, "bytes_per_second")
    return entries


ABOVE_FP32 = "L1/GEMM/tiled/type:float/m:1024/size:3/manual_time"
ABOVE_FP64 = "L1/GEMM/tiled/type:double/m:1024/size:3/manual_time"
ABOVE_MEMORY = "L1/Stencil/5pt/type:float/size:3/manual_time"
FROM_CACHE = "L1/Reduction/local/op:sum/type:float/size:3/manual_time"
BELOW = "L1/Scan/lookback/type:float/size:3/manual_time"
NOISY = "L2/LatticeBoltzmann/D2Q9/size:3/manual_time"
LOOSE = "L2/StableFluids/jacobi/iterations:40/size:3/manual_time"
BATCHED = "L1/Transpose/naive/size:3/wg:{}/manual_time"   # per-unit and per-batch times disagree
TIED = "L1/BoxFilter/naive/type:float/radius:1/size:3/wg:{}/manual_time"  # two shapes within the noise


def current_run():
    entries = l0_roofs()
    entries += point(ABOVE_FP32, 30e12, 100)       # 150% of FP32
    entries += point(ABOVE_FP64, 12e12, 100)       # under FP32, 120% of FP64
    entries += point(ABOVE_MEMORY, 10e12, 0.5)     # 125% of the highest memory roof (16 TB/s x 0.5)
    entries += point(FROM_CACHE, 3e12, 1.0)        # above DRAM (2 TB/s x 1), under L1: not above its roof
    entries += point(BELOW, 1e12, 1.0)
    entries += sr.measured(NOISY, [2 * MS], noise=0.0123, work={"items_per_second": 1e6})
    entries += sr.measured(LOOSE, [3 * MS], noise=0.04, work={"items_per_second": 1e6},
                           counters={"converged": 0.0})
    # (per-unit ms, batch): 32x8 is the fastest per unit, yet the slowest per batch and in cpu_time.
    for shape, (unit_ms, batch) in {"16x16": (1.0, 1.0), "32x8": (0.8, 64.0), "64x4": (0.9, 2.0)}.items():
        for entry in sr.measured(BATCHED.format(shape), [unit_ms * MS], noise=0.001, counters={"batch": batch}):
            entry["cpu_time"] = unit_ms * batch * 1000.0
            entry["iterations"] = int(batch)
            entries.append(entry)
    # 16x16 is 0.5% faster than 32x8, but its noise of 2% covers that: 32x8, far less noisy, is named best.
    for shape, (unit_ms, noise) in {"16x16": (1.0, 0.02), "32x8": (1.005, 0.001), "8x32": (1.5, 0.001)}.items():
        entries += sr.measured(TIED.format(shape), [unit_ms * MS], noise=noise)
    return entries


def older_run():
    """The same device a month earlier: the stencil 30% faster, the reduction 2% slower."""
    entries = point(ABOVE_MEMORY, 13e12, 0.5) + point(FROM_CACHE, 2.94e12, 1.0) + point(BELOW, 1e12, 1.0)
    return entries + sr.measured(NOISY, [2 * MS], noise=0.0123, work={"items_per_second": 1e6})


class MeasuredRuns(unittest.TestCase):
    """Runs in gpu_bench's current layout (per-unit real_time, noise, converged), passed newest first."""

    @classmethod
    def setUpClass(cls):
        sr.need(sr.have_matplotlib(), "python3-matplotlib")
        cls.tmp = tempfile.TemporaryDirectory()
        new = sr.write_run(os.path.join(cls.tmp.name, "new.json"), current_run(),
                           sr.context(date="2024-06-01T09:00:00+00:00"))
        old = sr.write_run(os.path.join(cls.tmp.name, "old.json"), older_run(),
                           sr.context(date="2024-05-01T09:00:00+00:00"))
        out = os.path.join(cls.tmp.name, "r.html")
        cls.done = sr.run_tool_in_process("report", new, old, "-o", out)
        with open(out, encoding="utf-8") as handle:
            cls.html = handle.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def section(self, title):
        start = self.html.index(f"<h2>{title}</h2>")
        end = self.html.find("<h2>", start + 1)
        return self.html[start:end if end >= 0 else None]

    def row(self, html, key):
        match = re.search(r"<tr><td><code>" + re.escape(key) + r"</code></td>(.*?)</tr>", html)
        self.assertIsNotNone(match, key)
        return match.group(1)

    def test_runs_are_ordered_by_date(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        runs = self.section("Runs")
        self.assertLess(runs.index("old.json"), runs.index("new.json"))
        self.assertIn("ordered by the date in their context", runs)
        self.assertIn("<th>#1 old.json</th>", self.html)  # the comparison's base is the oldest run
        self.assertIn("Latest run (new.json)", self.html)

    def test_best_shape_is_ranked_by_time_per_unit(self):
        self.assertIn("L1/Transpose/naive/size:3/manual_time: best wg:32x8 at 800 us per unit", self.html)

    def test_shapes_within_the_noise_are_equally_best(self):
        caption = re.search(r"<figcaption>L1/BoxFilter/naive/[^<]*", self.html).group(0)
        self.assertIn("best wg:32x8 at 1 ms per unit (noise 0.1%)", caption)
        self.assertIn("equally best within the noise: wg:16x16 (0.995x, noise 2%)", caption)
        self.assertNotIn("wg:8x32", caption)

    def test_every_roof_is_drawn_and_labelled(self):
        roofs = re.search(r'<table class="roofs">.*?</table>', self.html).group(0)
        for label, value in (("FP32", "20 TFLOP/s"), ("FP64", "10 TFLOP/s"), ("DRAM", "2 TB/s"),
                             ("L2 cache", "6.2 TB/s"), ("L1 cache", "16 TB/s"), ("local memory", "12 TB/s")):
            self.assertIn(f"<tr><td>{label}</td><td>{value}</td>", roofs)
            self.assertRegex(self.html, rf'id="c\d+-roof-{label.lower().replace(" ", "-")}"')
        self.assertNotIn("not measured", roofs)
        self.assertNotIn("Roofs not measured", self.html)

    def test_points_above_their_roof_are_annotated(self):
        self.assertRegex(self.html, r'id="c\d+-above-roof"')  # ringed in the chart
        notes = re.search(r'<ol class="above-roof">(.*?)</ol>', self.html).group(1)
        self.assertRegex(notes, re.escape(ABOVE_FP32) + r"</code>: above the FP32 roof \(20 TFLOP/s\) by \+50")
        self.assertRegex(notes, re.escape(ABOVE_FP64) + r"</code>: above the FP64 roof \(10 TFLOP/s\) by \+20")
        self.assertRegex(notes, re.escape(ABOVE_MEMORY) + r"</code>: above roof: data reuse in cache")
        for key in (FROM_CACHE, BELOW):
            self.assertNotIn(key, notes)
        self.assertIn("3 above their roof", self.html)
        self.assertIn("above the DRAM roof: served from cache", self.row(self.html, FROM_CACHE))

    def test_noise_and_unconverged_are_shown(self):
        results = self.section("Results")
        self.assertIn("<td>1.2%</td>", self.row(results, NOISY))
        self.assertIn("4% <span class=\"bad unconverged\">unconverged</span>", self.row(results, LOOSE))
        self.assertRegex(self.html, r'id="c\d+-noise-bars-l1"')    # error bars on the roofline
        self.assertIn('<line class="noise"', self.section("History"))  # and on the history lines

    def test_comparison_lists_the_largest_change_first(self):
        table = re.search(r'<table class="comparison">.*?</table>', self.section("Comparison")).group(0)
        order = [table.index(key) for key in (ABOVE_MEMORY, FROM_CACHE, NOISY)]
        self.assertEqual(order, sorted(order))
        self.assertIn('<span class="worse">0.769x</span>', self.row(table, ABOVE_MEMORY))
        self.assertIn('<span class="better">1.020x</span>', self.row(table, FROM_CACHE))
        self.assertIn('<span class="same">1.000x</span>', self.row(table, NOISY))
        self.assertIn("(1.2%)", self.row(table, NOISY))
        self.assertNotIn(ABOVE_FP32, table)  # in one run only


# ---------------------------------------------------------------- interference and variance

def interference_run():
    """L0/Interference and L1/FFT2D frames as gpu_bench writes them, with the seed's variance figures."""
    def interference(name, ms, noise, **counters):
        return sr.measured(f"L0/Interference/{name}/size:3/manual_time", [ms * MS], noise=noise,
                           work={"bytes_per_second": 8e9 * 1e-3}, counters=counters)
    entries = interference("alone", 2.0, 0.004, slowdown=1.0)
    for rate, achieved, slowdown in ((100, 100.0, 1.01), (1000, 998.0, 1.05), (10000, 9500.0, 1.4)):
        entries += interference(f"context/rate:{rate}", 2.0 * slowdown, 0.01, slowdown=slowdown,
                                competitor_launch_rate=achieved)
    for share, achieved, slowdown in ((25, 0.25, 1.0), (50, 0.49, 1.02)):
        entries += interference(f"host_copy/share:{share}", 2.0 * slowdown, 0.005, slowdown=slowdown,
                                competitor_share=achieved)
    # No slowdown counter: the report divides by alone's time (2.2 ms / 2 ms).
    entries += interference("host_copy/share:100", 2.2, 0.005, competitor_share=0.97)
    noise = {(256, 1): 0.082, (512, 1): 0.04, (1024, 1): 0.016, (256, 10): 0.03, (512, 10): 0.02,
             (1024, 10): 0.012, (256, 100): 0.01, (512, 100): 0.008, (1024, 100): 0.006}
    for (n, every), spread in noise.items():
        frame_ms = n * n / 1024 ** 2 * (1.0 + 0.2 / every)
        entries += sr.measured(f"L1/FFT2D/pipeline4/n:{n}x{n}/dir:forward/sync_every:{every}/size:3/manual_time",
                               [frame_ms * MS], noise=spread, work={"flop_per_second": 1e9},
                               counters={"sync_every": float(every)})
    for n in (256, 512, 1024):  # the batched device-timed pipeline: its noise is the floor
        entries += sr.measured(f"L1/FFT2D/pipeline4/n:{n}x{n}/dir:forward/size:3/manual_time", [n * n / 1024 ** 2 * MS],
                               noise=0.001, work={"flop_per_second": 1e9})
    return entries


class InterferenceAndVariance(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sr.need(sr.have_matplotlib(), "python3-matplotlib")
        cls.tmp = tempfile.TemporaryDirectory()
        run = sr.write_run(os.path.join(cls.tmp.name, "run.json"), interference_run())
        out = os.path.join(cls.tmp.name, "r.html")
        cls.done = sr.run_tool_in_process("report", run, "-o", out)
        with open(out, encoding="utf-8") as handle:
            cls.html = handle.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def row(self, key):
        match = re.search(r"<tr><td><code>" + re.escape(key) + r"</code></td>(.*?)</tr>", self.html)
        self.assertIsNotNone(match, key)
        return match.group(1)

    def test_each_plot_is_drawn_once(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        kinds = re.findall(r'data-kind="(\w+)"', self.html)
        for kind in ("interference", "variance", "cadence"):
            self.assertEqual(kinds.count(kind), 1, kind)
        self.assertIn("<h2>Interference</h2>", self.html)
        self.assertIn("<h2>Variance</h2>", self.html)

    def test_slowdown_against_the_competitors_rate(self):
        caption = re.search(r'data-kind="interference".*?<figcaption>([^<]*)', self.html, re.S).group(1)
        self.assertIn("context: 100/s 1.01x, 1000/s 1.05x, 10000/s 1.4x", caption)
        self.assertIn("host_copy: 25% 1x, 50% 1.02x, 100% 1.1x", caption)  # 100%: from the times
        row = self.row("L0/Interference/context/rate:10000/size:3/manual_time")
        self.assertIn("<td>10000/s</td><td>9500/s</td><td>2.8 ms</td><td>1.400x</td>", row)
        self.assertIn("<td>100%</td><td>97%</td>", self.row("L0/Interference/host_copy/share:100/size:3/manual_time"))

    def test_noise_against_size_and_cadence(self):
        caption = re.search(r'data-kind="variance".*?<figcaption>([^<]*)', self.html, re.S).group(1)
        self.assertIn("finishing every frame: 256\u00b2 8.2%, 512\u00b2 4%, 1024\u00b2 1.6%", caption)
        caption = re.search(r'data-kind="cadence".*?<figcaption>([^<]*)', self.html, re.S).group(1)
        self.assertIn("at 1024\u00b2: every 1:", caption)
        self.assertIn("every 10: 1.02 ms per frame, noise 1.2%", caption)
        row = self.row("L1/FFT2D/pipeline4/n:256x256/dir:forward/sync_every:1/size:3/manual_time")
        self.assertIn("<td>256\u00b2</td><td>1</td><td>75 us</td><td>8.2%</td><td>10</td>", row)


class DateOrder(unittest.TestCase):
    def test_missing_and_equal_dates_keep_the_command_line_order(self):
        sr.need(sr.have_matplotlib(), "python3-matplotlib")
        with tempfile.TemporaryDirectory() as tmp:
            def write(name, date):
                ctx = sr.context(date=date) if date else {k: v for k, v in sr.context().items() if k != "date"}
                return sr.write_run(os.path.join(tmp, name), sr.measured("L2/Reduce/sum/manual_time", [MS]), ctx)
            paths = [write("c.json", "2024-03-01T00:00:00Z"), write("x.json", None),
                     write("b.json", "2024-02-01T00:00:00+00:00"), write("a.json", "2024-02-01T00:00:00+00:00")]
            out = os.path.join(tmp, "r.html")
            done = sr.run_tool_in_process("report", *paths, "-o", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out, encoding="utf-8") as handle:
                page = handle.read()
        runs = page[page.index("<h2>Runs</h2>"):page.index("<h2>Summary per level</h2>")]
        self.assertEqual(re.findall(r"<td>(\w)\.json</td>", runs), ["b", "x", "a", "c"])
        self.assertIn("No readable date in the context of x.json", runs)
        self.assertIn("b.json, a.json have the same date", runs)


class Browser(ReportCase):
    """Loads the page in headless Chromium, as a person's browser would, without network."""

    def chromium(self, *args):
        sr.need(os.path.exists(CHROMIUM), "chromium (Debian package)")
        profile = tempfile.mkdtemp(prefix="chromium-profile-")
        self.addCleanup(shutil.rmtree, profile, True)
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}"]
        url = "file://" + self.html_path
        return subprocess.run([CHROMIUM, *flags, *args, url], capture_output=True, text=True, timeout=240)

    def test_loaded_dom_has_rendered_charts(self):
        done = self.chromium("--dump-dom")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        dom = done.stdout
        expected = len(re.findall(r'data-kind="\w+"', self.html))
        # The page's inline script marks each chart the browser laid out with a non-empty box.
        rendered = re.search(r'data-charts-rendered="(\d+)"', dom)
        self.assertIsNotNone(rendered, "the page's script did not run")
        self.assertEqual(int(rendered.group(1)), expected)
        self.assertEqual(dom.count('data-rendered="yes"'), expected)
        for kind in ("roofline", "heatmap", "timeline", "history", "devices", "interference", "variance", "cadence"):
            self.assertRegex(dom, rf'data-kind="{kind}"[^>]*data-rendered="yes"')

    def test_screenshot_shows_the_page(self):
        shot = os.path.join(self.tmp.name, "report.png")
        done = self.chromium(f"--screenshot={shot}", "--window-size=1280,2400", "--hide-scrollbars")
        self.assertTrue(os.path.exists(shot), done.stderr[-2000:])
        self.assertGreater(os.path.getsize(shot), 20_000)  # a blank page is a few kB
        import matplotlib.image
        pixels = matplotlib.image.imread(shot)
        self.assertEqual(pixels.shape[:2], (2400, 1280))
        self.assertGreater(float(pixels[..., :3].std()), 0.05)  # not one flat colour
        colourful = (pixels[..., :3].max(axis=2) - pixels[..., :3].min(axis=2)) > 0.3
        self.assertGreater(float(colourful.mean()), 0.005)  # the charts' colours, not only black text


if __name__ == "__main__":
    unittest.main()
