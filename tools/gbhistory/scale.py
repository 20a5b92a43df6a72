# scale.py: tools/history bench: makes RUNS synthetic runs of BENCHMARKS benchmarks each, then times the
# command line on them: ingest, gate --against last:20 and dashboard (docs/HISTORY.md records the figures).
"""The scale benchmark of the history store (not a test: it prints times, it asserts nothing).

The runs are of one device, a day apart, each benchmark a primary metric with 0.1-1% jitter,
and one benchmark in a hundred taking 1.2x as long from run RUNS * 0.6 on (change points for
the dashboard).  Each step runs tools/history as a user would, in a process of its own, so the
times include starting Python and reading the files.
"""

import datetime
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from . import store as st

HISTORY = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "history")
FAMILIES = ("L0/GlobalBandwidth", "L0/Compute", "L0/MemoryHierarchy", "L1/FFT", "L1/Reduction", "L2/StableFluids")
METRICS = ("bytes_per_second", "flop_per_second", "items_per_second", "real_time")


def make_runs(directory, runs, benchmarks, seed=1):
    """Write the run files; their paths, oldest first."""
    rng = random.Random(seed)
    specs = []
    for i in range(benchmarks):
        family = FAMILIES[i % len(FAMILIES)]
        specs.append((f"{family}/case:{i // len(FAMILIES)}/type:float/wg:256/size:3/manual_time",
                      METRICS[i % len(METRICS)], 10 ** rng.uniform(-6, -2), rng.uniform(0.001, 0.01),
                      i % 100 == 7))
    start = datetime.datetime(2024, 1, 1, 6, tzinfo=datetime.timezone.utc)
    paths = []
    for r in range(runs):
        entries = []
        for name, metric, seconds, noise, stepped in specs:
            t = seconds * (1.2 if stepped and r >= runs * 0.6 else 1.0) * (1 + rng.gauss(0, noise / 3))
            entry = {"name": name, "family_index": 0, "per_family_instance_index": 0, "run_name": name,
                     "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
                     "iterations": 1, "real_time": t * 1e3, "cpu_time": t * 1e3, "time_unit": "ms",
                     "primary_metric": metric, "metrics": [] if metric == "real_time" else [metric],
                     "batch": 64.0, "converged": 1.0, "margin": 1e-6, "rel_error": 1e-8, "noise": noise,
                     "samples": 10.0, "host_over_device": 1.02, "host_busy": 0.01, "device_clock_ratio": 1.0}
            if metric != "real_time":
                entry[metric] = 1e9 / t
            entries.append(entry)
        context = {"date": (start + datetime.timedelta(days=r)).isoformat(), "host_name": "bench-host",
                   "executable": "./gpu_bench", "num_cpus": 2, "gpu_bench_version": "0.1.0",
                   "git_revision": f"{r:07x}", "device": "Synthetic GPU", "driver_version": "1.0",
                   "device_fingerprint": "5ca1ab1e5ca1ab1e", "size_class": "3",
                   "host_busy_benchmarks": "[]", "slow_device_benchmarks": "[]"}
        path = os.path.join(directory, f"run{r:05d}.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"context": context, "benchmarks": entries}, handle)
        paths.append(path)
    return paths


def timed(command):
    """(wall seconds, CompletedProcess); the CPU seconds it took are printed beside, as other load on
    the host stretches the wall time and not the CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    done.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):  # the gate may find a regression: that is an answer
        raise RuntimeError(f"{' '.join(command[:2])} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return seconds, done


def run(args):
    if args.runs < 21 or args.benchmarks < 1:
        raise ValueError("bench needs --runs of at least 21 and --benchmarks of at least 1")
    workdir = args.workdir or tempfile.mkdtemp(prefix="history-bench-")
    os.makedirs(workdir, exist_ok=True)
    runs_dir = os.path.join(workdir, "runs")
    made = os.path.join(runs_dir, "made.json")
    wanted = {"runs": args.runs, "benchmarks": args.benchmarks}
    reuse = False  # a second store is measured on the same runs
    if os.path.exists(made):
        with open(made, encoding="utf-8") as handle:
            reuse = json.load(handle) == wanted
    if not reuse and os.path.isdir(runs_dir):
        shutil.rmtree(runs_dir)
    os.makedirs(runs_dir, exist_ok=True)
    db = ["--db", args.db]
    print(f"history bench: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; {args.runs} runs x "
          f"{args.benchmarks} benchmarks into {st.redact(args.db)}, files in {workdir}", flush=True)
    started = time.monotonic()
    if reuse:
        paths = sorted(os.path.join(runs_dir, f) for f in os.listdir(runs_dir) if f.startswith("run"))
    else:
        paths = make_runs(runs_dir, args.runs, args.benchmarks)
        with open(made, "w", encoding="utf-8") as handle:
            json.dump(wanted, handle)
    print(f"  {'reused' if reuse else 'made'} the run files: {time.monotonic() - started:.1f} s "
          f"({sum(os.path.getsize(p) for p in paths) / 1e6:.0f} MB)", flush=True)
    results = args.runs * args.benchmarks
    seconds, done = timed([HISTORY, "ingest", *db, *paths])
    print(f"  ingest: {seconds:.1f} s, {results / seconds:,.0f} results/s, CPU {done.cpu:.1f} s "
          f"({done.stdout.strip().splitlines()[-1]})",
          flush=True)
    seconds, done = timed([HISTORY, "gate", *db, paths[-1], "--against", "last:20"])
    print(f"  gate --against last:20: {seconds:.2f} s, CPU {done.cpu:.2f} s "
          f"({done.stdout.strip().splitlines()[-2]})", flush=True)
    site = os.path.join(workdir, "site")
    seconds, done = timed([HISTORY, "dashboard", *db, "-o", site])
    size = sum(os.path.getsize(os.path.join(site, f)) for f in os.listdir(site))
    print(f"  dashboard: {seconds:.1f} s, CPU {done.cpu:.1f} s ({size / 1e6:.0f} MB in {site})", flush=True)
    seconds, done = timed([HISTORY, "trend", *db])
    print(f"  trend: {seconds:.1f} s, CPU {done.cpu:.1f} s ({done.stdout.splitlines()[0]})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit("run it as tools/history bench")
