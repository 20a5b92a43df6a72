# test_multi_device.py: --device=all and --device=SPEC,SPEC run on each device in turn, one JSON
# per device named after it; a bad list is a usage error before anything runs; SIGTERM to the
# parent stops the running device's child, which writes what it finished.
"""Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_multi_device"""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

from cli_support import GPU_BENCH, require_device, run, strict_load

QUICK = ["--size=1", "--warmup_s=0.1", "--min_sample_ms=1", "--max_time=0.2", "--progress=1"]
ONE = "--benchmark_filter=^L0/ConstantMemory/read/access:uniform/"


class MultiDevice(unittest.TestCase):
    def setUp(self):
        require_device()
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "run.json")
        self.devices = json.loads(run("--list_devices=json").stdout)

    def files(self):
        return sorted(os.listdir(self.tmp.name))

    def test_a_file_of_another_device_is_left_out_for_that_device(self):
        # --batches_from and --spread_study name one device's file: on --device=all the devices it is
        # not of run as without it, where a run of one device refuses it (exit 2).
        p = run(ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        data = strict_load(self.out)
        data["context"]["device"] = "Another GPU"
        other = os.path.join(self.tmp.name, "other-device.json")
        with open(other, "w") as f:
            json.dump(data, f)
        os.remove(self.out)
        self.assertEqual(run(ONE, *QUICK, "--batches_from=" + other).returncode, 2)
        out = os.path.join(self.tmp.name, "all.json")
        p = run("--device=all", ONE, *QUICK, "--batches_from=" + other, "--benchmark_out=" + out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"runs without --batches_from={other}, a file of Another GPU", p.stderr)
        for name in self.files():
            if name.startswith("all."):
                self.assertNotIn("batches_from", strict_load(os.path.join(self.tmp.name, name))["context"])

    def test_all_writes_one_file_per_device_named_after_it(self):
        p = run("--device=all", ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.files()), len(self.devices), self.files())
        for device, name in zip(self.devices, self.files()):
            self.assertRegex(name, r"^run\.device%d-[a-z0-9-]+\.json$" % device["number"])
            data = strict_load(os.path.join(self.tmp.name, name))
            self.assertEqual(data["context"]["device"], device["device"])
            self.assertTrue(data["benchmarks"])
            self.assertTrue(all(not b.get("error_occurred") for b in data["benchmarks"]))

    def test_a_list_names_each_device_once(self):
        p = run("--device=1,1,%s" % self.devices[0]["type"], ONE, *QUICK, "--benchmark_out=" + self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.files()), 1, self.files())
        self.assertTrue(self.files()[0].startswith("run.device1-"))

    def test_a_bad_list_is_a_usage_error_before_any_run(self):
        for args in (["--device=1,no-such-device-xyz"], ["--device=1,,2"], ["--device=all", "-1"],
                     ["--device=%d,1" % (len(self.devices) + 1)]):
            p = run(*args, ONE, *QUICK, "--benchmark_out=" + self.out)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertTrue(p.stderr.startswith("gpu_bench: error: "), p.stderr)
            self.assertEqual(self.files(), [])

    def test_sigterm_stops_the_running_device_and_keeps_its_results(self):
        proc = subprocess.Popen([GPU_BENCH, "--device=all", "--benchmark_filter=^L0/(Compute|LocalMemory)/", *QUICK,
                                 "--benchmark_out=" + self.out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        deadline, seen = time.time() + 120, []
        while time.time() < deadline:
            line = proc.stderr.readline()
            seen.append(line)
            if not line or line.startswith("[3/"):
                break
        proc.send_signal(signal.SIGTERM)
        rest = proc.stderr.read()
        proc.stderr.close()
        self.assertEqual(proc.wait(timeout=120), 143, "".join(seen) + rest)
        self.assertEqual(len(self.files()), 1, self.files())  # no later device was started
        data = strict_load(os.path.join(self.tmp.name, self.files()[0]))
        self.assertEqual(data["context"]["interrupted"], "SIGTERM")
        self.assertGreaterEqual(len([b for b in data["benchmarks"] if not b.get("error_occurred")]), 2)


if __name__ == "__main__":
    unittest.main()
