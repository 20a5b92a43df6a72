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


def measured_alone(name_filter, min_samples):
    """The one benchmark the filter selects, run at size 3 with min_samples samples of one unit."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        p = run("--size=3", "--warmup_s=0", "--min_sample_ms=1", f"--min_samples={min_samples}", "--max_noise=100",
                "--max_time=5", "--progress=0", "--benchmark_filter=" + name_filter, "--benchmark_out=" + out, timeout=600)
        if p.returncode != 0:
            raise AssertionError(p.stderr)
        runs = strict_load(out)["benchmarks"]
    if len(runs) != 1:
        raise AssertionError(f"{name_filter} selected {[b['name'] for b in runs]}")
    return runs[0]


class WorkingSets(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_device()

    def test_large_transform_rotates_and_its_copies_agree(self):
        # At least 8 units run: 10 samples of one unit each after calibration.
        large = measured_alone("^L1/FFT2D/rows_cols/n:2048x2048/dir:forward/", 10)
        self.assertIn("/n:2048x2048/", large["name"])
        self.assertEqual(large["working_sets"], 8)
        self.assertGreaterEqual(large["samples"] * large["batch"], 8)
        self.assertNotIn("error_occurred", large)
        self.assertEqual(large["margin_3"], 0)
        self.assertEqual(large["rel_error_3"], 0)

    def test_large_image_rotates_its_input_and_output(self):
        box = measured_alone("^L1/BoxFilter/strip_vec/type:rgba8/radius:1/cols:4/rows:16/wg:64x1/", 5)
        self.assertEqual(box["working_sets"], 4)
        self.assertGreaterEqual(box["samples"] * box["batch"], 4)
        self.assertNotIn("error_occurred", box)
        self.assertEqual(box["margin_1"], 0)  # RGBA8: bit-exact against the reference
        self.assertEqual(box["margin_2"], 0)  # the copies that ran against the first


if __name__ == "__main__":
    unittest.main()
