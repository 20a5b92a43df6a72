"""The gpu_bench command line: device listing and choice, usage errors and exit codes, strict JSON
with the context keys, verification failures, and Debian's compare.py on two runs."""
import json
import os
import subprocess
import tempfile
import unittest

from cli_support import GPU_BENCH, require_device, run, strict_load

COMPARE = "/usr/share/benchmark/compare.py"
SMALL = ["--size=1", "--warmup_s=0.1", "--min_sample_ms=1", "--benchmark_min_time=0.005"]
ONE_CASE = "--benchmark_filter=^L0/GlobalBandwidth/(copy|triad)/type:float4/access:coalesced/wg:256/"
CONTEXT_KEYS = ["platform", "device", "vendor", "driver_version", "device_opencl_version",
                "opencl_c_version", "device_type", "compute_units", "max_clock_mhz",
                "global_mem_bytes", "local_mem_bytes", "max_work_group_size",
                "timer_resolution_ns", "device_fingerprint", "gpu_bench_version", "git_revision",
                "size_class"]



class DeviceChoice(unittest.TestCase):
    def setUp(self):
        require_device()

    def test_list_devices(self):
        p = run("--list_devices")
        self.assertEqual(p.returncode, 0)
        lines = p.stdout.splitlines()
        self.assertTrue(lines[0].startswith("#   platform"))
        self.assertTrue(lines[1].startswith("1 "))

    def test_list_devices_json_has_every_field(self):
        p = run("--list_devices=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        devices = json.loads(p.stdout)
        self.assertGreaterEqual(len(devices), 1)
        for key in ("number", "platform", "device", "vendor", "type", "driver_version", "opencl_version",
                    "compute_units", "max_clock_mhz", "global_mem_bytes", "max_alloc_bytes",
                    "max_work_group_size", "max_work_item_sizes", "timer_resolution_ns", "extensions"):
            self.assertIn(key, devices[0])
        # The table shows the same names in full.
        table = run("--list_devices").stdout
        for d in devices:
            self.assertIn(d["device"], table)
            self.assertIn(d["platform"], table)

    def test_no_match_is_usage_error_with_list(self):
        p = run("--device=no-such-device-xyz", ONE_CASE, *SMALL)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no device matches 'no-such-device-xyz'", p.stderr)
        self.assertIn("#   platform", p.stderr)

    def test_index_beyond_list_is_usage_error(self):
        self.assertEqual(run("--device=99", ONE_CASE, *SMALL).returncode, 2)
        self.assertEqual(run("-99", ONE_CASE, *SMALL).returncode, 2)

    def test_chosen_device_named_on_stderr(self):
        p = run("-1", "--benchmark_list_tests", *SMALL)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("device 1: ", p.stderr)


class UsageErrors(unittest.TestCase):
    def test_bad_size(self):
        p = run("--size=7")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--size: expected 1, 2, 3 or 4, got '7'", p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1)

    def test_unknown_flag(self):
        self.assertEqual(run("--no_such_flag=1").returncode, 2)

    def test_bad_inputs_are_usage_errors_with_one_line(self):
        require_device()
        for args in (["--benchmark_filter=("], ["--benchmark_repetitions=-3"], ["--benchmark_repetitions=0"],
                     ["--device=99999999999999"], ["--device= "], ["--benchmark_out_format=xml"],
                     ["--benchmark_out=/no/such/folder/x.json"], ["--max_noise=0"], ["--min_samples=1.5"],
                     ["--build_processes=x"], ["--build_processes=-1"]):
            p = run(*args, "--size=1", "--warmup_s=0")
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertTrue(p.stderr.startswith("gpu_bench: error: "), (args, p.stderr))
            self.assertNotIn("stoi", p.stderr)
            self.assertNotIn("vector::", p.stderr)

    def test_version_names_revision_and_libraries(self):
        p = run("--version")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"^gpu-bench \d+\.\d+\.\d+ \(revision \S+\)")
        self.assertIn("Google Benchmark 1.", p.stdout)
        self.assertIn("optional libraries: ", p.stdout)

    def test_help_lists_own_flags(self):
        p = run("--help")
        self.assertIn("--device=SPEC", p.stdout)
        self.assertIn("Exit codes", p.stdout)


