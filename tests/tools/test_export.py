# test_export.py: tools/export on synthetic runs: Bencher Metric Format and github-action-benchmark custom JSON.
# Checks the series (latency + primary metric, never descriptive counters), strict JSON, errors and bad input.
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

BW = "L0/GlobalBandwidth/copy/type:float4/access:coalesced/size:3/manual_time"
GEMM = "L1/GEMM/tiled/n:1024/wg:16x16/manual_time"
BROKEN = "L1/GEMM/tiled/n:1024/wg:32x32/manual_time"
BYTES, FLOP = 1e9, 2e9


def strict_loads(text):
    """json.loads that rejects NaN/Infinity, as strict consumers (JavaScript, Go, Rust) do."""
    def reject(token):
        raise ValueError(f"non-standard JSON token {token}")
    return json.loads(text, parse_constant=reject)


class Export(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name
        entries = (sr.bench(BW, [1.0e6, 1.1e6, 0.9e6], bytes_moved=BYTES)
                   + sr.bench(GEMM, [2e6], flop=FLOP, bytes_moved=BYTES)
                   + sr.bench(BROKEN, [1e6], error="verification failed: max rel error 1"))
        entries[0]["flop_per_second"] = float("nan")  # bare NaN in the input: a missing value
        self.run_file = sr.write_run(os.path.join(self.dir, "run.json"), entries)

    def export(self, *args):
        done = sr.run_tool("export", *args)
        self.assertEqual(done.returncode, 0, done.stderr)
        return strict_loads(done.stdout), done

    def test_bencher_metric_format(self):
        data, done = self.export("--format", "bencher", self.run_file)
        check_bencher(self, data)
        self.assertEqual(sorted(data), sorted([BW, GEMM]))  # the errored one is left out ...
        self.assertIn(BROKEN, done.stderr)                  # ... and said so
        bw = data[BW]
        # A file without primary_metric: the first of flop/bytes/items_per_second that has a value
        # (BW's flop_per_second is NaN, so bytes_per_second).
        self.assertEqual(sorted(bw), ["bytes-per-second", "latency"])
        # Latency is Bencher's built-in measure in nanoseconds: the median of the repetitions.
        self.assertAlmostEqual(bw["latency"]["value"], 1.0e6)
        self.assertAlmostEqual(bw["latency"]["lower_value"], 0.9e6)
        self.assertAlmostEqual(bw["latency"]["upper_value"], 1.1e6)
        self.assertAlmostEqual(bw["bytes-per-second"]["value"], BYTES / 1e-3)
        self.assertLess(bw["bytes-per-second"]["lower_value"], bw["bytes-per-second"]["upper_value"])
        gemm = data[GEMM]
        self.assertEqual(sorted(gemm), ["flop-per-second", "latency"])  # the primary rate only
        self.assertEqual(gemm["latency"], {"value": 2e6})  # one run: no interval
        self.assertAlmostEqual(gemm["flop-per-second"]["value"], FLOP / 2e-3)

    def test_bencher_all_metrics_adds_the_other_rates(self):
        data, _ = self.export("--format", "bencher", "--metrics", "all", self.run_file)
        check_bencher(self, data)
        self.assertEqual(sorted(data[GEMM]), ["bytes-per-second", "flop-per-second", "latency"])
        self.assertEqual(sorted(data[BW]), ["bytes-per-second", "latency"])  # NaN: no value, no series

    def test_github_action_benchmark_rates_are_bigger_is_better(self):
        data, _ = self.export("--format", "github-action-benchmark", self.run_file)
        check_gab(self, data)
        by_name = {e["name"]: e for e in data}
        self.assertEqual(sorted(by_name), sorted([f"{BW} (bytes_per_second)", f"{GEMM} (flop_per_second)"]))
        for entry in data:
            self.assertIn(sr.FINGERPRINT_A, entry["extra"])
        self.assertEqual(by_name[f"{BW} (bytes_per_second)"]["unit"], "GB/s")
        self.assertAlmostEqual(by_name[f"{BW} (bytes_per_second)"]["value"], 1000.0)
        self.assertTrue(by_name[f"{BW} (bytes_per_second)"]["range"].startswith("± "))
        self.assertEqual(by_name[f"{GEMM} (flop_per_second)"]["unit"], "GFLOP/s")
        self.assertAlmostEqual(by_name[f"{GEMM} (flop_per_second)"]["value"], 1000.0)
        data, _ = self.export("--format", "github-action-benchmark", "--metrics", "all", self.run_file)
        check_gab(self, data)
        self.assertEqual(sorted(e["name"] for e in data), sorted([f"{BW} (bytes_per_second)",
                         f"{GEMM} (bytes_per_second)", f"{GEMM} (flop_per_second)"]))

    def test_a_benchmark_measured_on_a_busy_host_says_so_in_extra(self):
        entries = sr.bench(BW, [1e6], bytes_moved=BYTES) + sr.bench(GEMM, [2e6], flop=FLOP)
        path = sr.write_run(os.path.join(self.dir, "busy.json"), entries,
                            sr.context(host_busy_benchmarks=json.dumps([{"name": GEMM.replace("/manual_time", ""), "reason": "host busy"}])))
        data, _ = self.export("--format", "github-action-benchmark", path)
        by_name = {e["name"]: e for e in data}
        self.assertIn("unreliable: host busy", by_name[f"{GEMM} (flop_per_second)"]["extra"])
        self.assertNotIn("unreliable", by_name[f"{BW} (bytes_per_second)"]["extra"])

    def test_github_action_benchmark_times_are_smaller_is_better(self):
        data, _ = self.export("--format", "github-action-benchmark", "--series", "times", self.run_file)
        check_gab(self, data)
        self.assertEqual([(e["name"], e["unit"], e["value"]) for e in data], [(BW, "ns", 1.0e6), (GEMM, "ns", 2e6)])

    def test_output_file_is_strict_json(self):
        out = os.path.join(self.dir, "bmf.json")
        done = sr.run_tool("export", "--format", "bencher", "-o", out, self.run_file)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, "")
        with open(out) as handle:
            check_bencher(self, strict_loads(handle.read()))
        self.assertEqual(sorted(os.listdir(self.dir)), ["bmf.json", "run.json"])  # no temporary left

    def test_bad_input_exits_2_with_one_line(self):
        def write(name, text):
            path = os.path.join(self.dir, name)
            with open(path, "wb") as handle:
                handle.write(text.encode("utf-8") if isinstance(text, str) else text)
            return path
        cases = {
            "missing file": ["--format", "bencher", os.path.join(self.dir, "missing.json")],
            "not JSON": ["--format", "bencher", write("cut.json", '{"context": {}, "benchmarks": [{"na')],
            "not UTF-8": ["--format", "bencher", write("bin.json", b"\xff\xfe{}")],
            "no benchmarks list": ["--format", "bencher", write("junk.json", '{"context": {}}')],
            "a JSON list": ["--format", "github-action-benchmark", write("list.json", "[1, 2]")],
            "nameless entry": ["--format", "bencher", write("noname.json", '{"benchmarks": [{"real_time": 1}]}')],
            "a directory": ["--format", "bencher", self.dir],
            "unknown format": ["--format", "csv", self.run_file],
            "no format": [self.run_file],
            "unknown series": ["--format", "github-action-benchmark", "--series", "both", self.run_file],
            "unknown option": ["--format", "bencher", "--frobnicate", self.run_file],
            "output folder missing": ["--format", "bencher", "-o", os.path.join(self.dir, "no", "x.json"),
                                      self.run_file],
        }
        for what, args in cases.items():
            with self.subTest(what):
                done = sr.run_tool("export", *args)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
                self.assertTrue(done.stderr.startswith("export: error: "), done.stderr)
                self.assertEqual(done.stdout, "")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "no")))


