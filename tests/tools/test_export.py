# test_export.py: tools/export on synthetic runs: Bencher Metric Format and github-action-benchmark custom JSON.
# Checks values and units, rates as bigger-is-better series, strict JSON output, skipped errors and bad input.
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
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
        self.assertEqual(sorted(data), sorted([BW, GEMM]))  # the errored one is left out ...
        self.assertIn(BROKEN, done.stderr)                  # ... and said so
        bw = data[BW]
        self.assertEqual(sorted(bw), ["bytes-per-second", "latency"])
        # Latency is Bencher's built-in measure in nanoseconds: the median of the repetitions.
        self.assertAlmostEqual(bw["latency"]["value"], 1.0e6)
        self.assertAlmostEqual(bw["latency"]["lower_value"], 0.9e6)
        self.assertAlmostEqual(bw["latency"]["upper_value"], 1.1e6)
        self.assertAlmostEqual(bw["bytes-per-second"]["value"], BYTES / 1e-3)
        self.assertLess(bw["bytes-per-second"]["lower_value"], bw["bytes-per-second"]["upper_value"])
        gemm = data[GEMM]
        self.assertEqual(sorted(gemm), ["bytes-per-second", "flop-per-second", "latency"])
        self.assertEqual(gemm["latency"], {"value": 2e6})  # one run: no interval
        self.assertAlmostEqual(gemm["flop-per-second"]["value"], FLOP / 2e-3)

    def test_github_action_benchmark_rates_are_bigger_is_better(self):
        data, _ = self.export("--format", "github-action-benchmark", self.run_file)
        by_name = {e["name"]: e for e in data}
        self.assertEqual(sorted(by_name), sorted([f"{BW} (bytes_per_second)", f"{GEMM} (bytes_per_second)",
                                                  f"{GEMM} (flop_per_second)"]))
        for entry in data:
            self.assertLessEqual({"name", "unit", "value", "extra"}, set(entry))
            self.assertLessEqual(set(entry), {"name", "unit", "value", "range", "extra"})
            self.assertIn(sr.FINGERPRINT_A, entry["extra"])
        self.assertEqual(by_name[f"{BW} (bytes_per_second)"]["unit"], "GB/s")
        self.assertAlmostEqual(by_name[f"{BW} (bytes_per_second)"]["value"], 1000.0)
        self.assertTrue(by_name[f"{BW} (bytes_per_second)"]["range"].startswith("± "))
        self.assertEqual(by_name[f"{GEMM} (flop_per_second)"]["unit"], "GFLOP/s")
        self.assertAlmostEqual(by_name[f"{GEMM} (flop_per_second)"]["value"], 1000.0)

    def test_github_action_benchmark_times_are_smaller_is_better(self):
        data, _ = self.export("--format", "github-action-benchmark", "--series", "times", self.run_file)
        self.assertEqual([(e["name"], e["unit"], e["value"]) for e in data], [(BW, "ns", 1.0e6), (GEMM, "ns", 2e6)])

    def test_output_file_is_strict_json(self):
        out = os.path.join(self.dir, "bmf.json")
        done = sr.run_tool("export", "--format", "bencher", "-o", out, self.run_file)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, "")
        with open(out) as handle:
            strict_loads(handle.read())
        self.assertEqual(sorted(os.listdir(self.dir)), ["bmf.json", "run.json"])  # no temporary left

    def test_bad_input_exits_2_with_one_line(self):
        junk = os.path.join(self.dir, "junk.json")
        with open(junk, "w") as handle:
            handle.write('{"context": {}}')
        for path in (junk, os.path.join(self.dir, "missing.json")):
            done = sr.run_tool("export", "--format", "bencher", path)
            self.assertEqual(done.returncode, 2)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
            self.assertEqual(done.stdout, "")


if __name__ == "__main__":
    unittest.main()
