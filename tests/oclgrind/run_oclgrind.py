#!/usr/bin/python3
"""Runs gpu_bench under Oclgrind for one kernel file and judges the log.

  run_oclgrind.py [--preload SHIM] GPU_BENCH KERNEL_FILE
      e.g. run_oclgrind.py --preload build/tests/liboclgrind_fill_as_write.so build/gpu_bench l1/scan.cl
  run_oclgrind.py --quick [--preload SHIM] GPU_BENCH KERNEL_FILE
      the CI pass: Oclgrind's --quick (the first and last work group of every launch) with
      --data-races --check-api (bounds are always checked), every kernel of the file
  run_oclgrind.py --coverage      every kernel file and kernel has an entry in kernel_files.json

SHIM (fill_as_write.cpp, built by the tests) is preloaded ahead of Oclgrind's runtime: it turns
clEnqueueFillBuffer into whole-buffer writes, which Oclgrind's --uninitialized check tracks.

KERNEL_FILE's entry in kernel_files.json says which benchmarks reach its kernels (a filter), which
kernels they must run, and any Oclgrind or gpu_bench settings it needs. The run uses
--data-races --uninitialized --check-api at --size=1 with the fewest samples, and fails when:
the log has a finding that allowed.txt does not list (by kernel, kind and source line), an
expected kernel did not run, a benchmark errored or failed verification, gpu_bench exited non-zero
(a crash at exit included), or Oclgrind stopped reporting at --max-errors. Without oclgrind the
test is skipped (77), but fails under CI=true.

--quick runs only two work groups of each launch, once per benchmark and with no checks (outputs
are mostly poison; the case tests verify on PoCL). It finds what PoCL hides and a group shows alone: races within a work group (a lost
atomic, a missing barrier, a collapsed double buffer), races between the two groups on global
memory, and out-of-bounds accesses (a local array one element short), at the edges too."""
import argparse
import fnmatch
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SKIP = 77
# --quick: each kernel once (a look-back's tickets are reset by the last group of a launch, which
# --quick skips, so a second launch would wait for ever), and no checks: most of each output is
# unwritten (the case tests verify on PoCL), and a check's own launches (a 2000-step channel) cost
# more than the benchmark.
QUICK_FLAGS = ["--verify_only", "--skip_checks"]
QUICK_COMPUTE_UNITS = 32
QUICK_TIMEOUT = 300  # ctest's limit of a --quick test, seconds
MAX_ERRORS = 20000  # per process; a flood past it would hide later findings, so reaching it fails

# gpu_bench: one discarded unit and one sample per benchmark, no warm-up, programs built on demand
# (no background builds of programs the filter does not need).
GPU_BENCH_FLAGS = ["--size=1", "--warmup_s=0", "--benchmark_min_time=0.000001", "--min_sample_ms=0.001",
                   "--progress=0", "--build_threads=0", "--max_cpu_load=1000",
                   "--kernel_timeout=0"]  # the simulator runs a size-1 kernel for minutes


# The keys of an entry of kernel_files.json.
ENTRY_KEYS = {
    "filter": "benchmarks that reach the file's kernels (a --benchmark_filter, or a list of them: each "
              "filter then runs in its own gpu_bench process, see separate_runs)",
    "kernels": "kernels the run must launch (Oclgrind's --inst-counts names them)",
    "unreached": "kernel -> why no benchmark runs it under Oclgrind",
    "timeout": "ctest's limit, seconds",
    "ci": "true: in the subset tools/run-tests runs by default (no oclgrind_full label)",
    "max_errors": "Oclgrind's --max-errors, when the allowed findings are many",
    "build_options": "added to every program's build options",
    "gpu_bench_args": "more gpu_bench flags",
    "global_mem_size": "Oclgrind's device memory, bytes (default 8 MiB)",
    "without_uninitialized": "why --uninitialized is off for this file",
    "separate_runs": "why the filters of a list run in separate gpu_bench processes",
    "photo_crop": "a smaller copy of a photo, from its top left corner: {from, width, height}; "
                  "found through GPU_BENCH_IMAGE_DIR",
    "why": "why the filter or a setting is what it is",
    "quick_filter": "the --quick pass's filter, where it differs (cheaper benchmarks that reach every kernel)",
    "quick_why": "why the quick filter is what it is",
    "quick_unreached": "kernel -> why the --quick pass does not run it (the full pass does)",
    "quick_flags": "gpu_bench flags of the --quick pass instead of --verify_only --skip_checks",
}