class Runs(unittest.TestCase):
    def setUp(self):
        require_device()
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def run_json(self, name, *args):
        path = os.path.join(self.tmp.name, name)
        p = run(ONE_CASE, *SMALL, "--benchmark_out=" + path, "--benchmark_out_format=json", *args)
        return p, path

    def test_json_is_strict_and_has_context(self):
        p, path = self.run_json("a.json")
        self.assertEqual(p.returncode, 0, p.stderr)
        data = strict_load(path)
        for key in CONTEXT_KEYS:
            self.assertIn(key, data["context"])
        self.assertEqual(len(data["context"]["device_fingerprint"]), 16)
        skipped = json.loads(data["context"]["skipped_variants"])  # names and reasons, as a JSON list
        self.assertIsInstance(skipped, list)
        for entry in skipped:
            self.assertTrue(entry["name"].startswith("L") and entry["reason"], entry)
        names = [b["name"] for b in data["benchmarks"]]
        self.assertIn("L0/GlobalBandwidth/copy/type:float4/access:coalesced/wg:256/size:1/manual_time", names)
        for b in data["benchmarks"]:
            self.assertGreater(b["bytes_per_second"], 0)
            self.assertLessEqual(b["rel_error"], b["margin"])

    def test_build_helper_processes(self):
        # Helpers compile into the driver's cache (here PoCL's, emptied) beside the run's own builds;
        # the run verifies as without them and leaves no helper behind.
        scratch = os.path.join(self.tmp.name, "tmp")
        os.mkdir(scratch)
        env = dict(os.environ, POCL_CACHE_DIR=os.path.join(self.tmp.name, "pocl-cache"), TMPDIR=scratch)
        path = os.path.join(self.tmp.name, "helpers.json")
        p = subprocess.run([GPU_BENCH, ONE_CASE, *SMALL, "--build_processes=2", "--build_threads=1",
                            "--benchmark_out=" + path], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        data = strict_load(path)
        self.assertEqual(json.loads(data["context"]["programs"])["helper_processes"], 2)
        for b in data["benchmarks"]:
            self.assertLessEqual(b["rel_error"], b["margin"])
        ps = subprocess.run(["ps", "-eo", "args"], stdout=subprocess.PIPE, text=True).stdout
        self.assertNotIn("--gb_child=build_programs", ps)
        self.assertEqual(os.listdir(scratch), [])  # the helpers' program list removed

    def test_build_helper_makes_library_plans(self):
        # A helper makes an FFT library's plan from its description (its programs then load from
        # the driver's cache in the run) and reports what it could not make.
        libraries = run("--version").stdout
        library = "vkfft" if "VkFFT" in libraries else "clfft" if "clFFT" in libraries else None
        if library is None:
            self.skipTest("built without clFFT and VkFFT")
        device = json.loads(run("--list_devices=json").stdout)[0]
        listing = os.path.join(self.tmp.name, "programs")
        with open(listing, "w") as f:
            f.write(f"plan:{library}\t256 1 64\nplan:{library}\tnot a problem\nplan:nosuch\t256 1 64\n")
        env = dict(os.environ, POCL_CACHE_DIR=os.path.join(self.tmp.name, "pocl-cache"))
        p = subprocess.run([GPU_BENCH, "--gb_child=build_programs", "--gb_parent=%d" % os.getpid(), "1", device["platform"] + " / " + device["device"],
                            listing, "0", "1"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines(), ["built 0", "failed 1", "failed 2"])

    def test_time_unit_and_tabular_counters_are_honored(self):
        p, path = self.run_json("us.json", "--benchmark_time_unit=us", "--benchmark_counters_tabular=true")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual({b["time_unit"] for b in strict_load(path)["benchmarks"]}, {"us"})
        header = next(line for line in p.stdout.splitlines() if line.startswith("Benchmark"))
        self.assertIn("bytes_per_second", header)  # counters as columns
        row = next(line for line in p.stdout.splitlines() if line.startswith("L0/"))
        self.assertRegex(row, r" us ")
        self.assertRegex(row, r"[0-9.]+ [kMGT]?B/s")
        p, path = self.run_json("ms.json")
        self.assertEqual({b["time_unit"] for b in strict_load(path)["benchmarks"]}, {"ms"})
        row = next(line for line in p.stdout.splitlines() if line.startswith("L0/"))
        self.assertRegex(row, r"bytes_per_second=[0-9.]+ [kMGT]?B/s .*noise=[0-9.e+-]+%")

    def test_verification_failure_is_loud(self):
        # A margin scaled to nothing cannot hold the triad's fma rounding: it must fail.
        p, path = self.run_json("fail.json", "--tolerance_scale=0.000001")
        self.assertEqual(p.returncode, 1)
        self.assertIn("verification failed", p.stderr)
        data = strict_load(path)
        errored = [b for b in data["benchmarks"] if b.get("error_occurred")]
        self.assertTrue(errored)
        self.assertTrue(all("verification failed" in b["error_message"] for b in errored))

    def test_strict_env_refuses_loaded_host(self):
        with open("/proc/loadavg") as f:
            load = float(f.read().split()[0])
        p = run(ONE_CASE, *SMALL, "--max_cpu_load=0", "--strict_env")
        if load > 0:
            self.assertEqual(p.returncode, 3)
            self.assertIn("load average", p.stderr)
        else:
            self.assertEqual(p.returncode, 0)

    def compare(self, *args):
        return subprocess.run(["/usr/bin/python3", COMPARE, *args], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)

    def test_compare_py_reads_two_runs(self):
        _, a = self.run_json("a.json")
        _, b = self.run_json("b.json")
        p = self.compare("benchmarks", a, b)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("L0/GlobalBandwidth/copy/type:float4", p.stdout)
        p = self.compare("filters", a, "copy", "triad")
        self.assertEqual(p.returncode, 0, p.stdout)

    def test_compare_py_with_repetitions(self):
        _, a = self.run_json("ra.json", "--benchmark_repetitions=3")
        _, b = self.run_json("rb.json", "--benchmark_repetitions=3")
        p = self.compare("benchmarks", a, b)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("U Test", p.stdout)


if __name__ == "__main__":
    unittest.main()