TRANSFORM = "L1/FFT/stockham/n:1024/batch:1024/dir:forward/size:3/manual_time"
LAUNCH = "L0/KernelLaunch/empty/size:3/manual_time"
CASE = "L2/LatticeBoltzmann/d2q9/n:1024/size:3/manual_time"
ONCE = "L1/Scan/blelloch/n:16777216/size:3/manual_time"
DESCRIPTIVE = {"batch", "samples", "noise", "converged", "margin", "rel_error", "host_over_device", "passes",
               "work_group", "bytes_per_pass", "reference_bytes_per_second"}
TRANSFORM_TIMES = [1.0e6, 1.2e6, 0.9e6, 1.1e6, 1.05e6]  # ns; median 1.05e6
CONTEXT_CONSTANTS = {"copy_bytes_per_second": "3.0e12", "steady_flop_per_second": "6.0e13"}


class ExportDeclaredMetrics(unittest.TestCase):
    """Files with primary_metric and metrics: latency + primary rate, never the descriptive counters."""

    @classmethod
    def setUpClass(cls):
        tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(tmp.cleanup)
        cls.dir = tmp.name
        # Descriptive counters, one of them a rate by name that the benchmark does not declare a metric.
        counters = {"host_over_device": 1.02, "passes": 2.0, "work_group": 256.0, "bytes_per_pass": 1.6e7,
                    "reference_bytes_per_second": 2.5e12}
        case = sr.measured(CASE, [4e6, 4.4e6, 4.2e6], work={"mlups": 1e6, "bytes_per_second": 76e6},
                           primary="mlups", counters=counters)
        for entry in case:  # copy_fraction: a metric here, because the benchmark lists it
            entry["copy_fraction"] = 0.7
            entry["metrics"] = entry["metrics"] + ["copy_fraction"]
        entries = (sr.measured(TRANSFORM, TRANSFORM_TIMES, counters=counters,
                               work={"flop_per_second": 2e9, "bytes_per_second": 8e6, "items_per_second": 1e6})
                   + sr.measured(LAUNCH, [5e3, 6e3, 5.5e3], counters=counters)  # primary real_time
                   + case
                   + sr.measured(ONCE, [2e6], work={"bytes_per_second": 128e6, "items_per_second": 16e6},
                                 counters=counters)
                   + sr.bench(BROKEN, [1e6, 1e6], error="OpenCL error -5 (CL_OUT_OF_RESOURCES)"))
        cls.run_file = sr.write_run(os.path.join(cls.dir, "run.json"), entries,
                                    sr.context(**CONTEXT_CONSTANTS))
        agg = sr.measured(TRANSFORM, TRANSFORM_TIMES, work={"flop_per_second": 2e9, "bytes_per_second": 8e6},
                          counters=counters, aggregates_only=True)
        cls.aggregates_file = sr.write_run(os.path.join(cls.dir, "aggregates.json"), agg)

    def export(self, *args):
        done = sr.run_tool("export", *args)
        self.assertEqual(done.returncode, 0, done.stderr)
        return strict_loads(done.stdout), done

    def assert_no_descriptive(self, metrics):
        """metrics: Bencher measure slugs or github-action-benchmark names ("KEY (metric)")."""
        for metric in metrics:
            metric = metric.rsplit(" (", 1)[-1].rstrip(")").replace("-", "_")
            self.assertNotIn(metric, DESCRIPTIVE | set(CONTEXT_CONSTANTS))

    def test_bencher_latency_and_primary(self):
        data, done = self.export("--format", "bencher", self.run_file)
        check_bencher(self, data)
        self.assertEqual(list(data), [TRANSFORM, LAUNCH, CASE, ONCE])  # one key per benchmark, in file order
        self.assertIn(BROKEN, done.stderr)
        self.assertEqual(sorted(data[TRANSFORM]), ["flop-per-second", "latency"])
        self.assertEqual(sorted(data[LAUNCH]), ["latency"])  # primary real_time: the latency only
        self.assertEqual(sorted(data[CASE]), ["latency", "mlups"])  # a case's own rate as the primary
        self.assertEqual(sorted(data[ONCE]), ["bytes-per-second", "latency"])
        # The median of the repetitions (real_time in ms in the file, ns here), their range as the bounds.
        self.assertEqual(data[TRANSFORM]["latency"], {"value": 1.05e6, "lower_value": 0.9e6, "upper_value": 1.2e6})
        self.assertAlmostEqual(data[TRANSFORM]["flop-per-second"]["value"] / (2e9 / 1.05e-3), 1.0)
        self.assertAlmostEqual(data[TRANSFORM]["flop-per-second"]["lower_value"] / (2e9 / 1.2e-3), 1.0)
        self.assertAlmostEqual(data[LAUNCH]["latency"]["value"], 5.5e3)
        self.assertAlmostEqual(data[CASE]["mlups"]["value"] / (1e6 / 4.2e-3), 1.0)
        self.assertEqual(data[ONCE]["latency"], {"value": 2e6})

    def test_bencher_all_metrics_never_descriptive(self):
        data, _ = self.export("--format", "bencher", "--metrics", "all", self.run_file)
        check_bencher(self, data)
        self.assertEqual(sorted(data[TRANSFORM]),
                         ["bytes-per-second", "flop-per-second", "items-per-second", "latency"])
        self.assertEqual(sorted(data[LAUNCH]), ["latency"])
        self.assertEqual(sorted(data[CASE]), ["bytes-per-second", "copy-fraction", "latency", "mlups"])
        self.assertEqual(data[CASE]["copy-fraction"]["value"], 0.7)
        for measures in data.values():
            self.assert_no_descriptive(measures)
            for measure in measures.values():  # no context constant under another name either
                self.assertNotIn(measure["value"], (3.0e12, 6.0e13, 2.5e12))

    def test_github_action_benchmark_rates(self):
        for extra in ([], ["--metrics", "all"]):
            data, _ = self.export("--format", "github-action-benchmark", *extra, self.run_file)
            check_gab(self, data)
            self.assert_no_descriptive(e["name"] for e in data)
            names = [e["name"] for e in data]
            self.assertEqual(len(names), len(set(names)))  # once per benchmark, not per repetition
            self.assertFalse(any(e["name"].startswith(LAUNCH) for e in data))  # its primary is real_time
            self.assertFalse(any(e["unit"] == "ns" for e in data))
        data, _ = self.export("--format", "github-action-benchmark", self.run_file)
        by_name = {e["name"]: e for e in data}
        self.assertEqual(list(by_name), [f"{TRANSFORM} (flop_per_second)", f"{CASE} (mlups)",
                                         f"{ONCE} (bytes_per_second)"])
        flops = by_name[f"{TRANSFORM} (flop_per_second)"]
        self.assertEqual(flops["unit"], "GFLOP/s")
        self.assertAlmostEqual(flops["value"], 2e9 / 1.05e-3 / 1e9)
        self.assertTrue(flops["range"].startswith("± "))
        self.assertIn("repetitions: 5", flops["extra"])
        self.assertEqual(by_name[f"{CASE} (mlups)"]["unit"], "mlups")
        self.assertNotIn("range", by_name[f"{ONCE} (bytes_per_second)"])
        data, _ = self.export("--format", "github-action-benchmark", "--metrics", "all", self.run_file)
        self.assertEqual(sorted(e["name"] for e in data if e["name"].startswith(CASE)),
                         [f"{CASE} (bytes_per_second)", f"{CASE} (copy_fraction)", f"{CASE} (mlups)"])

    def test_github_action_benchmark_times(self):
        data, _ = self.export("--format", "github-action-benchmark", "--series", "times", self.run_file)
        check_gab(self, data)
        self.assertEqual([(e["name"], e["unit"]) for e in data], [(k, "ns") for k in (TRANSFORM, LAUNCH, CASE, ONCE)])
        self.assertEqual([e["value"] for e in data], [1.05e6, 5.5e3, 4.2e6, 2e6])

    def test_aggregates_only_export_the_median_aggregate(self):
        data, _ = self.export("--format", "bencher", self.aggregates_file)
        check_bencher(self, data)
        self.assertEqual(list(data), [TRANSFORM])  # not TRANSFORM_median, _mean, ...
        self.assertEqual(data[TRANSFORM]["latency"], {"value": 1.05e6})
        self.assertAlmostEqual(data[TRANSFORM]["flop-per-second"]["value"] / (2e9 / 1.05e-3), 1.0)
        data, _ = self.export("--format", "github-action-benchmark", "--series", "times", self.aggregates_file)
        check_gab(self, data)
        self.assertEqual(len(data), 1)
        self.assertEqual(data[0]["value"], 1.05e6)
        self.assertTrue(data[0]["range"].startswith("± "))  # the stddev aggregate
        self.assertIn("repetitions: 5", data[0]["extra"])

    def test_real_run_without_declared_metrics(self):
        """Two real H100 runs from before primary_metric: the fallback picks flop_per_second."""
        path = os.path.join(sr.HERE, "data", "h100_fft_a.json")
        data, _ = self.export("--format", "bencher", path)
        check_bencher(self, data)
        self.assertEqual(len(data), 129)
        self.assertEqual({tuple(sorted(m)) for m in data.values()}, {("flop-per-second", "latency")})