def load_table():
    with open(os.path.join(HERE, "kernel_files.json")) as f:
        return json.load(f, object_pairs_hook=OrderedDict)


# ---- kernels of a file ------------------------------------------------------------------------
def kernels_in(path):
    """The __kernel functions of an OpenCL C file, macro-generated ones expanded (NAME##_suffix)."""
    text = re.sub(r"\\\n", " ", open(path).read())
    text = re.sub(r"//[^\n]*", "", text)
    names = []
    for name in re.findall(r"\b(?:__)?kernel\b[^;{}]*?\bvoid\s+([\w#]+)\s*\(", text):
        if "##" not in name:
            names.append(name)
            continue
        # A kernel inside #define MACRO(PARAMS): expand it for every use MACRO(ARGS) of the macro.
        for define in re.finditer(r"#define\s+(\w+)\(([^)]*)\)([^\n]*)", text):
            macro, params, body = define.group(1), [p.strip() for p in define.group(2).split(",")], define.group(3)
            if not re.search(r"\bvoid\s+" + re.escape(name) + r"\s*\(", body):
                continue
            for use in re.finditer(r"^\s*" + macro + r"\(([^)]*)\)", text, re.M):
                args = dict(zip(params, [a.strip() for a in use.group(1).split(",")]))
                names.append("".join(args.get(tok.strip(), tok.strip()) for tok in name.split("##")))
    return names


def coverage():
    table = load_table()
    problems = []
    files = sorted(os.path.relpath(os.path.join(d, f), os.path.join(ROOT, "kernels"))
                   for d, _, fs in os.walk(os.path.join(ROOT, "kernels")) for f in fs if f.endswith(".cl"))
    for rel in files:
        entry = table.get(rel)
        if entry is None:
            problems.append(f"kernels/{rel}: no oclgrind test (add it to tests/oclgrind/kernel_files.json)")
            continue
        found = set(kernels_in(os.path.join(ROOT, "kernels", rel)))
        for key in entry:
            if key not in ENTRY_KEYS:
                problems.append(f"tests/oclgrind/kernel_files.json: {rel}: unknown key {key}")
        # A file whose every kernel is unreached (a test hook that never finishes) has no run.
        if entry.get("kernels") and (not entry.get("filter") or not entry.get("timeout")):
            problems.append(f"tests/oclgrind/kernel_files.json: {rel}: needs a filter and a timeout")
        if isinstance(entry.get("filter"), list) != bool(entry.get("separate_runs", "").strip()):
            problems.append(f"tests/oclgrind/kernel_files.json: {rel}: a list of filters needs separate_runs "
                            "(why), and separate_runs a list")
        expected, unreached = set(entry.get("kernels", [])), set(entry.get("unreached", {}))
        for k in sorted(found - expected - unreached):
            problems.append(f"kernels/{rel}: kernel {k} is neither run by its oclgrind test nor listed as unreached")
        for k in sorted((expected | unreached) - found):
            problems.append(f"kernels/{rel}: tests/oclgrind/kernel_files.json names kernel {k}, which the file lacks")
        for k, why in list(entry.get("unreached", {}).items()) + list(entry.get("quick_unreached", {}).items()):
            if not why.strip():
                problems.append(f"kernels/{rel}: unreached kernel {k} needs a reason")
        for k in sorted(set(entry.get("quick_unreached", {})) - expected):
            problems.append(f"tests/oclgrind/kernel_files.json: {rel}: quick_unreached names {k}, which the full pass "
                            "does not run")
    for rel in table:
        if rel not in files:
            problems.append(f"tests/oclgrind/kernel_files.json: {rel} is not a kernel file")
    allowed = load_allowed()
    for a in allowed:
        if a["file"] not in table:
            problems.append(f"allowed.txt: entry for {a['kernel']} names unknown file {a['file']}")
    for p in problems:
        print("FAIL:", p)
    print(f"{len(files)} kernel files, {len(problems)} problems")
    return 1 if problems else 0


