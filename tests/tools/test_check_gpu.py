# test_check_gpu.py: tools/check-gpu runs gpu_bench at each size, writes its JSON under --out, and
# exits non-zero with one line per failing benchmark and a table last.
"""Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_check_gpu"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "check-gpu")
TINY = "^L0/LocalMemory/read/type:float/stride:1/"

# A stand-in for gpu_bench: one verified benchmark and one failed check per size.
FAKE = textwrap.dedent("""\
    #!%s
    import json, sys
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
    size = args["size"]
    ok = {"name": "L0/GlobalBandwidth/copy/type:float/size:%%s/manual_time" %% size, "rel_error": 0, "margin": 0}
    bad = {"name": "L0/GlobalBandwidth/write/type:float/size:%%s/manual_time" %% size, "error_occurred": True,
           "error_message": "verification failed: out: error 1 > margin 0"}
    json.dump({"context": {"device": "fake", "device_type": "gpu"}, "benchmarks": [ok, bad]},
              open(args["benchmark_out"], "w"))
    sys.exit(1)
    """) % sys.executable


class CheckGpu(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def run_tool(self, *args):
        return subprocess.run([sys.executable, TOOL, "--out", self.tmp.name, *args], capture_output=True, text=True,
                              timeout=300)

    def test_a_passing_run_on_the_default_device(self):
        done = self.run_tool("--gpu_bench", os.environ["GPU_BENCH"], "--filter", TINY)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        for size in (1, 2):
            self.assertTrue(os.path.exists(os.path.join(self.tmp.name, f"check_size_{size}.json")))
        table = done.stdout.strip().split("\n")
        self.assertNotIn("FAIL", done.stdout)
        self.assertRegex(table[-3], r"^\s+1\s+1\s+1\s+0\s")
        self.assertRegex(table[-2], r"^\s+2\s+1\s+1\s+0\s")

    def test_each_failing_benchmark_is_one_line_and_the_exit_is_non_zero(self):
        fake = os.path.join(self.tmp.name, "fake_gpu_bench")
        with open(fake, "w") as f:
            f.write(FAKE)
        os.chmod(fake, 0o755)
        done = self.run_tool("--gpu_bench", fake)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        fails = [line for line in done.stdout.split("\n") if line.startswith("FAIL")]
        self.assertEqual(fails, ["FAIL size 1: L0/GlobalBandwidth/write/type:float/size:1: verification failed: out: error 1 > margin 0",
                                 "FAIL size 2: L0/GlobalBandwidth/write/type:float/size:2: verification failed: out: error 1 > margin 0"])
        self.assertRegex(done.stdout, r"\n\s+1\s+2\s+1\s+1\s.*fake \(gpu\)\n\s+2\s+2\s+1\s+1\s")

    def test_a_crash_fails_even_without_failing_benchmarks(self):
        done = self.run_tool("--gpu_bench", "/bin/false")
        self.assertEqual(done.returncode, 1)
        self.assertIn("FAIL size 1: gpu_bench exited with 1 and no failing benchmark", done.stdout)


if __name__ == "__main__":
    unittest.main()
