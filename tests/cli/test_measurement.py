"""The measurement engine seen from the command line: the time is one unit's whatever the batch,
the noise rule and its flag, Google Benchmark's own flags, progress, batches kept from an earlier
run, and interrupts that leave a valid JSON (SIGINT, SIGTERM, SIGHUP) or the previous file (SIGKILL)."""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

from cli_support import GPU_BENCH, require_device, run, strict_load

QUICK = ["--size=1", "--warmup_s=0"]
# Short kernels (tens of microseconds on PoCL), so the batch size follows --min_sample_ms.
SHORT = "--benchmark_filter=^L0/LocalMemory/read/type:float/stride:1/"
MANY = "--benchmark_filter=^L0/(Compute|LocalMemory|ConstantMemory)/"


def iterations(data):
    return [b for b in data["benchmarks"] if b.get("run_type", "iteration") == "iteration"]


class PerUnitTime(unittest.TestCase):
    def setUp(self):
        require_device()
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def run_json(self, name, *args, filt=SHORT):
        path = os.path.join(self.tmp.name, name)
        p = run(filt, *QUICK, "--benchmark_out=" + path, *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return strict_load(path)

    def fastest_of_two(self, name, *args):
        """Each benchmark's entry with the lower time of two runs: on a CPU device a transient
        stall of the host (another process, a cold cache) can triple one run's time per unit."""
        runs = [iterations(self.run_json(f"{k}{name}", *args)) for k in range(2)]
        return [min(pair, key=lambda b: b["real_time"]) for pair in zip(*runs)]

    def test_time_is_one_units_whatever_the_batch(self):
        # Any noise converges, so that no batch grows (StopRule::grow): the sample length alone sets it.
        small = self.fastest_of_two("small.json", "--min_sample_ms=0.5", "--max_time=0.3", "--max_noise=100")
        large = self.fastest_of_two("large.json", "--min_sample_ms=8", "--max_time=0.3", "--max_noise=100")
        self.assertEqual([b["name"] for b in small], [b["name"] for b in large])
        for a, b in zip(small, large):
            # Sixteen times the sample length: the batch grows, the time of one unit does not (a
            # time per batch would grow with it, 4x or more; one divided by the batch twice would
            # shrink 4x or more). The bounds leave room for a shared CPU, where a longer batch of
            # PoCL's work items can run up to 2x faster per unit (0.498 seen in CI).
            self.assertGreaterEqual(b["batch"], 4 * a["batch"], (a["name"], a["batch"], b["batch"]))
            ratio = b["real_time"] / a["real_time"]
            self.assertGreater(ratio, 1 / 3, a["name"])
            self.assertLess(ratio, 2.0, a["name"])
            # Rates are per second of unit time in both.
            self.assertAlmostEqual(a["bytes_per_second"] * a["real_time"], b["bytes_per_second"] * b["real_time"],
                                   delta=1e-6 * a["bytes_per_second"] * a["real_time"])

    def test_noise_counters_and_stopping(self):
        for b in iterations(self.run_json("noise.json", "--min_samples=6", "--max_noise=50")):
            self.assertGreaterEqual(b["samples"], 6)
            self.assertEqual(b["converged"], 1)
            self.assertLessEqual(b["noise"], 0.5)
            self.assertEqual(b["iterations"], 1)

    def test_time_limit_flags_unconverged(self):
        path = os.path.join(self.tmp.name, "limit.json")
        p = run(SHORT, *QUICK, "--max_noise=0.000001", "--max_time=0.05", "--benchmark_out=" + path)
        self.assertEqual(p.returncode, 0, p.stderr)
        for b in iterations(strict_load(path)):
            self.assertEqual(b["converged"], 0)
            self.assertGreaterEqual(b["samples"], 3)
            self.assertIn("warning: " + b["name"].replace("/manual_time", ""), p.stderr)

    def test_explicit_min_time_samples_that_long(self):
        for b in iterations(self.run_json("min_time.json", "--benchmark_min_time=0.2", "--min_sample_ms=1")):
            self.assertGreaterEqual(b["samples"] * b["batch"] * b["real_time"] * 1e-3, 0.1, b["name"])

    def test_display_aggregates_only_keeps_every_run_in_the_file(self):
        path = os.path.join(self.tmp.name, "agg.json")
        p = run(SHORT, *QUICK, "--benchmark_repetitions=3", "--benchmark_display_aggregates_only=true",
                "--max_time=0.1", "--progress=0", "--benchmark_out=" + path)
        self.assertEqual(p.returncode, 0, p.stderr)
        shown = [l for l in p.stdout.splitlines() if "/manual_time" in l]
        self.assertTrue(shown and all("_mean" in l or "_median" in l or "_stddev" in l or "_cv" in l for l in shown),
                        p.stdout)
        data = strict_load(path)
        self.assertEqual(len(iterations(data)), 3 * len({b["name"] for b in iterations(data)}))

    def test_repetitions_give_aggregates(self):
        data = self.run_json("reps.json", "--benchmark_repetitions=3", "--max_time=0.1")
        names = {b["name"] for b in iterations(data)}
        self.assertEqual(len(iterations(data)), 3 * len(names))
        aggregates = [b["aggregate_name"] for b in data["benchmarks"] if b.get("run_type") == "aggregate"]
        for a in ("mean", "median", "stddev", "cv"):
            self.assertIn(a, aggregates)


class ProgressAndFilter(unittest.TestCase):
    def setUp(self):
        require_device()

    def test_progress_lines_on_stderr(self):
        p = run(SHORT, *QUICK, "--max_time=0.05")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [l for l in p.stderr.splitlines() if l.startswith("[")]
        self.assertTrue(lines and lines[0].startswith("[1/"), p.stderr)
        total = int(lines[0].split("/")[1].split("]")[0])
        self.assertEqual(len(lines), total)
        self.assertNotIn("[1/", run(SHORT, *QUICK, "--max_time=0.05", "--progress=0").stderr)

    def test_filter_matching_nothing_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "none.json")
            p = run("--benchmark_filter=^NoSuchCase/", *QUICK, "--benchmark_out=" + path)
            self.assertEqual(p.returncode, 2)
            self.assertIn("matches no benchmark", p.stderr)
            self.assertFalse(os.path.exists(path))

    def test_unwritable_output_is_a_usage_error_before_device_work(self):
        p = run(SHORT, *QUICK, "--benchmark_out=/no/such/folder/x.json")
        self.assertEqual(p.returncode, 2)
        self.assertIn("does not exist", p.stderr)
        self.assertNotIn("device 1:", p.stderr)


    def test_batches_from_an_earlier_run_are_kept_neither_calibrated_nor_grown(self):
        # A 20 ms sample target and a noise target no run on a CPU meets: calibration would pick
        # tens of units and growth would multiply them; the earlier run's batch of 1 stays 1. (Under
        # load the calibration's batch check may cut a batch to a few units, but to 1 only where
        # one unit takes 20 ms.)
        two = "--benchmark_filter=^L0/Compute/mad/type:float/width:(1|2)/wg:256/"
        flags = [two, *QUICK, "--max_time=0.1", "--min_sample_ms=20", "--max_noise=0.0001", "--progress=0"]
        with tempfile.TemporaryDirectory() as tmp:
            first, earlier, again = (os.path.join(tmp, f) for f in ("first.json", "earlier.json", "again.json"))
            p = run(*flags, "--benchmark_out=" + first)
            self.assertEqual(p.returncode, 0, p.stderr)
            data = strict_load(first)
            kept, other = iterations(data)
            self.assertGreater(other["batch"], 1)
            kept["batch"] = 1
            data["benchmarks"] = [kept]
            with open(earlier, "w") as f:
                json.dump(data, f)
            p = run(*flags, "--batches_from=" + earlier, "--benchmark_out=" + again)
            self.assertEqual(p.returncode, 0, p.stderr)
            data = strict_load(again)
            batches = {b["name"]: b["batch"] for b in iterations(data)}
            self.assertEqual(batches[kept["name"]], 1)
            self.assertGreater(batches[other["name"]], 1)  # not in the earlier file: calibrated
            self.assertEqual(data["context"]["batches_from"], earlier + " (1 batches)")
            # Another device's run, or a file that is not a run: exit 2 with the reason, no file.
            data["context"]["device"] = "Another GPU"
            with open(earlier, "w") as f:
                json.dump(data, f)
            for bad, reason in ((earlier, "a run of Another GPU, not of"), (os.path.join(tmp, "none.json"), "cannot be read")):
                p = run(*flags, "--batches_from=" + bad, "--benchmark_out=" + os.path.join(tmp, "bad.json"))
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn("gpu_bench: error: --batches_from: " + bad + ": " + reason, p.stderr)
                self.assertFalse(os.path.exists(os.path.join(tmp, "bad.json")))