# ---- the allow list ---------------------------------------------------------------------------
KINDS = ("data-race", "uninitialized", "invalid-access", "divergence", "api", "other")


def load_allowed():
    """allowed.txt: entries separated by blank lines, each 'key: value' lines (file, kernel, kind,
    where, why); an indented line continues the previous value."""
    entries, cur, key = [], {}, None
    for raw in open(os.path.join(HERE, "allowed.txt")).read().split("\n") + [""]:
        if raw.startswith("#"):
            continue
        if not raw.strip():
            if cur:
                entries.append(cur)
            cur, key = {}, None
        elif raw[0].isspace() and key:
            cur[key] += " " + raw.strip()
        else:
            key, _, value = raw.partition(":")
            key = key.strip()
            cur[key] = value.strip()
    for e in entries:
        missing = [k for k in ("file", "kernel", "kind", "why") if not e.get(k)]
        if missing or e["kind"] not in KINDS:
            raise SystemExit(f"allowed.txt: bad entry {e} (needs file, kernel, kind in {KINDS}, why)")
        e.setdefault("where", "")
    return entries


# ---- the log ----------------------------------------------------------------------------------
def kind_of(headline):
    h = headline.lower()
    if "data race" in h:
        return "data-race"
    if h.startswith("uninitialized"):
        return "uninitialized"
    if h.startswith("invalid") or "out of bounds" in h or "unaligned" in h:
        return "invalid-access"
    if "divergence" in h:
        return "divergence"
    if "runtime error" in h or "api" in h:
        return "api"
    return "other"


def findings(log_text, source_lines=None):
    """Each message of the log: kind, kernel, source lines (a race names two: both, joined by
    ' | '), headline, the whole text. Oclgrind prints the Nth line of the program it was given,
    where the shared headers (kernels/include) are pasted in ahead of a #line: N counts the kernel
    file's own lines, so the text is taken from `source_lines` (the file) when given."""
    out, block = [], []
    for line in log_text.split("\n") + [""]:
        if line and not line[0].isspace() and block:
            out.append(block)
            block = []
        if line.strip() or block:
            block.append(line)
    if block:
        out.append(block)
    result = []
    for b in out:
        headline = b[0].strip()
        if not headline:
            continue
        f = {"headline": headline, "kind": kind_of(headline), "kernel": "", "text": "\n".join(b)}
        where = []
        for i, line in enumerate(b):
            s = line.strip()
            if s.startswith("Kernel:"):
                f["kernel"] = s.split(":", 1)[1].strip()
            elif s.startswith("At line") and i + 1 < len(b):
                number = re.match(r"At line (\d+)", s)
                n = int(number.group(1)) if number else 0
                where.append(source_lines[n - 1].strip() if source_lines and 0 < n <= len(source_lines)
                             else b[i + 1].strip())
            elif s.startswith(("Function:", "Error:")) and f["kind"] == "api":
                where.append(s)
        f["where"] = " | ".join(where)
        result.append(f)
    return result


def allowed_by(f, allowed):
    for a in allowed:
        if a["kind"] == f["kind"] and fnmatch.fnmatchcase(f["kernel"], a["kernel"]) and a["where"] in f["where"]:
            return a
    return None


# ---- a cropped photo --------------------------------------------------------------------------
def crop_png(source, target, width, height):
    """Writes the top-left width x height of an 8-bit RGB, non-interlaced PNG as a PNG (no
    imaging library needed)."""
    data = open(source, "rb").read()
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    w, h, depth, colour, _, _, interlace = header
    if (depth, colour, interlace) != (8, 2, 0) or width > w or height > h:
        raise SystemExit(f"{source}: not an 8-bit RGB PNG of at least {width} x {height}")
    raw, bpp, stride = zlib.decompress(idat), 3, w * 3
    prev, rows = bytearray(stride), []
    for y in range(height):  # undo the row filters (PNG spec, section 9)
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    pixels = b"".join(b"\0" + bytes(r[:width * bpp]) for r in rows)
    with open(target, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(pixels)) + chunk(b"IEND", b""))


