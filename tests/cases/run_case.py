#!/usr/bin/python3
"""Runs every gpu_bench benchmark matching a filter at --size=1 on the default device and checks
that each one ran, verified (rel_error <= margin), left no error, and reported margins no looser
than tests/cases/margins.py allows.

Usage: run_case.py GPU_BENCH FILTER [--part=ci|rest] [--ci_exclude=REGEX] [extra args]

--part splits the filter's benchmarks in two that together are all of them: ci, the default set's
work-group shapes (--all_sweeps=0) less the names --ci_exclude matches, each a kernel and path
that another benchmark of the part also runs (a sweep shape, a plain inverse FFT whose kernels
every forward benchmark's round trip runs and checks); rest, the others (ctest label case_full,
which CI leaves out to stay within its time)."""
import json
import os
import re
import subprocess
import sys
import tempfile

from margins import margin_problems  # tests/cases/margins.py: each margin held to its bound

SKIP = 77  # ctest's SKIP_RETURN_CODE; with CI=true a missing device fails instead


def reject_constant(name):
    raise ValueError("non-strict JSON constant " + name)


def listed(gpu_bench, pattern, *flags):
    done = subprocess.run([gpu_bench, "--size=1", "--benchmark_list_tests", "--benchmark_filter=" + pattern, *flags],
                          capture_output=True, text=True)
    if done.returncode == 4:
        return None
    if done.returncode != 0:
        raise SystemExit("FAIL: gpu_bench --benchmark_list_tests exited with %d: %s" % (done.returncode, done.stderr))
    return [line.strip() for line in done.stdout.splitlines() if line.strip()]


def exact(names):
    """A filter that matches exactly these names (Google Benchmark's POSIX extended regex)."""
    return "^(" + "|".join(re.sub(r"([.+*?()\[\]{}|^$\\])", r"\\\1", n) for n in names) + ")$"


def part_filter(gpu_bench, pattern, part, ci_exclude):
    """The filter of one part, or None when there is no device."""
    every = listed(gpu_bench, pattern)
    default_shapes = listed(gpu_bench, pattern, "--all_sweeps=0")
    if every is None or default_shapes is None:
        return None
    ci = [n for n in default_shapes if not (ci_exclude and re.search(ci_exclude, n))]
    names = ci if part == "ci" else [n for n in every if n not in set(ci)]
    print("part %s: %d of the filter's %d benchmarks" % (part, len(names), len(every)))
    return exact(names) if names else ""


def main():
    gpu_bench, pattern = sys.argv[1], sys.argv[2]
    options = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in sys.argv[3:] if a.startswith(("--part=", "--ci_exclude="))}
    extra = [a for a in sys.argv[3:] if not a.startswith(("--part=", "--ci_exclude="))]
    if "--part" in options:
        if options["--part"] not in ("ci", "rest"):
            raise SystemExit("run_case.py: --part: expected ci or rest")
        pattern = part_filter(gpu_bench, pattern, options["--part"], options.get("--ci_exclude"))
        if pattern is None:
            print("no OpenCL device")
            return 1 if os.environ.get("CI") == "true" else SKIP
        if not pattern:
            print("no benchmark of this filter is outside the CI part")
            return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        # Verification is what these tests are for: the fewest samples the engine allows (one, after
        # calibration's two units: every kernel still runs at least three times, so state that a
        # launch leaves for the next, such as a ticket counter, is exercised).
        cmd = [gpu_bench, "--size=1", "--warmup_s=0", "--min_sample_ms=1", "--min_samples=1",
               "--max_noise=100", "--max_time=0.01", "--progress=0", "--benchmark_filter=" + pattern,
               "--benchmark_out=" + out, "--benchmark_out_format=json",
               # one builder: each benchmark's declared program list is checked to be complete
               "--build_threads=1"] + extra
        env = dict(os.environ)
        # PoCL compiles every kernel for each work-group size it runs with, and the LLVM passes
        # are most of a case test's time: unoptimised builds cut it by 2-3x. What a test checks
        # (the results) does not depend on the optimiser; GPU_BENCH_TEST_OPTIMIZED=1 keeps it.
        if env.get("GPU_BENCH_TEST_OPTIMIZED") != "1" and "POCL_EXTRA_BUILD_FLAGS" not in env:
            env["POCL_EXTRA_BUILD_FLAGS"] = "-cl-opt-disable"
        print(" ".join(cmd), flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        print(proc.stdout)
        if proc.returncode == 4:
            print("no OpenCL device")
            return 1 if os.environ.get("CI") == "true" else SKIP
        if proc.returncode != 0:
            print("FAIL: gpu_bench exited with", proc.returncode)
            return 1
        with open(out) as f:
            run = json.load(f, parse_constant=reject_constant)
    benchmarks = [b for b in run["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    if not benchmarks:
        print("FAIL: no benchmark matched", pattern)
        return 1
    failures = []
    for b in benchmarks:
        if b.get("error_occurred"):
            failures.append(b["name"] + ": " + b.get("error_message", "error"))
        elif "rel_error" not in b or "margin" not in b:
            failures.append(b["name"] + ": not verified (no rel_error/margin counters)")
        elif not b["rel_error"] <= b["margin"]:
            failures.append("%s: rel_error %g > margin %g" % (b["name"], b["rel_error"], b["margin"]))
        else:
            failures += margin_problems(b)
    programs = json.loads(run["context"].get("programs", "{}"))
    if programs.get("undeclared", 0) != 0:
        failures.append("%d programs built but not in their benchmark's program list "
                        "(GPU_BENCH_PHASES=1 names them)" % programs["undeclared"])
    for f in failures:
        print("FAIL:", f)
    print("%d benchmarks, %d verified" % (len(benchmarks), len(benchmarks) - len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
