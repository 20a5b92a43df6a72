"""The harness writes a declared poison before a benchmark's first run, for every benchmark: two
variants sharing one output buffer (the test hook L0/SelfTest/poison_first and poison_second,
bench/l0/self_test.cpp, registered only with GPU_BENCH_SELFTEST_POISON=1) each read the buffer at
their first run and fail their check unless it holds 0xFF in every byte. Without the fill, the
second would start from the first one's correct answer, and a variant that skips part of its
output would pass."""
import os
import subprocess
import tempfile
import unittest

from cli_support import GPU_BENCH, require_device, strict_load


class Poison(unittest.TestCase):
    def test_each_variant_starts_from_the_poison(self):
        require_device()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.json")
            done = subprocess.run([GPU_BENCH, "--size=1", "--warmup_s=0", "--max_time=0.01", "--progress=0",
                                   "--benchmark_filter=^L0/SelfTest/poison_", "--benchmark_out=" + path],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120,
                                  env=dict(os.environ, GPU_BENCH_SELFTEST_POISON="1"))
            self.assertEqual(done.returncode, 0, done.stderr)
            runs = [b for b in strict_load(path)["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
        names = [b["name"].split("/")[2] for b in runs]
        self.assertEqual(names, ["poison_first", "poison_second"])
        for b in runs:
            self.assertFalse(b.get("error_occurred"), b.get("error_message"))
            self.assertEqual((b["rel_error"], b["margin"]), (0, 0), b["name"])


if __name__ == "__main__":
    unittest.main()
