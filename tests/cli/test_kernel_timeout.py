"""Hung or runaway kernels (--kernel_timeout): a run whose kernel never finishes ends within the
limit with exit code 5 and a valid JSON holding the finished benchmarks and the hung one as an
error. The hung kernel is the test hook L0/SelfTest/spin (bench/l0/self_test.cpp), registered only
with GPU_BENCH_SELFTEST_HANG=1; it spins on a flag nothing sets."""
import os
import subprocess
import tempfile
import time
import unittest

from cli_support import GPU_BENCH, require_device, run, strict_load

QUICK = ["--size=1", "--warmup_s=0", "--max_time=0.1", "--progress=0"]
FAST = "L0/LocalMemory/read/type:float/stride:1/"
SPIN = "L0/SelfTest/spin/"
LIMIT = 2


def hook_env():
    return dict(os.environ, GPU_BENCH_SELFTEST_HANG="1")


class KernelTimeout(unittest.TestCase):
    def setUp(self):
        require_device()
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "run.json")

    def tearDown(self):
        self.tmp.cleanup()

    def test_spinning_kernel_ends_the_run_with_a_valid_json(self):
        started = time.monotonic()
        proc = subprocess.Popen([GPU_BENCH, "--benchmark_filter=^(%s|%s)" % (FAST, SPIN), *QUICK,
                                 "--kernel_timeout=%d" % LIMIT, "--benchmark_out=" + self.path],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=hook_env())
        try:
            out, err = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            self.fail("gpu_bench did not end within 90 s of a %d s --kernel_timeout" % LIMIT)
        elapsed = time.monotonic() - started
        self.assertEqual(proc.returncode, 5, err)
        # The limit, plus start-up, the fast benchmark and the builds on a shared 2-core machine.
        self.assertGreaterEqual(elapsed, LIMIT)
        self.assertLess(elapsed, LIMIT + 45, err)
        message = "kernel did not finish within %d s (--kernel_timeout)" % LIMIT
        lines = [l for l in err.splitlines() if message in l]
        self.assertEqual(len(lines), 1, err)
        self.assertIn("exit 5", lines[0])

        data = strict_load(self.path)
        self.assertEqual(data["context"]["aborted"], "kernel_timeout")
        self.assertTrue(data["context"]["hung_in"].startswith(SPIN), data["context"]["hung_in"])
        by_name = {b["name"]: b for b in data["benchmarks"]}
        finished = [b for n, b in by_name.items() if n.startswith(FAST)]
        self.assertEqual(len(finished), 1, list(by_name))
        self.assertFalse(finished[0].get("error_occurred"), finished[0])
        self.assertGreater(finished[0]["real_time"], 0)
        hung = [b for n, b in by_name.items() if n.startswith(SPIN)]
        self.assertEqual(len(hung), 1, list(by_name))
        self.assertTrue(hung[0]["error_occurred"])
        self.assertEqual(hung[0]["error_message"], message)
        self.assertEqual(hung[0]["run_type"], "iteration")
        # The file was renamed into place: no temporary file is left beside it.
        self.assertEqual(os.listdir(self.tmp.name), ["run.json"])
        # The console shows the hung benchmark too.
        self.assertIn(SPIN, out)

    def test_hook_is_absent_without_its_variable(self):
        env = {k: v for k, v in os.environ.items() if k != "GPU_BENCH_SELFTEST_HANG"}
        p = subprocess.run([GPU_BENCH, "--benchmark_list_tests", "--size=1", "--warmup_s=0"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("SelfTest", p.stdout)


class KernelTimeoutFlag(unittest.TestCase):
    def test_bad_values_are_usage_errors_with_one_line(self):
        for value in ("-1", "abc", "", "nan", "1e9"):
            p = run("--kernel_timeout=" + value, "--size=1", "--warmup_s=0", timeout=60)
            self.assertEqual(p.returncode, 2, (value, p.stderr))
            self.assertEqual(p.stderr.count("\n"), 1, (value, p.stderr))
            self.assertTrue(p.stderr.startswith("gpu_bench: error: --kernel_timeout: "), (value, p.stderr))

    def test_help_documents_the_flag_and_exit_code(self):
        p = run("--help", timeout=60)
        self.assertIn("--kernel_timeout=S", p.stdout)
        self.assertIn("5 a kernel did not finish", p.stdout)


if __name__ == "__main__":
    unittest.main()
