# test_real_run.py: feeds real gpu_bench JSON (from $GPU_BENCH, which ctest sets) to tools/gate, export and report.
# Guards the contract between the C++ side's file and the tools; skipped when $GPU_BENCH is unset or finds no device.
"""Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

FILTER = "^L0/GlobalBandwidth/copy/type:float4/"
NO_DEVICE = 4  # gpu_bench's exit status when there is no usable OpenCL device


class RealRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        exe = os.environ.get("GPU_BENCH")
        if not exe or not os.access(exe, os.X_OK):
            raise unittest.SkipTest("GPU_BENCH does not name the gpu_bench executable")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.run_file = os.path.join(cls.tmp.name, "real.json")
        done = subprocess.run([exe, "--size=1", f"--benchmark_filter={FILTER}", "--benchmark_min_time=0.01",
                               "--benchmark_repetitions=5", f"--benchmark_out={cls.run_file}",
                               # CI runs tests side by side: a busy host (or the probe of a CPU device the other tests
                               # load) would make every benchmark unreliable to the gate, which this test is not about.
                               "--max_host_busy=1", "--max_mem_pressure=1", "--min_mem_available=0", "--warmup_s=0",
                               "--benchmark_out_format=json"], capture_output=True, text=True, timeout=600)
        if done.returncode == NO_DEVICE:
            cls.tmp.cleanup()
            raise unittest.SkipTest("gpu_bench found no OpenCL device")
        assert done.returncode == 0, done.stderr[-2000:]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def slowed_copy(self, factor):
        """The real run with every time multiplied and every rate divided by factor."""
        with open(self.run_file) as handle:
            data = json.loads(handle.read(), parse_constant=lambda token: None)
        for entry in data["benchmarks"]:
            if entry.get("aggregate_name") == "cv":
                continue
            for key, value in entry.items():
                if isinstance(value, float) and key in ("real_time", "cpu_time"):
                    entry[key] = value * factor
                elif isinstance(value, float) and key.endswith("_per_second"):
                    entry[key] = value / factor
        return sr.write_run(os.path.join(self.tmp.name, "slow.json"), data["benchmarks"], data["context"])

    def test_gate_passes_a_run_against_itself(self):
        done = sr.run_tool("gate", self.run_file, self.run_file)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("Welch 5v5", done.stdout)

    def test_gate_fails_a_run_three_times_slower(self):
        done = sr.run_tool("gate", self.run_file, self.slowed_copy(3.0))
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)

    def test_exports_and_report_accept_it(self):
        for fmt in ("bencher", "github-action-benchmark"):
            done = sr.run_tool("export", "--format", fmt, self.run_file)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertTrue(json.loads(done.stdout))
        sr.need(sr.have_matplotlib(), "python3-matplotlib")
        out = os.path.join(self.tmp.name, "report.html")
        done = sr.run_tool("report", self.run_file, "-o", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out, encoding="utf-8") as handle:
            self.assertIn('data-kind="roofline"', handle.read())


if __name__ == "__main__":
    unittest.main()
