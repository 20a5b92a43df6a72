"""A 2-D FFT above the one-copy size (2048^2 at --size=3: 96 MiB of out, a and b) rotates over 8
copies of its buffers (support/working_sets), reports working_sets=8, and its third check, the
copies that ran against the first bit for bit, passes at margin 0 (one copy up to 64 MiB:
tests/support/working_sets_test.cpp). The box filter's 8192^2 image (in and out: 512 MiB) rotates
over 4 copies of its input and output, and checks them the same way.
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

    def test_large_image_rotates_its_input_and_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run.json")
            p = run("--size=3", "--warmup_s=0", "--min_sample_ms=1", "--min_samples=5", "--max_noise=100", "--max_time=5",
                    "--progress=0", "--benchmark_filter=^L1/BoxFilter/strip_vec/type:rgba8/radius:1/cols:4/rows:16/wg:64x1/",
                    "--benchmark_out=" + out, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr)
            runs = strict_load(out)["benchmarks"]
        self.assertEqual(len(runs), 1)
        box = runs[0]
        self.assertEqual(box["working_sets"], 4)
        self.assertGreaterEqual(box["samples"] * box["batch"], 4)
        self.assertNotIn("error_occurred", box)
        self.assertEqual(box["margin_1"], 0)  # RGBA8: bit-exact against the reference
        self.assertEqual(box["margin_2"], 0)  # the copies that ran against the first


if __name__ == "__main__":
    unittest.main()
