# synthruns.py: builds synthetic gpu_bench JSON runs (Google Benchmark 1.7.1 layout) for the tools' tests.
# Entries carry repetitions, aggregates, rate counters and errors the way gpu_bench writes them.
"""Helpers shared by test_gate.py, test_export.py and test_report.py."""

import json
import math
import os
import random
import statistics
import subprocess
import sys
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


_LOADED = {}


def run_tool_in_process(tool, *args):
    """tools/<tool>'s main() with these arguments in this process, as a CompletedProcess: its
    stdout, stderr and exit status as run_tool gives them, without a Python start and imports per
    call (the gate tests call the gate about a hundred times). The tool's own module state is
    kept between calls, so only tools whose main() keeps none use it."""
    import contextlib
    import importlib.machinery
    import importlib.util
    import io
    if tool not in _LOADED:
        loader = importlib.machinery.SourceFileLoader("tool_" + tool.replace("-", "_"), os.path.join(TOOLS, tool))
        spec = importlib.util.spec_from_loader(loader.name, loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        _LOADED[tool] = module
    module = _LOADED[tool]
    out, err = io.StringIO(), io.StringIO()
    argv, sys.argv = sys.argv, [tool, *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                module.gb.run_cli(module.main, tool)
                status = 0
            except SystemExit as stop:
                status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    finally:
        sys.argv = argv
    return subprocess.CompletedProcess([tool, *args], status, out.getvalue(), err.getvalue())


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


# ---------------------------------------------------------------- runs as gpu_bench writes them now

MEDIAN_SE = 1.2533 / 1.349  # standard error of a median per unit of relative IQR, times sqrt(samples)


def measured(name, times_ns, noise=0.003, samples=10, primary=None, work=None, counters=None,
             aggregates=True, aggregates_only=False):
    """The entries of one benchmark with primary_metric, metrics and the noise/samples counters.

    times_ns: one median per-unit time per repetition.  work: {rate counter: amount per unit}, e.g.
    {"flop_per_second": 2e9, "bytes_per_second": 8e6} or a case's own {"mlups": 1e6}; their order
    is the order of "metrics", and the first is the primary metric unless `primary` names one
    ("real_time" when work is empty).  counters: descriptive counters (batch, host_over_device, ...).
    """
    work = dict(work or {})
    metrics = list(work)
    primary = primary or (metrics[0] if metrics else "real_time")
    reps = len(times_ns)
    iterations = []
    for index, time_ns in enumerate(times_ns):
        entry = {"name": name, "family_index": 0, "per_family_instance_index": 0, "run_name": name,
                 "run_type": "iteration", "primary_metric": primary, "metrics": metrics, "repetitions": reps,
                 "repetition_index": index, "threads": 1, "iterations": 1, "real_time": time_ns * 1e-6,
                 "cpu_time": 3.0, "time_unit": "ms"}
        entry.update({metric: amount / (time_ns * 1e-9) for metric, amount in work.items()})
        entry.update({"batch": 64.0, "converged": 1.0, "margin": 1e-6, "rel_error": 1e-8,
                      "noise": float(noise), "samples": float(samples)})
        entry.update(counters or {})
        iterations.append(entry)
    if reps < 2 or not aggregates:
        return iterations
    keys = ["real_time", "cpu_time"] + metrics + [k for k in iterations[0] if k in ("noise", "samples", "batch")]
    stats = {"mean": statistics.mean, "median": statistics.median, "stddev": statistics.stdev,
             "cv": lambda v: statistics.stdev(v) / statistics.mean(v)}
    out = []
    for agg, fn in stats.items():
        entry = {k: v for k, v in iterations[0].items() if k not in ("repetition_index",)}
        entry.update({"name": f"{name}_{agg}", "run_type": "aggregate", "aggregate_name": agg,
                      "aggregate_unit": "percentage" if agg == "cv" else "time", "iterations": reps})
        entry.update({k: fn([it[k] for it in iterations]) for k in keys})
        out.append(entry)
    return out if aggregates_only else iterations + out


KINDS = (  # (work per unit, primary) of the kinds of benchmark gpu_bench has
    ({"flop_per_second": 2e9, "bytes_per_second": 8e6, "items_per_second": 1e6}, None),
    ({"bytes_per_second": 64e6, "items_per_second": 16e6}, None),
    ({"items_per_second": 1e6}, None),
    ({}, "real_time"),
    ({"mlups": 1e6, "bytes_per_second": 76e6}, "mlups"),  # a case's own rate as the primary metric
)


def one_binary(seed, n=500, reps=1, drift=0.005, launch_bound=10, stuck=0):
    """Two runs of one binary on one device: {key: (base entries, current entries)} and their specs.

    Each benchmark has a noise of 0.1-1% (its medians jitter by the standard error of a median of
    its samples), and the second run drifts by up to `drift` (uniform, either sign).  launch_bound
    of them have noise 2% and drift +-3%; `stuck` more are launch-bound the way 2-D FFTs on an
    H100 are: host_over_device 1.3, noise 0.1%, yet a drift of +-8% between the runs.  Descriptive
    counters (batch, samples, converged, host_over_device, ...) differ wildly between the runs.
    """
    rng = random.Random(seed)
    specs = []
    for i in range(n):
        work, primary = KINDS[i % len(KINDS)]
        spec = {"name": f"L{i % 3}/Synthetic/case:{i // 7}/variant:{i}/size:3/manual_time", "work": work,
                "primary": primary, "time": 10 ** rng.uniform(3, 7), "noise": rng.uniform(0.001, 0.01),
                "samples": rng.choice([10, 10, 10, 13, 25, 40]), "drift": rng.uniform(-drift, drift),
                "hod": rng.uniform(1.0, 1.1), "launch_bound": False}
        if i % 50 == 7 and launch_bound > 0:
            launch_bound -= 1
            spec.update(noise=0.02, samples=30, drift=rng.choice([-0.03, 0.03]), hod=1.5, launch_bound=True)
        elif i % 50 == 23 and stuck > 0:
            stuck -= 1
            spec.update(noise=0.001, samples=10, drift=rng.choice([-0.08, 0.08]), hod=1.3, launch_bound=True)
        specs.append(spec)
    return specs


def jittered(spec, rng, reps, factor=1.0):
    """reps medians of spec's benchmark taking factor x its time, jittered as much as its noise implies."""
    se = MEDIAN_SE * spec["noise"] / math.sqrt(spec["samples"])
    return [spec["time"] * factor * (1.0 + rng.gauss(0.0, se)) for _ in range(reps)]


def side_entries(spec, rng, times, wild=False):
    """One run's entries of a spec'd benchmark with the given medians (ns)."""
    counters = {"host_over_device": spec["hod"]}
    samples = spec["samples"]
    if wild:  # what describes the measurement may change as it likes: it is never compared
        counters.update(batch=rng.choice([1.0, 16.0, 4096.0]), converged=rng.choice([0.0, 1.0]),
                        rel_error=rng.uniform(0, 1e-3), margin=rng.uniform(0, 1e-2), passes=rng.choice([1.0, 4.0]),
                        work_group=rng.choice([64.0, 256.0, 1024.0]))
        samples = rng.choice([3, samples, 1000])
    return measured(spec["name"], times, noise=spec["noise"], samples=samples, primary=spec["primary"],
                    work=spec["work"], counters=counters)


def write_pair(directory, specs, seed, reps=1, slowed=None, factor=1.0):
    """BASELINE and CURRENT files of specs: CURRENT drifts by each spec's drift, except that the
    benchmark named `slowed` measures exactly `factor` x its baseline medians (a real change, measured
    as such)."""
    rng = random.Random(seed * 7919 + 1)
    base, cur = [], []
    for spec in specs:
        times = jittered(spec, rng, reps)
        base += side_entries(spec, rng, times)
        if spec["name"] == slowed:
            cur += side_entries(spec, rng, [t * factor for t in times], wild=True)
        else:
            cur += side_entries(spec, rng, jittered(spec, rng, reps, 1.0 + spec["drift"]), wild=True)
    return (write_run(os.path.join(directory, "base.json"), base),
            write_run(os.path.join(directory, "cur.json"), cur))