class ExportNothing(unittest.TestCase):
    """A run with nothing to export is an error: exit 2, one line, no output."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def assert_refused(self, entries, message):
        path = sr.write_run(os.path.join(self.dir, "run.json"), entries)
        out = os.path.join(self.dir, "out.json")
        for fmt in ("bencher", "github-action-benchmark"):
            done = sr.run_tool("export", "--format", fmt, "-o", out, path)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
            self.assertIn(message, done.stderr)
            self.assertEqual(done.stdout, "")
            self.assertFalse(os.path.exists(out))

    def test_empty_run(self):
        self.assert_refused([], "no benchmarks")

    def test_all_errored_run(self):
        entries = (sr.bench(BW, [1e6, 1e6], error="OpenCL error -4\n(CL_MEM_OBJECT_ALLOCATION_FAILURE)")
                   + sr.bench(GEMM, [1e6], error="verification failed: max rel error 1"))
        self.assert_refused(entries, "every benchmark errored (2; the first, " + BW)
        self.assert_refused(entries, "CL_MEM_OBJECT_ALLOCATION_FAILURE")

    def test_run_without_values(self):
        entry = sr.bench(BW, [1e6], bytes_moved=BYTES)[0]
        entry["real_time"] = entry["bytes_per_second"] = float("nan")
        self.assert_refused([entry], "no benchmark has a value")


def check_bencher(test, data):
    """Bencher Metric Format: {benchmark: {measure slug: {value[, lower_value, upper_value]}}}, finite numbers."""
    test.assertIsInstance(data, dict)
    test.assertTrue(data)
    for name, measures in data.items():
        test.assertIsInstance(name, str)
        test.assertIsInstance(measures, dict)
        test.assertTrue(measures, name)
        for slug, metric in measures.items():
            test.assertRegex(slug, r"^[a-z0-9]+(-[a-z0-9]+)*$")
            test.assertIn(set(metric), ({"value"}, {"value", "lower_value", "upper_value"}))
            for value in metric.values():
                test.assertIsInstance(value, float)
                test.assertTrue(math.isfinite(value) and value > 0)
            if "lower_value" in metric:
                test.assertLessEqual(metric["lower_value"], metric["value"])
                test.assertLessEqual(metric["value"], metric["upper_value"])


def check_gab(test, data):
    """github-action-benchmark's custom JSON: a list of {name, unit, value[, range][, extra]}."""
    test.assertIsInstance(data, list)
    for entry in data:
        test.assertLessEqual({"name", "unit", "value", "extra"}, set(entry))
        test.assertLessEqual(set(entry), {"name", "unit", "value", "range", "extra"})
        for key in ("name", "unit", "extra") + (("range",) if "range" in entry else ()):
            test.assertIsInstance(entry[key], str)
        test.assertIsInstance(entry["value"], (int, float))
        test.assertTrue(math.isfinite(entry["value"]) and entry["value"] > 0)


if __name__ == "__main__":
    unittest.main()
