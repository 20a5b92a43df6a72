# test_gate.py: the decisions of tools/gate on synthetic gpu_bench runs, checked through its exit status and output.
# Cases: no change, clean and noisy slowdowns, speed-up, rates, device mismatch, errored entries, bad input.
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

sys.path.insert(0, sr.TOOLS)
import gbresults as gb  # noqa: E402

BW = "L0/GlobalBandwidth/copy/type:float4/access:coalesced/size:3/manual_time"
GEMM = "L1/GEMM/tiled/n:1024/wg:16x16/manual_time"
BYTES = 64 << 20


class GateCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, entries, ctx=None):
        return sr.write_run(self.path(name), entries, ctx)

    def pair(self, base_times, cur_times, **kwargs):
        """Baseline and current runs of one bandwidth benchmark with the given repetition times (ns)."""
        base = self.write("base.json", sr.bench(BW, base_times, bytes_moved=BYTES, **kwargs))
        cur = self.write("cur.json", sr.bench(BW, cur_times, bytes_moved=BYTES, **kwargs))
        return base, cur

    def gate(self, *args):
        return sr.run_tool("gate", *args)

    def rows(self, output, verdict):
        """Table rows (benchmark, metric) whose verdict column is `verdict`."""
        return [tuple(line.split()[:2]) for line in output.splitlines() if line.rstrip().endswith(verdict)]


class Decisions(GateCase):
    def test_no_change_passes(self):
        base, cur = self.pair(sr.noisy(1e6, 10, 0.01, 1), sr.noisy(1e6, 10, 0.01, 2))
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("PASS", done.stdout)
        self.assertEqual(self.rows(done.stdout, "REGRESSION"), [])

    def test_slowdown_of_10_percent_with_10_repetitions_fails(self):
        base, cur = self.pair(sr.noisy(1e6, 10, 0.01, 1), sr.noisy(1.1e6, 10, 0.01, 2))
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        # Both the time and the rate derived from it regress: the rate counts as higher-is-better.
        self.assertEqual(self.rows(done.stdout, "REGRESSION"), [(BW, "time"), (BW, "bytes_per_second")])
        self.assertIn("U test 10v10", done.stdout)

    def test_noisy_slowdown_with_2_repetitions_is_inconclusive(self):
        # Two repetitions cannot make a U test significant (smallest two-sided p is 1/3): no failure.
        base, cur = self.pair(sr.noisy(1e6, 2, 0.10, 3), sr.noisy(1.1e6, 2, 0.10, 4))
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertEqual(self.rows(done.stdout, "REGRESSION"), [])
        self.assertEqual(self.rows(done.stdout, "inconclusive"), [(BW, "time"), (BW, "bytes_per_second")])

    def test_speedup_never_fails(self):
        base, cur = self.pair(sr.noisy(1e6, 10, 0.01, 1), sr.noisy(0.8e6, 10, 0.01, 2))
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertEqual(self.rows(done.stdout, "improved"), [(BW, "time"), (BW, "bytes_per_second")])

    def test_slowdown_below_threshold_passes(self):
        base, cur = self.pair(sr.noisy(1e6, 10, 0.005, 1), sr.noisy(1.03e6, 10, 0.005, 2))
        self.assertEqual(self.gate(base, cur).returncode, 0)
        # ... and the threshold is a flag.
        self.assertEqual(self.gate("--threshold", "2", base, cur).returncode, 1)
        base, cur = self.pair(sr.noisy(1e6, 10, 0.01, 1), sr.noisy(1.1e6, 10, 0.01, 2))
        self.assertEqual(self.gate("--threshold", "15", base, cur).returncode, 0)

    def test_rate_regression_alone_fails(self):
        # Same time, but fewer bytes per second (e.g. the kernel now moves less useful data).
        times = sr.noisy(1e6, 10, 0.01, 1)
        base = self.write("base.json", sr.bench(BW, times, bytes_moved=BYTES))
        cur = self.write("cur.json", sr.bench(BW, times, bytes_moved=BYTES * 0.8))
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertEqual(self.rows(done.stdout, "REGRESSION"), [(BW, "bytes_per_second")])

    def test_single_runs_use_the_threshold_alone(self):
        base, cur = self.pair([1e6], [1.1e6])
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("single run", done.stdout)
        base, cur = self.pair([1e6], [1.02e6])
        self.assertEqual(self.gate(base, cur).returncode, 0)

    def test_aggregates_only_files_use_welch(self):
        base, cur = self.pair(sr.noisy(1e6, 10, 0.01, 1), sr.noisy(1.1e6, 10, 0.01, 2), aggregates_only=True)
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("Welch t 10v10", done.stdout)


class Devices(GateCase):
    def test_device_mismatch_is_refused_unless_allowed(self):
        times = sr.noisy(1e6, 5, 0.01, 1)
        base = self.write("base.json", sr.bench(BW, times), sr.context(sr.FINGERPRINT_A, "GPU A"))
        cur = self.write("cur.json", sr.bench(BW, times), sr.context(sr.FINGERPRINT_B, "GPU B"))
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertIn("--allow-device-mismatch", done.stderr)
        allowed = self.gate("--allow-device-mismatch", base, cur)
        self.assertEqual(allowed.returncode, 0, allowed.stdout + allowed.stderr)
        self.assertIn("warning", allowed.stderr)