class Interrupts(unittest.TestCase):
    def setUp(self):
        require_device()
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "run.json")

    def tearDown(self):
        self.tmp.cleanup()

    def start_and_wait(self, progress_index):
        """Starts a long run and returns once it has begun its progress_index-th benchmark."""
        proc = subprocess.Popen([GPU_BENCH, MANY, *QUICK, "--max_time=0.2", "--benchmark_out=" + self.path],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen = []
        deadline = time.time() + 120
        while time.time() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line)
            if line.startswith("[%d/" % progress_index):
                return proc, seen
        proc.kill()
        proc.stderr.close()
        self.fail("the run never reached benchmark %d:\n%s" % (progress_index, "".join(seen)))

    def stop_with(self, sig, code, label):
        proc, _ = self.start_and_wait(3)
        proc.send_signal(sig)
        rest = proc.stderr.read()
        proc.stderr.close()
        self.assertEqual(proc.wait(timeout=120), code, rest)
        data = strict_load(self.path)
        self.assertEqual(data["context"]["interrupted"], label)
        finished = iterations(data)
        self.assertGreaterEqual(len(finished), 2)
        for b in finished:
            self.assertFalse(b.get("error_occurred"), b)
        self.assertEqual([f for f in os.listdir(self.tmp.name) if f != "run.json"], [])

    def test_sigint(self):
        self.stop_with(signal.SIGINT, 130, "SIGINT")

    def test_sigterm(self):
        self.stop_with(signal.SIGTERM, 143, "SIGTERM")

    def test_sighup(self):
        self.stop_with(signal.SIGHUP, 129, "SIGHUP")

    def test_sigint_stops_a_competitor_process(self):
        # L0/Interference/context runs a child gpu_bench beside the measurement: a stop signal
        # abandons the benchmark, and the child is stopped and reaped before the run ends.
        long = ["--max_time=3", "--min_samples=1000000", "--max_noise=0.0001"]
        proc = subprocess.Popen([GPU_BENCH, "--benchmark_filter=^L0/Interference/(alone|context/rate:100)/", *QUICK,
                                 *long, "--progress=0", "--benchmark_out=" + self.path],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        child = None
        deadline = time.time() + 120
        while child is None and time.time() < deadline and proc.poll() is None:
            child = next((pid for pid in os.listdir("/proc") if pid.isdigit() and self.is_child_of(pid, proc.pid)), None)
            time.sleep(0.02)
        self.assertIsNotNone(child, "no competitor process appeared")
        proc.send_signal(signal.SIGINT)
        rest = proc.stderr.read()
        proc.stderr.close()
        self.assertEqual(proc.wait(timeout=60), 130, rest)
        self.assertFalse(os.path.exists(f"/proc/{child}/cmdline") and self.is_child_of(child, proc.pid),
                         "the competitor outlived the run")
        self.assertNotIn("stopping the work beside", rest)
        data = strict_load(self.path)
        self.assertEqual(data["context"]["interrupted"], "SIGINT")
        self.assertEqual([b["name"] for b in iterations(data)], ["L0/Interference/alone/size:1/manual_time"])

    @staticmethod
    def is_child_of(pid, parent):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                words = f.read().split(b"\0")
        except OSError:
            return False
        return any(w == b"--gb_parent=%d" % parent for w in words)

    def test_sigkill_leaves_the_previous_file(self):
        with open(self.path, "w") as f:
            json.dump({"previous": True}, f)
        proc, _ = self.start_and_wait(2)
        proc.kill()
        proc.wait(timeout=60)
        proc.stderr.close()
        self.assertEqual(strict_load(self.path), {"previous": True})


if __name__ == "__main__":
    unittest.main()
