"""gpu_bench --clock_ramp (the seed's clock-ramp diagnostic) and the warm-up that uses it: growth by
x10 from one work group until a sample takes ~2 ms, then ~20 ms samples for ~3 s, printed as time
stamp, work groups, sample time and FLOP/s in SI form, then a one-line verdict; the normal run's
warm-up length, steady rate and timeline in the JSON context."""
import json
import os
import re
import tempfile
import unittest

from cli_support import require_device, run, strict_load

ONE_CASE = "--benchmark_filter=^L0/Compute/mad/type:float/width:4/wg:256/size:1/"
SMALL = ["--size=1", "--min_sample_ms=1", "--benchmark_min_time=0.005"]
SI = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
ROW = re.compile(r"^\s*(\d+\.\d+)\s+(\d+)\s+(\d+(?:\.\d+)?) ?([pnumkMGTP]?)s\s+(\d+(?:\.\d+)?) ?([pnumkMGTP]?)FLOP/s$")
VERDICT = re.compile(r"^(steady after \d+\.\d+ s at \d+(\.\d+)? ?[kMGTP]?FLOP/s|not steady within \d+\.\d+ s: .+)$")



class ClockRamp(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_device()
        cls.proc = run("--clock_ramp")
        lines = cls.proc.stdout.strip().splitlines()
        cls.header, cls.verdict = lines[0], lines[-1]
        cls.rows = []
        for line in lines[1:-1]:
            m = ROW.match(line)
            if not m:
                raise AssertionError("not a sample row: %r" % line)
            cls.rows.append((float(m.group(1)), int(m.group(2)), float(m.group(3)) * SI[m.group(4)],
                             float(m.group(5)) * SI[m.group(6)]))

    def test_exit_and_header(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertEqual(self.header.split(), ["time_s", "work_groups", "sample", "FLOP/s"])

    def test_grows_by_ten_from_one_work_group_to_about_2ms(self):
        groups = [r[1] for r in self.rows]
        self.assertEqual(groups[0], 1)
        i = 1
        while i < len(groups) and groups[i] == groups[i - 1] * 10:
            i += 1
        growth = self.rows[:i]
        # Every growth sample but the last was under 2 ms; the last reached it (or the memory cap).
        for t, g, sample, _ in growth[:-1]:
            self.assertLess(sample, 2e-3, "grew past a %g s sample at %d groups" % (sample, g))
        sized = groups[i:]
        self.assertGreater(len(sized), 5)
        self.assertEqual(len(set(sized)), 1, "the sized run keeps one size")

    def test_sized_samples_near_20ms_for_about_3s(self):
        # The sized run takes the last growth sample's groups times 20 ms over its time (how long
        # its samples then take depends on the host's load: on CI's 2 busy cores a growth sample
        # ran up to 20x slow, so the sample times themselves are not asserted).
        size = self.rows[-1][1]
        growth = [r for r in self.rows if r[1] != size]
        _, last_groups, last_sample, _ = growth[-1]
        self.assertAlmostEqual(size / (last_groups * 20e-3 / last_sample), 1.0, delta=0.02)  # printed to 3 digits
        stamps = [r[0] for r in self.rows]
        self.assertEqual(stamps, sorted(stamps))
        self.assertGreaterEqual(stamps[-1], 2.9)
        self.assertLess(stamps[-1], 4.0)
        for r in self.rows:
            self.assertGreater(r[3], 0)

    def test_one_line_verdict(self):
        self.assertRegex(self.verdict, VERDICT)


class WarmUp(unittest.TestCase):
    def setUp(self):
        require_device()
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def context(self, *args):
        path = os.path.join(self.tmp.name, "run.json")
        p = run(ONE_CASE, *SMALL, "--benchmark_out=" + path, "--benchmark_out_format=json", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return strict_load(path)["context"]

    def test_warmup_recorded_in_context(self):
        c = self.context("--warmup_s=1")
        warmup = float(c["warmup_seconds"])
        self.assertGreater(warmup, 0)
        self.assertLess(warmup, 1.5)
        self.assertGreaterEqual(float(c["steady_flop_per_second"]), 0)
        timeline = c["clock_ramp_timeline"]
        if isinstance(timeline, str):
            timeline = json.loads(timeline)
        self.assertGreaterEqual(len(timeline), 3)
        self.assertTrue(all(len(pair) == 2 and pair[1] > 0 for pair in timeline))
        self.assertAlmostEqual(timeline[-1][0], warmup, places=3)

    def test_no_warmup(self):
        c = self.context("--warmup_s=0")
        self.assertNotIn("warmup_seconds", c)


if __name__ == "__main__":
    unittest.main()
