# test_environment.py: the environment during a run (issue 15): counters of the host's state per
# benchmark; a host kept busy by other processes is a warning in the JSON and on stderr, and
# --strict_env refuses to start on it (exit 3).
"""Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_environment"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from cli_support import require_device, run, strict_load

QUICK = ["--size=1", "--warmup_s=0.1", "--min_sample_ms=1", "--max_time=0.3", "--progress=0"]
ONE = "--benchmark_filter=^L0/ConstantMemory/read/access:uniform/"


class Environment(unittest.TestCase):
    def setUp(self):
        require_device()
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "run.json")

    def busy_host(self):
        """Every core kept busy by another process until the test ends."""
        loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]

        def stop():
            for p in loops:
                p.kill()
                p.wait()
        self.addCleanup(stop)
        time.sleep(0.5)

    def test_every_benchmark_reports_the_host_it_ran_on(self):
        p = run(ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        data = strict_load(self.out)
        b = data["benchmarks"][0]
        for key in ("host_busy", "mem_available_bytes", "involuntary_switches"):
            self.assertIn(key, b)
        self.assertTrue(0 <= b["host_busy"] <= 1)
        self.assertGreater(b["mem_available_bytes"], 0)
        self.assertNotIn("host_busy", b.get("metrics", []))  # a condition, not a metric to gate
        for key in ("host_busy_at_start", "host_busy_benchmarks", "slow_device_benchmarks", "device_rewarms"):
            self.assertIn(key, data["context"])

    def test_a_busy_host_is_a_warning(self):
        self.busy_host()
        p = run(ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("warning: other processes use", p.stderr)
        data = strict_load(self.out)
        self.assertGreater(data["benchmarks"][0]["host_busy"], 0.25)
        self.assertIn("L0/ConstantMemory/read/access:uniform", data["context"]["host_busy_benchmarks"])

    def test_strict_env_refuses_a_busy_host(self):
        self.busy_host()
        p = run("--strict_env", ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("error: other processes use", p.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_max_host_busy_is_validated(self):
        for bad in ("-0.1", "1.5", "x", ""):
            p = run("--max_host_busy=" + bad, ONE, *QUICK)
            self.assertEqual(p.returncode, 2, (bad, p.stderr))
        for flag, bad in (("--max_mem_pressure", "2"), ("--max_mem_pressure", "-1"), ("--min_mem_available", "x")):
            p = run(f"{flag}={bad}", ONE, *QUICK)
            self.assertEqual(p.returncode, 2, (flag, bad, p.stderr))

    def test_device_readings_flag_a_throttled_or_shared_device(self):
        # Without a source (PoCL) the readings are absent, never zeros.
        p = run(ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        data = strict_load(self.out)
        self.assertEqual(data["context"]["telemetry_source"], "")
        self.assertNotIn("gpu_uuid", data["context"])  # no id rather than an empty one
        self.assertNotIn("gpu_memory_health", data["context"])
        for key in ("gpu_temperature_c", "sm_clock_mhz", "throttle_reasons", "gpu_other_processes"):
            self.assertNotIn(key, data["benchmarks"][0])
        # The hook reports a hardware thermal slowdown and a second process on the device.
        hook = {"GPU_BENCH_TEST_TELEMETRY":
                "throttle=0x40,sm_clock=900,uuid=GPU-7e57,other_processes=1,temperature=88,remapped_rows=3"}
        p = run(ONE, *QUICK, "--max_host_busy=1", "--benchmark_out=" + self.out, env=hook)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("throttled: thermal (hardware); 1 other process(es) on the GPU", p.stderr)
        data = strict_load(self.out)
        b = data["benchmarks"][0]
        self.assertEqual((b["throttle_reasons"], b["gpu_other_processes"], b["gpu_temperature_c"]), (0x40, 1, 88))
        flagged = json.loads(data["context"]["device_condition_benchmarks"])
        self.assertEqual([f["name"] for f in flagged], [b["name"].replace("/manual_time", "")])
        self.assertEqual(data["context"]["telemetry_source"], "test hook")
        self.assertEqual(data["context"]["gpu_uuid"], "GPU-7e57")
        self.assertEqual(json.loads(data["context"]["gpu_memory_health"]), {"remapped_rows_correctable": 3})
        p = run("--strict_env", "--max_cpu_load=1000", "--max_host_busy=1", ONE, *QUICK, "--benchmark_out=" + self.out,
                env=hook)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertTrue(strict_load(self.out)["benchmarks"][0].get("error_occurred"))
        # An SM clock below 0.9 of the one after the warm-up (the warm-up runs here), power-capped.
        slow = {"GPU_BENCH_TEST_TELEMETRY": "throttle=0x4,sm_clock=1500,steady_sm_clock=1980"}
        p = run(ONE, *[a for a in QUICK if not a.startswith("--warmup_s")], "--warmup_s=0.3", "--max_host_busy=1",
                "--benchmark_out=" + self.out, env=slow)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("SM clock 1500 MHz below its steady 1980 MHz (power cap)", p.stderr)

    def test_the_device_and_host_clock_is_used_or_its_absence_named(self):
        p = run("--benchmark_filter=^L0/Enqueue/(host_to_start|dispatch)/queue:in_order/", *QUICK,
                "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        data = strict_load(self.out)
        ran = [b["name"] for b in data["benchmarks"] if "/host_to_start/" in b["name"]]
        skipped = [s for s in json.loads(data["context"]["skipped_variants"]) if "/host_to_start/" in s["name"]]
        if ran:  # a platform with clGetDeviceAndHostTimer
            self.assertFalse(data["benchmarks"][0].get("error_occurred"))
        else:
            self.assertTrue(skipped and all("clGetDeviceAndHostTimer" in s["reason"] for s in skipped), skipped)

    def test_too_little_memory_available_is_flagged_and_refused_when_strict(self):
        # A limit above any machine's memory stands in for a host that is short of it.
        p = run("--min_mem_available=1e9", "--max_host_busy=1", ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("of memory available (--min_mem_available", p.stderr)
        data = strict_load(self.out)
        flagged = json.loads(data["context"]["memory_pressure_benchmarks"])
        self.assertEqual([f["name"] for f in flagged], [data["benchmarks"][0]["name"].replace("/manual_time", "")])
        self.assertTrue(flagged[0]["reason"].startswith("memory pressure: "))
        if os.path.exists("/proc/pressure/memory"):
            self.assertTrue(0 <= data["benchmarks"][0]["memory_pressure"] <= 1)
        p = run("--strict_env", "--max_cpu_load=1000", "--max_host_busy=1", "--min_mem_available=1e9", ONE, *QUICK,
                "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("memory pressure:", p.stderr)
        failed = strict_load(self.out)["benchmarks"][0]
        self.assertTrue(failed.get("error_occurred"))

    def test_an_amd_or_intel_gpu_is_read_through_sysfs(self):
        # A fake sysfs with one amdgpu device stands for /sys; PoCL's device has no PCI bus id, so
        # the one GPU there is taken for it.
        root = self.tmp.name + "/sys"
        dev = root + "/bus/pci/devices/0000:03:00.0"
        os.makedirs(dev + "/hwmon/hwmon1")
        os.makedirs(root + "/bus/pci/drivers/amdgpu")
        os.symlink("../../../bus/pci/drivers/amdgpu", dev + "/driver")
        for path, text in {"hwmon/hwmon1/temp1_input": "58000", "hwmon/hwmon1/power1_average": "210000000",
                           "pp_dpm_sclk": "0: 500Mhz\n1: 2100Mhz *", "pp_dpm_mclk": "0: 1000Mhz *",
                           "gpu_busy_percent": "99", "unique_id": "a1b2c3d4e5f60718"}.items():
            with open(dev + "/" + path, "w") as f:
                f.write(text + "\n")
        p = run("--max_host_busy=1", ONE, *QUICK, "--benchmark_out=" + self.out, env={"GPU_BENCH_TEST_SYSFS_ROOT": root})
        self.assertEqual(p.returncode, 0, p.stderr)
        data = strict_load(self.out)
        self.assertEqual(data["context"]["telemetry_source"], "sysfs amdgpu (0000:03:00.0)")
        self.assertEqual(data["context"]["gpu_uuid"], "a1b2c3d4e5f60718")
        b = data["benchmarks"][0]
        self.assertEqual((b["gpu_temperature_c"], b["power_w"], b["sm_clock_mhz"], b["mem_clock_mhz"],
                          b["gpu_busy_percent"]), (58, 210, 2100, 1000, 99))
        self.assertNotIn("throttle_reasons", b)
        self.assertNotIn("gpu_other_processes", b)

    def test_memory_pressure_is_flagged_and_refused_when_strict(self):
        # A PSI file whose stall total grows at half the clock's pace stands in for a host whose
        # tasks wait on memory half the time (a real one would need the CI machine near its OOM).
        psi = os.path.join(self.tmp.name, "memory")
        writer = subprocess.Popen([sys.executable, "-c", PSI_WRITER, psi])
        self.addCleanup(writer.wait)
        self.addCleanup(writer.kill)
        while not os.path.exists(psi):
            time.sleep(0.01)
        env = {"GPU_BENCH_TEST_PSI_MEMORY": psi}
        p = run("--max_host_busy=1", ONE, *QUICK, "--benchmark_out=" + self.out, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("tasks stalled on memory", p.stderr)
        data = strict_load(self.out)
        b = data["benchmarks"][0]
        self.assertGreater(b["memory_pressure"], 0.3)
        self.assertLess(b["memory_pressure"], 0.7)
        flagged = json.loads(data["context"]["memory_pressure_benchmarks"])
        self.assertEqual([f["name"] for f in flagged], [b["name"].replace("/manual_time", "")])
        p = run("--strict_env", "--max_cpu_load=1000", "--max_host_busy=1", ONE, *QUICK,
                "--benchmark_out=" + self.out, env=env)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertTrue(strict_load(self.out)["benchmarks"][0].get("error_occurred"))
        # Above the limit it is not flagged.
        p = run("--max_host_busy=1", "--max_mem_pressure=0.9", ONE, *QUICK, "--benchmark_out=" + self.out, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(strict_load(self.out)["context"].get("memory_pressure_benchmarks", "[]")), [])


# Rewrites /proc/pressure/memory's layout every 5 ms, "some" total at half the elapsed microseconds.
PSI_WRITER = """
import os, sys, time
path, start = sys.argv[1], time.monotonic()
while True:
    total = int((time.monotonic() - start) * 0.5e6)
    with open(path + ".tmp", "w") as f:
        f.write(f"some avg10=50.00 avg60=50.00 avg300=50.00 total={total}\\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\\n")
    os.replace(path + ".tmp", path)
    time.sleep(0.005)
"""


if __name__ == "__main__":
    unittest.main()
