# synthruns.py: builds synthetic gpu_bench JSON runs (Google Benchmark 1.7.1 layout) for the tools' tests.
# Entries carry repetitions, aggregates, rate counters and errors the way gpu_bench writes them.
"""Helpers shared by test_gate.py, test_export.py and test_report.py."""

import json
import os
import random
import statistics
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.normpath(os.path.join(HERE, "..", "..", "tools"))
FINGERPRINT_A = "0123456789abcdef"
FINGERPRINT_B = "fedcba9876543210"
IN_CI = os.environ.get("CI", "").lower() == "true"


def context(fingerprint=FINGERPRINT_A, device="Synthetic GPU A", **extra):
    """A context like gpu_bench's: Google Benchmark's keys plus gpu-bench's string-valued ones."""
    ctx = {
        "date": "2024-05-01T12:00:00+00:00", "host_name": "ci-runner", "executable": "./gpu_bench",
        "num_cpus": 2, "mhz_per_cpu": 2000, "cpu_scaling_enabled": False, "caches": [],
        "load_avg": [0.5, 0.4, 0.3], "library_build_type": "release",
        "gpu_bench_version": "0.1.0", "git_revision": "abc1234", "platform": "Synthetic OpenCL",
        "device": device, "vendor": "Synthetic", "driver_version": "1.0", "device_opencl_version": "OpenCL 3.0",
        "opencl_c_version": "OpenCL C 1.2", "device_type": "GPU", "compute_units": "80",
        "max_clock_mhz": "1800", "global_mem_bytes": "17179869184", "local_mem_bytes": "65536",
        "max_work_group_size": "1024", "timer_resolution_ns": "1", "device_fingerprint": fingerprint,
        "size_class": "small", "cpu_load": "0.05", "warmup_seconds": "0.5",
        "steady_flop_per_second": "1.0e13",
    }
    ctx.update({k: str(v) for k, v in extra.items()})
    return ctx


def noisy(center_ns, reps, rel_sd, seed):
    """reps positive times around center_ns with relative standard deviation rel_sd."""
    rng = random.Random(seed)
    return [max(center_ns * (1.0 + rng.gauss(0.0, rel_sd)), center_ns * 0.01) for _ in range(reps)]


def _iteration(name, index, reps, time_ns, bytes_moved, flop):
    entry = {"name": name, "family_index": 0, "per_family_instance_index": 0, "run_name": name,
             "run_type": "iteration", "repetitions": reps, "repetition_index": index, "threads": 1,
             "iterations": 100, "real_time": time_ns, "cpu_time": time_ns * 1.1, "time_unit": "ns"}
    if bytes_moved:
        entry["bytes_per_second"] = bytes_moved / (time_ns * 1e-9)
    if flop:
        entry["flop_per_second"] = flop / (time_ns * 1e-9)
    entry["rel_error"] = 1e-7  # not a rate: the gate must ignore it
    return entry


def _aggregates(name, iterations):
    """mean/median/stddev/cv entries over the numeric metrics, as Google Benchmark adds them."""
    keys = [k for k in ("real_time", "cpu_time", "bytes_per_second", "flop_per_second") if k in iterations[0]]
    stats = {"mean": statistics.mean, "median": statistics.median, "stddev": statistics.stdev,
             "cv": lambda v: statistics.stdev(v) / statistics.mean(v)}
    out = []
    for agg, fn in stats.items():
        entry = {"name": f"{name}_{agg}", "family_index": 0, "per_family_instance_index": 0,
                 "run_name": name, "run_type": "aggregate", "repetitions": len(iterations), "threads": 1,
                 "aggregate_name": agg, "aggregate_unit": "percentage" if agg == "cv" else "time",
                 "iterations": len(iterations), "time_unit": "ns"}
        entry.update({k: fn([it[k] for it in iterations]) for k in keys})
        out.append(entry)
    return out


def bench(name, times_ns, bytes_moved=None, flop=None, error=None, aggregates_only=False):
    """The entries of one benchmark: one iteration entry per time, plus aggregates when repeated."""
    reps = len(times_ns)
    if error:
        return [{"name": name, "run_name": name, "run_type": "iteration", "repetitions": reps,
                 "repetition_index": i, "threads": 1, "iterations": 0, "real_time": 0.0, "cpu_time": 0.0,
                 "time_unit": "ns", "error_occurred": True, "error_message": error} for i in range(reps)]
    iterations = [_iteration(name, i, reps, t, bytes_moved, flop) for i, t in enumerate(times_ns)]
    if reps < 2:
        return iterations
    aggregates = _aggregates(name, iterations)
    return aggregates if aggregates_only else iterations + aggregates


def write_run(path, entries, ctx=None):
    """Write a run file; json.dumps writes bare NaN/Infinity just like Google Benchmark does."""
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"context": ctx if ctx is not None else context(), "benchmarks": entries}, handle, indent=1)
    return path


def run_tool(tool, *args):
    """Run tools/<tool> (executable, #!/usr/bin/python3) and return the CompletedProcess."""
    return subprocess.run([os.path.join(TOOLS, tool), *args], capture_output=True, text=True, timeout=300)


def need(available, what):
    """Skip without a dependency, but fail in CI, where a skip would hide a broken setup."""
    if available:
        return
    if IN_CI:
        raise AssertionError(f"{what} is required in CI (CI=true)")
    raise unittest.SkipTest(f"{what} is not installed; skipping")


def have_matplotlib():
    done = subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"], capture_output=True)
    return done.returncode == 0