# ---- a run ------------------------------------------------------------------------------------
def oclgrind_environment(oclgrind):
    """What the `oclgrind` wrapper adds to the environment (LD_PRELOAD of its runtime,
    LD_LIBRARY_PATH), read from the wrapper itself, so that a shim can go ahead of it."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    done = subprocess.run([oclgrind, "/usr/bin/env", "-0"], stdout=subprocess.PIPE, env=env, check=True)
    added = {}
    for item in done.stdout.decode(errors="replace").split("\0"):
        key, _, value = item.partition("=")
        if key in ("LD_PRELOAD", "LD_LIBRARY_PATH") and value != os.environ.get(key):
            added[key] = value
    if "LD_PRELOAD" not in added:
        raise SystemExit("could not learn Oclgrind's runtime library from `oclgrind /usr/bin/env`")
    return added


def run_pass(gpu_bench, rel, entry, bench_filter, checks, preload, oclgrind, tmp, deadline):
    """One gpu_bench process under Oclgrind with these checks: (its output, exit code, Oclgrind's
    log, the results JSON or None, seconds)."""
    log, out = os.path.join(tmp, "oclgrind.log"), os.path.join(tmp, "run.json")
    for path in (log, out):
        if os.path.exists(path):
            os.remove(path)
    # Oclgrind 21.10's --uninitialized crashes (SIGSEGV) on optimised vector code (shufflevector):
    # with that check on, programs are built unoptimised.
    build = ["-cl-opt-disable"] if "--uninitialized" in checks else []
    quick = "--quick" in checks
    build_options = " ".join(build + entry.get("build_options", []))
    # The wrapper's options as its OCLGRIND_* variables, so that the shim can be preloaded first.
    settings = {"OCLGRIND_" + c[2:].upper().replace("-", "_"): "1" for c in checks}
    settings.update({
        "OCLGRIND_INST_COUNTS": "1",  # names every kernel run (on stdout)
        "OCLGRIND_MAX_ERRORS": str(entry.get("max_errors", MAX_ERRORS)),
        "OCLGRIND_LOG": log,
        # The copy-bandwidth reference sizes itself from global memory: 8 MiB keeps it at 1 MiB.
        "OCLGRIND_GLOBAL_MEM_SIZE": str(entry.get("global_mem_size", 8 << 20)),
        # Oclgrind charges a kernel for the __local variables of every kernel whose name starts
        # with its own (fft_rows for fft_rows_t): the CL_OUT_OF_RESOURCES it then gives is not
        # the kernel's.
        "OCLGRIND_LOCAL_MEM_SIZE": "65536",
        # One worker thread: work groups run one after another, so runs repeat, and Oclgrind 21.10
        # with --data-races and --uninitialized together and several threads reports uninitialized
        # values that are not (integral_image_fused: clean with one thread, and with either check
        # alone). Races are found from the accesses, whatever the threads.
        "OCLGRIND_NUM_THREADS": "1",
    })
    if build_options:
        settings["OCLGRIND_BUILD_OPTIONS"] = build_options
    if quick:
        # Grids sized from the compute units (persistent groups) get more, smaller groups: the two
        # that run do less work.
        settings["OCLGRIND_COMPUTE_UNITS"] = str(QUICK_COMPUTE_UNITS)
    env = dict(os.environ)
    env.update(oclgrind_environment(oclgrind))
    if preload:
        env["LD_PRELOAD"] = os.path.abspath(preload) + ":" + env["LD_PRELOAD"]
    else:
        print("warning: no --preload: every poisoned or zero-filled buffer will read as uninitialized")
    env.update(settings)
    if entry.get("photo_crop"):
        crop = entry["photo_crop"]
        crop_png(crop["from"], os.path.join(tmp, os.path.basename(crop["from"])), crop["width"], crop["height"])
        env["GPU_BENCH_IMAGE_DIR"] = tmp
        print(f"GPU_BENCH_IMAGE_DIR: {crop['width']} x {crop['height']} of {crop['from']}")
    flags = entry.get("quick_flags", QUICK_FLAGS) if quick else []
    cmd = [gpu_bench] + GPU_BENCH_FLAGS + flags + entry.get("gpu_bench_args", []) + [
        "--benchmark_filter=" + bench_filter, "--benchmark_out=" + out, "--benchmark_out_format=json"]
    print(" ".join(f"{k}='{v}'" for k, v in sorted(settings.items()) if k != "OCLGRIND_LOG"),
          "LD_PRELOAD=" + env["LD_PRELOAD"], " ".join(cmd), flush=True)
    start = time.monotonic()
    # Stopped short of ctest's limit, so that what was found is still reported.
    limit = max(10, deadline - start)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                              env=env, timeout=limit)
        output, code = proc.stdout, proc.returncode
    except subprocess.TimeoutExpired as e:  # the child is killed
        output = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        code = -9
        print(f"FAIL: stopped after {limit:.0f} s (raise the timeout in kernel_files.json, or pick fewer benchmarks)")
    seconds = time.monotonic() - start
    log_text = open(log, errors="replace").read() if os.path.exists(log) else ""
    run = None
    if os.path.exists(out):
        with open(out) as f:
            run = json.load(f)
    return output, code, log_text, run, seconds


def judge_pass(rel, entry, bench_filter, output, code, log_text, run, seconds, allowed, used, failures):
    """Adds this pass's failures; counts the allowed findings per allow-list entry in `used`.
    Returns the kernels it ran (launch counts) and its number of messages."""
    # Oclgrind's instruction histograms name each kernel run; the rest is gpu_bench's output.
    ran = Counter(re.findall(r"^Instructions executed for kernel '(\w+)':", output, re.M))
    print("\n".join(line for line in output.split("\n")
                    if line and not re.match(r"^(Instructions executed for kernel|\s+\d+ - )", line)))
    print(f"oclgrind run: {seconds:.1f} s, exit {code}; kernels run (launches): "
          + ", ".join(f"{k} ({n})" for k, n in sorted(ran.items())))
    if code == 4:
        failures.append("no OpenCL device under oclgrind")
    elif code != 0:
        crashed = code > 128 or code < 0
        failures.append(f"gpu_bench exited with {code}" + (" (a crash, or stopped)" if crashed else ""))
    if run is not None:
        bench = [b for b in run.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
        if not bench:
            failures.append("no benchmark ran: " + bench_filter)
        for b in bench:
            if b.get("error_occurred"):
                failures.append(b["name"] + ": " + b.get("error_message", "error"))
            elif "rel_error" in b and "margin" in b and not b["rel_error"] <= b["margin"]:
                failures.append("%s: rel_error %g > margin %g" % (b["name"], b["rel_error"], b["margin"]))
        print(f"{len(bench)} benchmarks")
    elif code == 0:
        failures.append("gpu_bench wrote no results")

    with open(os.path.join(ROOT, "kernels", rel)) as f:
        found = findings(log_text, f.read().split("\n"))
    limit = [f for f in found if re.match(r"Oclgrind: \d+ errors generated", f["headline"])]
    if limit:
        failures.append(f"Oclgrind reached --max-errors {entry.get('max_errors', MAX_ERRORS)}: "
                        "later findings are hidden")
        found = [f for f in found if f not in limit]
    groups = OrderedDict()
    for f in found:
        groups.setdefault((f["kind"], f["kernel"], f["where"]), []).append(f)
    for (kind, kernel, where), fs in groups.items():
        a = allowed_by(fs[0], allowed)
        label = f"{kind} in {kernel or '(host API)'}: {fs[0]['headline']} [{where}] x{len(fs)}"
        if a:
            used[id(a)] += len(fs)
            print("allowed:", label)
        else:
            failures.append(label)
            print(f"FINDING: {label}\n{fs[0]['text']}")
    return ran, len(found)


def run_file(gpu_bench, rel, preload=None, quick=False):
    table = load_table()
    if rel not in table:
        print(f"FAIL: {rel} has no entry in tests/oclgrind/kernel_files.json")
        return 1
    entry = table[rel]
    if not entry.get("kernels"):
        print(f"FAIL: {rel} has no kernel to run under Oclgrind (every one is listed as unreached)")
        return 1
    oclgrind = shutil.which("oclgrind")
    if not oclgrind:
        print("oclgrind not found (Debian package oclgrind)")
        return 1 if os.environ.get("CI") == "true" else SKIP
    allowed = [a for a in load_allowed() if a["file"] == rel]
    checks = ["--data-races", "--uninitialized", "--check-api"]
    passes = [checks]
    if quick:
        # Races and bounds in two work groups per launch: the --uninitialized pass needs every
        # group (a skipped group leaves what the next kernel reads unwritten) and unoptimised builds.
        passes = [["--quick", "--data-races", "--check-api"]]
        if entry.get("quick_filter"):
            entry = dict(entry, filter=entry["quick_filter"])
    elif entry.get("without_uninitialized"):
        passes = [["--data-races", "--check-api"]]
        print("no --uninitialized for this file:", entry["without_uninitialized"])
    deadline = time.monotonic() + (QUICK_TIMEOUT if quick else entry["timeout"]) - 20
    failures, used, ran, messages, logs, seconds = [], Counter(), Counter(), 0, [], 0.0
    filters = entry["filter"] if isinstance(entry["filter"], list) else [entry["filter"]]
    if quick and len(filters) > 1:
        # separate_runs is about --uninitialized, which the quick pass leaves out: one process.
        filters = ["|".join("(" + f + ")" for f in filters)]
    if len(filters) > 1:
        print("each filter in its own process:", entry["separate_runs"])
    for bench_filter, p in [(f, p) for f in filters for p in passes]:
        with tempfile.TemporaryDirectory() as tmp:
            output, code, log_text, run, took = run_pass(gpu_bench, rel, entry, bench_filter, p, preload, oclgrind,
                                                         tmp, deadline)
        pass_ran, pass_messages = judge_pass(rel, entry, bench_filter, output, code, log_text, run, took, allowed,
                                             used, failures)
        ran.update(pass_ran)
        messages += pass_messages
        logs.append(log_text)
        seconds += took
    for k in entry.get("kernels", []):
        if not ran[k] and not (quick and k in entry.get("quick_unreached", {})):
            failures.append(f"kernel {k} did not run (the filter no longer reaches it?)")
    for a in allowed:
        if not used[id(a)]:
            print(f"note: allowed {a['kind']} in {a['kernel']} ({a['where'] or 'anywhere'}) was not seen this run")
    for f in failures:
        print("FAIL:", f)
    print(f"{rel}: {messages} messages, {sum(used.values())} allowed, {len(failures)} failures, {seconds:.1f} s")
    if failures and any(logs):
        kept_log = "oclgrind_" + re.sub(r"\W", "_", rel) + ".log"  # in the working directory
        with open(kept_log, "w") as f:
            f.write("\n".join(logs))
        print("Oclgrind's log:", os.path.abspath(kept_log))
    return 1 if failures else 0

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coverage", action="store_true")
    parser.add_argument("--quick", action="store_true", help="two work groups per launch, races and bounds only")
    parser.add_argument("--preload", help="the fill-as-write shim (a shared library)")
    parser.add_argument("gpu_bench", nargs="?")
    parser.add_argument("kernel_file", nargs="?", help="as under kernels/, e.g. l1/scan.cl")
    args = parser.parse_args()
    if args.coverage:
        return coverage()
    if not args.gpu_bench or not args.kernel_file:
        parser.error("GPU_BENCH and KERNEL_FILE are needed")
    return run_file(args.gpu_bench, args.kernel_file, args.preload, args.quick)


if __name__ == "__main__":
    sys.exit(main())