class ErroredAndListed(GateCase):
    def runs(self, current_error):
        times = sr.noisy(1e6, 3, 0.01, 1)
        base = self.write("base.json", sr.bench(BW, times) + sr.bench(GEMM, times) + sr.bench("L2/Old", times))
        cur = self.write("cur.json", sr.bench(BW, times) + sr.bench(GEMM, times, error=current_error)
                         + sr.bench("L2/New", times))
        return base, cur

    def test_verification_failure_in_current_fails(self):
        base, cur = self.runs("verification failed: max rel error 0.3 > 1e-4")
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("1 verification failure", done.stdout)
        self.assertIn(f"Errored in CURRENT (1):\n  {GEMM}: verification failed", done.stdout)

    def test_missing_new_and_errored_are_listed_separately(self):
        base, cur = self.runs("CL_OUT_OF_RESOURCES while enqueueing")
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 0, done.stdout)  # an error that is not a verification failure
        self.assertIn("Missing from CURRENT (1):\n  L2/Old", done.stdout)
        self.assertIn("New in CURRENT (1):\n  L2/New", done.stdout)
        self.assertIn(f"Errored in CURRENT (1):\n  {GEMM}: CL_OUT_OF_RESOURCES", done.stdout)
        self.assertEqual(self.gate("--fail-on-error", base, cur).returncode, 1)
        self.assertEqual(self.gate("--fail-on-missing", base, cur).returncode, 1)

    def test_error_in_baseline_only_is_listed_not_compared(self):
        times = sr.noisy(1e6, 3, 0.01, 1)
        healthy = sr.bench(GEMM, times, flop=2e9)  # something to compare: comparing nothing is an error
        base = self.write("base.json", sr.bench(BW, times, error="verification failed: bad") + healthy)
        cur = self.write("cur.json", sr.bench(BW, times) + healthy)
        done = self.gate(base, cur)
        self.assertEqual(done.returncode, 0, done.stdout)
        self.assertIn("Errored in BASELINE only", done.stdout)


class Input(GateCase):
    def assert_bad_input(self, done):
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)

    def test_comparing_nothing_is_an_error(self):
        base, _ = self.pair([1e6], [1e6])
        empty = self.write("empty.json", [])
        other = self.write("other.json", sr.bench(GEMM, [1e6], flop=2e9))
        errored = self.write("errored.json", sr.bench(BW, [1e6], error="CL_OUT_OF_RESOURCES"))
        for current in (empty, other, errored):
            done = self.gate(base, current)
            self.assert_bad_input(done)
            self.assertIn("compared nothing", done.stderr)

    def test_threshold_must_be_a_finite_number(self):
        base, cur = self.pair([1e6], [2e6])
        for bad in ("nan", "inf", "-1"):
            done = self.gate(base, cur, "--threshold", bad)
            self.assertEqual(done.returncode, 2, (bad, done.stdout, done.stderr))

    def test_unwritable_markdown_names_the_file(self):
        base, cur = self.pair([1e6], [1e6])
        target = self.path("no/such/folder/gate.md")
        done = self.gate(base, cur, "--markdown", target)
        self.assert_bad_input(done)
        self.assertIn(target, done.stderr)
        self.assertNotIn(".tmp", done.stderr)

    def test_missing_file(self):
        base, _ = self.pair([1e6], [1e6])
        self.assert_bad_input(self.gate(base, self.path("nope.json")))

    def test_not_json(self):
        base, _ = self.pair([1e6], [1e6])
        with open(self.path("junk.json"), "w") as handle:
            handle.write("Running ./gpu_bench\n{ not json")
        self.assert_bad_input(self.gate(base, self.path("junk.json")))

    def test_no_benchmarks_key(self):
        base, _ = self.pair([1e6], [1e6])
        with open(self.path("ctx.json"), "w") as handle:
            json.dump({"context": sr.context()}, handle)
        self.assert_bad_input(self.gate(self.path("ctx.json"), base))

    def test_bare_nan_and_infinity_are_missing_values(self):
        entries = sr.bench(BW, sr.noisy(1e6, 3, 0.01, 1), bytes_moved=BYTES)
        entries[0]["bytes_per_second"] = float("nan")
        entries[1]["flop_per_second"] = float("inf")
        entries[2]["flop_per_second"] = float("-inf")
        base = self.write("base.json", entries)
        with open(base) as handle:
            text = handle.read()
        self.assertIn("NaN", text)  # json.dump writes them bare, as Google Benchmark does
        self.assertIn("-Infinity", text)
        done = self.gate(base, base)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        run = gb.load_run(base)
        self.assertEqual(len(run.benches[BW].values("bytes_per_second")), 2)
        self.assertNotIn("flop_per_second", run.benches[BW].metrics())


class Markdown(GateCase):
    def test_markdown_summary_for_a_pull_request(self):
        base, cur = self.pair(sr.noisy(1e6, 10, 0.01, 1), sr.noisy(1.1e6, 10, 0.01, 2))
        md = self.path("summary.md")
        done = self.gate("--markdown", md, base, cur)
        self.assertEqual(done.returncode, 1)
        with open(md) as handle:
            text = handle.read()
        self.assertIn("FAIL", text.splitlines()[0])
        self.assertIn(f"| `{BW}` | time |", text)
        self.assertIn("REGRESSION |", text)
        self.assertEqual([f for f in os.listdir(self.tmp.name) if f.endswith(".tmp")], [])


if __name__ == "__main__":
    unittest.main()
