"""A 2-D FFT above the one-copy size (2048^2 at --size=3: 96 MiB of out, a and b) rotates over 8
copies of its buffers (support/working_sets), reports working_sets=8, and its third check, the
copies that ran against the first bit for bit, passes at margin 0 (one copy up to 64 MiB:
tests/support/working_sets_test.cpp).
Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_working_sets"""
import os
import tempfile
import unittest

from cli_support import require_device, run, strict_load


class WorkingSets(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_device()

    def test_large_transform_rotates_and_its_copies_agree(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run.json")
            # At least 8 units run: 10 samples of one unit each after calibration.
            p = run("--size=3", "--warmup_s=0", "--min_sample_ms=1", "--min_samples=10", "--max_noise=100", "--max_time=5",
                    "--progress=0", "--benchmark_filter=^L1/FFT2D/rows_cols/n:2048x2048/dir:forward/",
                    "--benchmark_out=" + out, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr)
            runs = {b["name"].split("/n:")[1].split("/")[0]: b for b in strict_load(out)["benchmarks"]}
        self.assertEqual(sorted(runs), ["2048x2048"])
        large = runs["2048x2048"]
        self.assertEqual(large["working_sets"], 8)
        self.assertGreaterEqual(large["samples"] * large["batch"], 8)
        self.assertNotIn("error_occurred", large)
        self.assertEqual(large["margin_3"], 0)
        self.assertEqual(large["rel_error_3"], 0)


if __name__ == "__main__":
    unittest.main()
