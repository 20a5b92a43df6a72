# test_repro_study.py: tools/repro-study's between-run spread, and tools/gate judging with it: a
# benchmark whose runs move 5% passes a 4% drift, a quiet one fails a 3% slowdown, each benchmark's
# smallest detectable change is printed, the study of the runs' device is found by itself; runs of
# one GPU give a same-GPU spread, which the gate takes for two runs of one GPU.
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -p test_repro_study.py -v"""

import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

QUIET = "L1/FFT/stockham/n:1024/batch:8/dir:forward/size:1/manual_time"
QUIET2 = "L1/FFT/stockham/n:4096/batch:8/dir:forward/size:1/manual_time"
LOUD = "L0/Atomics/global/type:int/method:native/contention:64/size:1/manual_time"
LOUD2 = "L0/Atomics/global/type:int/method:native/contention:1/size:1/manual_time"
NAMES = (QUIET, QUIET2, LOUD, LOUD2)
# Per-run factors on each benchmark's time: the atomics move by several percent between processes.
RUN_FACTORS = {QUIET: (1.0, 1.001, 0.999, 1.0005), QUIET2: (1.0, 0.9995, 1.001, 1.0),
               LOUD: (1.0, 1.05, 0.96, 1.03), LOUD2: (1.0, 0.97, 1.04, 1.01)}


def one_run(path, factors, device="Synthetic GPU A", slow=None, gpu_uuid=None, spreads=None):
    """A run; spreads: {name: run_to_run_spread} as gpu_bench writes them from the study it took."""
    entries = []
    for name in NAMES:
        t = 1e6 * factors[name] * (slow.get(name, 1.0) if slow else 1.0)
        entry = sr.bench(name, [t], bytes_moved=1 << 20)[0]
        entry.update(primary_metric="bytes_per_second", noise=0.001, samples=20.0, converged=1.0)
        if spreads:
            entry["run_to_run_spread"] = spreads[name]
            entry["run_to_run_spread_same_gpu"] = spreads[name] / 10
        entries.append(entry)
    extra = {"gpu_uuid": gpu_uuid} if gpu_uuid else {}
    if spreads:
        extra["spread_study"] = "results/synthetic/spread.json (4 runs)"
    return sr.write_run(path, entries, sr.context(device=device, **extra))


class Study(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.runs = [one_run(os.path.join(cls.tmp.name, f"run-{k}.json"), {n: RUN_FACTORS[n][k] for n in NAMES})
                    for k in range(4)]
        os.makedirs(os.path.join(cls.tmp.name, "results", "synthetic-study"))
        cls.spread = os.path.join(cls.tmp.name, "results", "synthetic-study", "spread.json")
        cls.done = sr.run_tool_in_process("repro-study", "study", *cls.runs, "-o", cls.spread)
        assert cls.done.returncode == 0, cls.done.stderr
        with open(cls.spread) as handle:
            cls.data = json.load(handle)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_spread_per_benchmark_pooled_with_its_family(self):
        data = self.data
        self.assertEqual((data["format"], data["device"], len(data["runs"])), ("gpu-bench-spread", "Synthetic GPU A", 4))
        own = statistics.stdev([math.log(1 / f) for f in RUN_FACTORS[LOUD]])
        self.assertAlmostEqual(data["benchmarks"][LOUD]["own"], own, places=9)
        # pooled with the family's upper quartile: between the two atomics' own spreads
        loud = [data["benchmarks"][n] for n in (LOUD, LOUD2)]
        self.assertGreater(loud[0]["spread"], 0.02)
        self.assertGreaterEqual(data["benchmarks"][QUIET]["spread"], 0.001)  # the floor
        self.assertLess(data["benchmarks"][QUIET]["spread"], 0.002)
        self.assertEqual(data["families"]["L0/Atomics/global"]["benchmarks"], 2)
        self.assertIn("| L0/Atomics/global | 2 |", self.done.stdout)
        self.assertIn("| run-0.json vs run-1.json | 4 |", self.done.stdout)

    def gate(self, base, cur, *args, results=None):
        env = os.environ.get("GPU_BENCH_RESULTS_DIR")
        os.environ["GPU_BENCH_RESULTS_DIR"] = results or os.path.join(self.tmp.name, "none")
        try:
            return sr.run_tool_in_process("gate", base, cur, *args)
        finally:
            if env is None:
                del os.environ["GPU_BENCH_RESULTS_DIR"]
            else:
                os.environ["GPU_BENCH_RESULTS_DIR"] = env

    def test_the_gate_uses_each_benchmarks_spread(self):
        d = self.tmp.name
        base = one_run(os.path.join(d, "base.json"), {n: 1.0 for n in NAMES})
        # the loud atomics drift 4% (within their spread); the quiet FFT slows by 3%
        cur = one_run(os.path.join(d, "cur.json"), {n: 1.0 for n in NAMES}, slow={LOUD: 1.04, QUIET: 1.03})
        done = self.gate(base, cur, "--spread", self.spread)
        self.assertEqual(done.returncode, 1, done.stdout)
        lines = {l.split()[0]: l for l in done.stdout.splitlines() if l.startswith(("L0/", "L1/"))}
        self.assertIn("REGRESSION", lines[QUIET])
        self.assertNotIn("REGRESSION", lines[LOUD])
        self.assertIn("run-to-run floor from the study", done.stdout)
        self.assertIn("floors: 4 study", done.stdout)
        self.assertRegex(done.stdout, r"smallest detectable change: median [0-9.]+%, at most 2% for 2 \(50.0%\)")
        # without the study the fixed 5% threshold lets the 3% slowdown through
        done = self.gate(base, cur, "--no-spread")
        self.assertEqual(done.returncode, 0, done.stdout)
        self.assertIn("floors: 4 fixed", done.stdout)

    def test_without_a_study_file_the_gate_takes_the_spreads_the_runs_carry(self):
        d = self.tmp.name
        spreads = {QUIET: 0.001, QUIET2: 0.001, LOUD: 0.05, LOUD2: 0.05}
        base = one_run(os.path.join(d, "carry-base.json"), {n: 1.0 for n in NAMES}, spreads=spreads)
        cur = one_run(os.path.join(d, "carry-cur.json"), {n: 1.0 for n in NAMES}, slow={LOUD: 1.04, QUIET: 1.03},
                      spreads=spreads)
        done = self.gate(base, cur)  # no study in the results folder
        self.assertEqual(done.returncode, 1, done.stdout)
        lines = {l.split()[0]: l for l in done.stdout.splitlines() if l.startswith(("L0/", "L1/"))}
        self.assertIn("REGRESSION", lines[QUIET])
        self.assertNotIn("REGRESSION", lines[LOUD])
        self.assertIn("run-to-run floor from the runs' own run_to_run_spread (studies results/synthetic/spread.json",
                      done.stdout)
        self.assertIn("floors: 4 run files", done.stdout)
        self.assertEqual(self.gate(base, cur, "--no-spread").returncode, 0)  # fixed floors, 5% threshold
        plain = one_run(os.path.join(d, "carry-plain.json"), {n: 1.0 for n in NAMES}, slow={QUIET: 1.03})
        done = self.gate(base, plain)  # one run carries none: the fixed floors
        self.assertIn("floors: 4 fixed", done.stdout)
        # Two runs of one GPU take the same-GPU figures they carry: the loud atomics' 4% now fails.
        done = self.gate(base, cur, "--same-gpu")
        self.assertIn("floors: 4 run files, same GPU", done.stdout)
        lines = {l.split()[0]: l for l in done.stdout.splitlines() if l.startswith(("L0/", "L1/"))}
        self.assertIn("REGRESSION", lines[LOUD])

    def test_a_second_run_within_the_spread_passes(self):
        d = self.tmp.name
        again = one_run(os.path.join(d, "again.json"), {QUIET: 1.0012, QUIET2: 0.999, LOUD: 1.045, LOUD2: 0.975})
        for a, b in ((self.runs[0], again), (again, self.runs[0])):
            done = self.gate(a, b, "--spread", self.spread)
            self.assertEqual(done.returncode, 0, done.stdout)

    def test_the_study_of_the_runs_device_is_found_by_itself(self):
        results = os.path.join(self.tmp.name, "results")
        done = self.gate(self.runs[0], self.runs[1], results=results)
        self.assertIn("synthetic-study/spread.json (Synthetic GPU A, 4 runs)", done.stdout)
        other = [one_run(os.path.join(self.tmp.name, f"other-{k}.json"), {n: 1.0 for n in NAMES}, device="Another GPU")
                 for k in range(2)]
        done = self.gate(*other, results=results)
        self.assertIn("run-to-run floor 1%", done.stdout)  # no study of that device: the fixed floors

    def test_bad_input(self):
        d = self.tmp.name
        other = one_run(os.path.join(d, "other.json"), {n: 1.0 for n in NAMES}, device="Another GPU")
        for args in (("study", self.runs[0], "-o", os.path.join(d, "x.json")),          # one run
                     ("study", self.runs[0], other, "-o", os.path.join(d, "x.json")),   # two device kinds
                     ("study", self.runs[0], self.runs[1]),                             # no -o
                     ("run", "1", d), ("nonsense",), ()):
            done = sr.run_tool("repro-study", *args)
            self.assertEqual(done.returncode, 2, (args, done.stdout, done.stderr))
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, (args, done.stderr))
        done = self.gate(self.runs[0], self.runs[1], "--spread", self.runs[2])  # a run, not a study
        self.assertEqual(done.returncode, 2)
        self.assertIn("not a reproducibility study", done.stderr)
        done = self.gate(other, other, "--spread", self.spread)  # a study of another device
        self.assertEqual(done.returncode, 2)


# Two GPUs, two runs each: the GPUs differ by 4-6%, a GPU's two runs by 0.1-0.3%.
GPU_FACTORS = {QUIET: (1.0, 1.001, 1.05, 1.051), QUIET2: (1.0, 0.999, 0.95, 0.952),
               LOUD: (1.0, 1.003, 1.06, 1.058), LOUD2: (1.0, 1.002, 0.94, 0.942)}


class SameGpu(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def runs(self, uuids):
        return [one_run(os.path.join(self.tmp.name, f"gpu-run-{k}.json"), {n: GPU_FACTORS[n][k] for n in NAMES},
                        gpu_uuid=uuids[k]) for k in range(4)]

    def study(self, runs, *args):
        out = os.path.join(self.tmp.name, "spread.json")
        done = sr.run_tool_in_process("repro-study", "study", *runs, "-o", out, *args)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            return out, json.load(handle), done

    def test_runs_with_one_gpu_uuid_give_the_same_gpu_spread(self):
        _, data, done = self.study(self.runs(["GPU-a", "GPU-a", "GPU-b", "GPU-b"]))
        self.assertEqual(data["same_gpu"]["gpus"], {"GPU-a": ["gpu-run-0.json", "gpu-run-1.json"],
                                                    "GPU-b": ["gpu-run-2.json", "gpu-run-3.json"]})
        self.assertEqual(data["same_gpu"]["degrees_of_freedom"], 2)
        self.assertEqual(data["spread_between"], "GPUs")
        for name in NAMES:
            b = data["benchmarks"][name]
            within = math.sqrt(sum((math.log(GPU_FACTORS[name][i]) - math.log(GPU_FACTORS[name][j])) ** 2 / 2
                                   for i, j in ((0, 1), (2, 3))) / 2)
            self.assertAlmostEqual(b["own_same_gpu"], within, places=9)
            self.assertLess(b["spread_same_gpu"], b["spread"] / 3)  # the GPUs' 5% is not in it
        self.assertIn("spread_family_same_gpu", data["families"]["L0/Atomics/global"])
        self.assertIn("Same GPU: 2 GPU(s) with several runs, 2 degrees of freedom", done.stdout)

    def test_runs_of_one_gpu_count_once_in_the_spread_between_gpus(self):
        _, data, _ = self.study(self.runs(["GPU-a", "GPU-a", "GPU-b", "GPU-b"]))
        for name in NAMES:
            logs = [math.log(1 / f) for f in GPU_FACTORS[name]]
            means = [(logs[0] + logs[1]) / 2, (logs[2] + logs[3]) / 2]
            within = sum((logs[i] - means[i // 2]) ** 2 for i in range(4)) / 2
            # the variance of the two GPUs' means, plus the half of a run's own variance they average out
            self.assertAlmostEqual(data["benchmarks"][name]["own"], math.sqrt(statistics.variance(means) + within / 2),
                                   places=9)
        self.assertIn("1 degrees of freedom", data["method"])  # two GPUs, not four runs

    def test_holdout_gates_every_pair_with_a_study_of_the_other_gpus(self):
        runs = [one_run(os.path.join(self.tmp.name, f"h-{k}.json"), {n: 1.0 + 0.001 * k for n in NAMES}, gpu_uuid=gpu)
                for k, gpu in enumerate(["GPU-a", "GPU-a", "GPU-b", "GPU-c", "GPU-d"])]
        done = sr.run_tool_in_process("repro-study", "holdout", *runs)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("| two GPUs | 18 | 0 |", done.stdout)  # 20 ordered pairs less the 2 of GPU-a
        self.assertIn("| one GPU | 2 | 0 |", done.stdout)
        few = sr.run_tool("repro-study", "holdout", *runs[:3])  # two GPUs: nothing left to study
        self.assertEqual(few.returncode, 2)
        self.assertIn("runs of at least three GPUs", few.stderr)

    def test_holdout_names_the_gates_that_failed_and_the_benchmark(self):
        # GPU-d runs NAMES[0] 30% slower than the three others agree on: held out, it fails.
        runs = [one_run(os.path.join(self.tmp.name, f"f-{k}.json"),
                        {n: (1.3 if gpu == "GPU-d" and n == NAMES[0] else 1.0) + 0.001 * k for n in NAMES}, gpu_uuid=gpu)
                for k, gpu in enumerate(["GPU-a", "GPU-b", "GPU-c", "GPU-d"])]
        done = sr.run_tool_in_process("repro-study", "holdout", *runs)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("| two GPUs | 12 | 3 |", done.stdout)  # the 3 that have GPU-d as the current run
        self.assertIn("Gates that failed with no change made:", done.stdout)
        self.assertIn(f"- f-0.json -> f-3.json: {NAMES[0]} (REGRESSION)", done.stdout)
        self.assertNotIn(NAMES[1], done.stdout.split("Gates that failed")[1])

    def test_same_gpu_names_the_runs_that_carry_no_id(self):
        runs = self.runs([None] * 4)
        _, data, _ = self.study(runs)
        self.assertNotIn("same_gpu", data)  # nothing says which runs shared a GPU
        self.assertTrue(all("spread_same_gpu" not in b for b in data["benchmarks"].values()))
        _, data, _ = self.study(runs, "--same-gpu", ",".join(runs[:2]), "--same-gpu", ",".join(runs[2:]))
        self.assertEqual(data["same_gpu"]["degrees_of_freedom"], 2)
        bad = sr.run_tool("repro-study", "study", *runs[:3], "-o", os.path.join(self.tmp.name, "x.json"),
                          "--same-gpu", f"{runs[0]},{runs[3]}")  # the last file is not studied
        self.assertEqual(bad.returncode, 2)
        self.assertIn("is not one of the runs studied", bad.stderr)
        twice = sr.run_tool("repro-study", "study", *runs, "-o", os.path.join(self.tmp.name, "x.json"),
                            "--same-gpu", f"{runs[0]},{runs[1]}", "--same-gpu", f"{runs[1]},{runs[2]}")
        self.assertEqual(twice.returncode, 2)
        self.assertIn("is already in --same-gpu", twice.stderr)

    def test_a_same_gpu_group_takes_the_id_one_of_its_runs_carries(self):
        runs = self.runs(["GPU-a", None, "GPU-b", "GPU-b"])
        _, data, _ = self.study(runs, "--same-gpu", f"{runs[0]},{runs[1]}")
        self.assertEqual(data["same_gpu"]["gpus"], {"GPU-a": ["gpu-run-0.json", "gpu-run-1.json"],
                                                    "GPU-b": ["gpu-run-2.json", "gpu-run-3.json"]})

    def test_a_same_gpu_group_whose_runs_name_two_gpus_is_refused(self):
        runs = self.runs(["GPU-a", "GPU-b", None, None])
        done = sr.run_tool("repro-study", "study", *runs, "-o", os.path.join(self.tmp.name, "x.json"),
                           "--same-gpu", f"{runs[0]},{runs[1]}")
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
        self.assertIn("name 2 GPUs (GPU-a, GPU-b)", done.stderr)

    def test_the_gate_takes_the_same_gpu_spread_for_two_runs_of_one_gpu(self):
        spread, _, _ = self.study(self.runs(["GPU-a", "GPU-a", "GPU-b", "GPU-b"]))
        d = self.tmp.name
        # A 3% slowdown of the quiet FFT: within the GPUs' spread, far beyond one GPU's.
        base = one_run(os.path.join(d, "base.json"), {n: 1.0 for n in NAMES}, gpu_uuid="GPU-c")
        cur = one_run(os.path.join(d, "cur.json"), {n: 1.0 for n in NAMES}, slow={QUIET: 1.03}, gpu_uuid="GPU-c")
        other = one_run(os.path.join(d, "other.json"), {n: 1.0 for n in NAMES}, slow={QUIET: 1.03}, gpu_uuid="GPU-d")
        done = sr.run_tool_in_process("gate", base, cur, "--spread", spread)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("its same-GPU spread (2 degrees of freedom)", done.stdout)
        self.assertIn("floors: 4 study, same GPU", done.stdout)
        done = sr.run_tool_in_process("gate", base, other, "--spread", spread)  # two GPUs: the spread between GPUs
        self.assertEqual(done.returncode, 0, done.stdout)
        self.assertIn("floors: 4 study", done.stdout)
        self.assertNotIn("same GPU", done.stdout)
        done = sr.run_tool_in_process("gate", base, other, "--spread", spread, "--same-gpu")  # runs that say otherwise
        self.assertEqual(done.returncode, 2)
        self.assertIn("--same-gpu: the runs name two GPUs (GPU-c, GPU-d)", done.stderr)
        # Runs without an id: --same-gpu says they shared one.
        plain = [one_run(os.path.join(d, f"plain-{k}.json"), {n: 1.0 for n in NAMES}, slow=slow)
                 for k, slow in enumerate((None, {QUIET: 1.03}))]
        self.assertEqual(sr.run_tool_in_process("gate", *plain, "--spread", spread).returncode, 0)
        self.assertEqual(sr.run_tool_in_process("gate", *plain, "--spread", spread, "--same-gpu").returncode, 1)


class RunOnTheDevice(unittest.TestCase):
    def test_two_fresh_processes_on_a_small_filter(self):
        exe = os.environ.get("GPU_BENCH")
        sr.need(exe and os.access(exe, os.X_OK), "GPU_BENCH (the gpu_bench executable)")
        with tempfile.TemporaryDirectory() as d:
            done = sr.run_tool("repro-study", "run", "2", d, "--benchmark_filter=^L0/Compute/mad/type:float/width:1/",
                               "--size=1", "--max_time=0.02", "--warmup_s=0", "--min_sample_ms=1", "--progress=0")
            self.assertEqual(done.returncode, 0, done.stderr[-2000:])
            with open(os.path.join(d, "spread.json")) as handle:
                data = json.load(handle)
            self.assertEqual(len(data["runs"]), 2)
            self.assertTrue(data["benchmarks"])
            self.assertTrue(all(b["spread"] >= 0.001 for b in data["benchmarks"].values()))
            # fresh processes of one machine: one GPU, so the same-GPU spread is the spread
            self.assertEqual(data["same_gpu"]["degrees_of_freedom"], 1)
            self.assertEqual(data["spread_between"], "processes of one GPU")
            for b in data["benchmarks"].values():
                self.assertAlmostEqual(b["spread_same_gpu"], b["spread"], delta=b["spread"] * 1e-9)
            self.the_next_run_carries_the_study(exe, d, data)

    def the_next_run_carries_the_study(self, exe, d, data):
        """gpu_bench writes the study's spreads beside each benchmark: named, found, or refused."""
        def run(*args, results=None):
            env = dict(os.environ, GPU_BENCH_RESULTS_DIR=results or os.path.join(d, "no-results"))
            out = os.path.join(d, "next.json")
            done = subprocess.run([exe, "--benchmark_filter=^L0/Compute/mad/type:float/width:1/", "--size=1",
                                   "--max_time=0.02", "--warmup_s=0", "--min_sample_ms=1", "--progress=0",
                                   "--max_host_busy=1", "--benchmark_out=" + out, *args],
                                  capture_output=True, text=True, env=env, timeout=300)
            if done.returncode != 0:
                return done, None
            with open(out) as handle:
                return done, json.load(handle)
        study = os.path.join(d, "spread.json")
        done, run_file = run("--spread_study=" + study)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        self.assertTrue(run_file["context"]["spread_study"].startswith(study + " (2 runs)"))
        for b in run_file["benchmarks"]:
            expected = data["benchmarks"][b["name"]]
            self.assertAlmostEqual(b["run_to_run_spread"], expected["spread"], delta=expected["spread"] * 1e-5)
            self.assertAlmostEqual(b["run_to_run_spread_same_gpu"], expected["spread_same_gpu"],
                                   delta=expected["spread"] * 1e-5)
        # Found by itself in the results folder; none, or a folder without it, leaves the fields out.
        results = os.path.join(d, "results")
        os.makedirs(os.path.join(results, "this-device"))
        shutil.copy(study, os.path.join(results, "this-device", "spread.json"))
        done, run_file = run(results=results)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        self.assertIn("this-device/spread.json", run_file["context"]["spread_study"])
        self.assertTrue(all("run_to_run_spread" in b for b in run_file["benchmarks"]))
        for args, results_dir in ((("--spread_study=none",), results), ((), None)):
            done, run_file = run(*args, results=results_dir)
            self.assertEqual(done.returncode, 0, done.stderr[-2000:])
            self.assertNotIn("spread_study", run_file["context"])
            self.assertTrue(all("run_to_run_spread" not in b for b in run_file["benchmarks"]))
        # A study of another device, or a file that is not one: exit 2, one line.
        other = dict(data, device="Another GPU")
        with open(os.path.join(d, "other.json"), "w") as handle:
            json.dump(other, handle)
        for bad, reason in ((os.path.join(d, "other.json"), "a study of Another GPU, not of"),
                            (os.path.join(d, "run-1.json"), "not a reproducibility study")):
            done, _ = run("--spread_study=" + bad)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertIn("gpu_bench: error: --spread_study: " + bad + ": " + reason, done.stderr)
            self.assertTrue(os.path.exists(os.path.join(d, "run-1.json")))
            self.assertTrue(os.path.exists(os.path.join(d, "run-2.json")))


if __name__ == "__main__":
    unittest.main()
