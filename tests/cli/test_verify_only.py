"""--verify_only runs one unit per benchmark (no calibration, one sample) and still checks it;
--skip_checks (for a simulator running part of each grid: run_oclgrind.py --quick) runs no check."""
import os
import subprocess
import tempfile
import unittest

from cli_support import GPU_BENCH, require_device, strict_load

FILTER = "^L0/LocalMemory/read/type:float/stride:1/"


def run(*flags):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.json")
        done = subprocess.run([GPU_BENCH, "--size=1", "--warmup_s=0", "--progress=0", "--benchmark_filter=" + FILTER,
                               "--benchmark_out=" + path, *flags], capture_output=True, text=True, timeout=120)
        runs = strict_load(path)["benchmarks"] if os.path.exists(path) else []
    return done, [b for b in runs if b.get("run_type", "iteration") == "iteration"]


class VerifyOnly(unittest.TestCase):
    def setUp(self):
        require_device()

    def test_one_unit_then_the_check(self):
        done, runs = run("--verify_only")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(runs), 1)
        self.assertEqual((runs[0]["samples"], runs[0]["batch"]), (1, 1))
        self.assertLessEqual(runs[0]["rel_error"], runs[0]["margin"])
        self.assertNotIn("noise", done.stderr)

    def test_skip_checks_reports_no_error_counters(self):
        done, runs = run("--verify_only", "--skip_checks")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(runs), 1)
        self.assertNotIn("rel_error", runs[0])


if __name__ == "__main__":
    unittest.main()


class ProgramDump(unittest.TestCase):
    """GPU_BENCH_PROGRAM_DUMP=DIR writes each program built: its binary and its options and log."""

    def setUp(self):
        require_device()

    def test_each_program_built_is_written_with_its_options(self):
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([GPU_BENCH, "--size=1", "--warmup_s=0", "--progress=0", "--verify_only",
                                   "--benchmark_filter=" + FILTER], capture_output=True, text=True, timeout=120,
                                  env=dict(os.environ, GPU_BENCH_PROGRAM_DUMP=tmp))
            self.assertEqual(done.returncode, 0, done.stderr)
            texts = [f for f in os.listdir(tmp) if f.startswith("l0_local_memory.cl.") and f.endswith(".txt")]
            self.assertEqual(len(texts), 1, os.listdir(tmp))
            with open(os.path.join(tmp, texts[0])) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines[0], "l0/local_memory.cl")
            self.assertTrue(lines[1].startswith("options: ") and "-D" in lines[1], lines[1])
            binary = os.path.join(tmp, texts[0][:-4] + ".bin")
            self.assertTrue(os.path.exists(binary) or os.path.exists(binary[:-4] + ".ptx"))
            self.assertGreater(os.path.getsize(binary if os.path.exists(binary) else binary[:-4] + ".ptx"), 0)
