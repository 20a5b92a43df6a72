# runfile.py: reads one gpu_bench JSON run into the rows of the store (runs, results, context).
# Refuses what is not a gpu-bench run with one line saying why (RunFileError, exit status 3).
"""One gpu_bench run file as rows.

A file of `--device=all` is one of several, one per device, each with its own context; a file of
`--benchmark_repetitions=N` has N iteration entries per benchmark (one result row each, numbered
in file order) and aggregate entries, which are skipped: the store keeps what was measured.
"""

import datetime
import gzip
import hashlib
import json
import os
import re
import zlib

import gbresults as gb

KNOWN_MAJOR_VERSIONS = ("0",)  # gpu_bench_version majors whose JSON this reader knows
KNOWN_TIME_UNITS = set(gb.TIME_UNIT_SECONDS)
# How the run was set up, as its context records it: kept together as the run's flags.
FLAG_KEYS = ("executable", "library_build_type", "cpu_scaling_enabled", "warmup_seconds", "num_cpus",
             "mhz_per_cpu", "host_busy_at_start", "device_rewarms")


class RunFileError(Exception):
    """A file that cannot be stored: corrupt, truncated, not gpu-bench's, of an unknown schema."""


class RunRows:
    """What one file puts in the store."""

    def __init__(self, run_id, run, results, context):
        self.id = run_id
        self.run = run          # dict: the runs row
        self.results = results  # tuples in RESULT_COLUMNS order
        self.context = context  # (key, text) pairs


RUN_COLUMNS = ("id", "date", "ingested_at", "source", "gpu_bench_version", "git_revision", "device",
               "driver_version", "device_fingerprint", "host", "size_class", "flags", "interrupted", "aborted")
RESULT_COLUMNS = ("run_id", "name", "repetition", "family", "metric", "value", "lower_is_better", "time_s",
                  "noise", "samples", "converged", "host_over_device", "error", "host_busy", "device_slow")


def _loads(text, path):
    try:  # bare NaN/Infinity (Google Benchmark's) are missing values; an overflow (1e999) is
        # read as inf, which every number below is checked against (gb.is_number)
        return json.loads(text, parse_constant=lambda _: None)
    except json.JSONDecodeError:
        pass
    try:  # a C++ stream's nan/inf as well: the slower lenient reader
        return gb.parse_lenient_json(text, path)
    except gb.InputError as err:
        raise RunFileError(f"{err} (corrupt or truncated)") from None


def utc_date(text):
    """An ISO 8601 date as UTC text that sorts in time order, or None when unreadable."""
    try:
        date = datetime.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    if date.tzinfo is None:
        date = date.replace(tzinfo=datetime.timezone.utc)
    return date.astimezone(datetime.timezone.utc).isoformat(timespec="seconds")


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")


def _listed(context, key):
    """Benchmark names of a context list gpu_bench writes as JSON text: [{"name", "reason"}]."""
    value = context.get(key)
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return set()
    if not isinstance(value, list):
        return set()
    return {item["name"] for item in value if isinstance(item, dict) and isinstance(item.get("name"), str)}


def _listed_as(key, names):
    """gpu_bench lists a benchmark by its name without Google Benchmark's /manual_time suffix."""
    return key in names or re.sub(r"/(manual_time|real_time)$", "", key) in names


def family(name):
    """L0/GlobalBandwidth/copy/... -> L0/GlobalBandwidth: what the dashboard filters by."""
    return "/".join(name.split("/")[:2])


def _number(value):
    return float(value) if gb.is_number(value) else None


def read(path):
    """The rows of one run file, or of one rank's run of a fleet file (FILE#rank=N); RunFileError
    when it cannot be stored."""
    try:
        base, selector = gb.split_run_spec(path)
    except gb.InputError as err:
        raise RunFileError(str(err)) from None
    raw, data = _read_data(base)
    try:
        run = gb.select_run(data, selector, os.path.basename(base))
    except gb.InputError as err:
        raise RunFileError(str(err)) from None
    if run is data:  # a plain run file
        return rows_of(data, hashlib.sha256(raw).hexdigest(), os.path.basename(base))
    label = "rank=" + run["context"]["fleet_rank"] + ",mode=" + run["context"]["fleet_mode"]
    return _fleet_rows(raw, label, run, base)


def read_all(path):
    """The rows of every run in a file: one for a run file, one per rank and mode for a fleet file."""
    raw, data = _read_data(path)
    if isinstance(data, dict) and data.get("format") == gb.FLEET_FORMAT:
        return [_fleet_rows(raw, label, run, path) for label, run in gb.fleet_runs(data)]
    return [rows_of(data, hashlib.sha256(raw).hexdigest(), os.path.basename(path))]


def _fleet_rows(raw, label, run, path):
    """One rank's run of a fleet file: stored as a run of its own device, its id the file's and the rank's."""
    return rows_of(run, hashlib.sha256(raw + b"#" + label.encode()).hexdigest(), f"{os.path.basename(path)}#{label}")


def _read_data(path):
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        raise RunFileError("no such file") from None
    except OSError as err:
        raise RunFileError(f"cannot read ({err.strerror})") from None
    if raw[:2] == b"\x1f\x8b":  # gzip, as docs/results keeps runs: the id is the JSON's hash either way
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error):
            raise RunFileError("not a complete gzip file (truncated?)") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RunFileError("not JSON (not UTF-8 text)") from None
    if not text.strip():
        raise RunFileError("empty file (truncated?)")
    return raw, _loads(text, os.path.basename(path))


def rows_of(data, run_id, source):
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise RunFileError('not a gpu-bench run (no "benchmarks" list: not Google Benchmark JSON)')
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    version = context.get("gpu_bench_version")
    if not isinstance(version, str) or not version:
        raise RunFileError("not a gpu-bench run (no gpu_bench_version in its context: "
                           "Google Benchmark JSON of another program?)")
    if version.split(".")[0] not in KNOWN_MAJOR_VERSIONS:
        raise RunFileError(f"unknown schema: gpu-bench {version}; this tools/history reads "
                           f"{', '.join(m + '.x' for m in KNOWN_MAJOR_VERSIONS)}")
    fingerprint = str(context.get("device_fingerprint") or "") or str(context.get("device") or "")
    if not fingerprint:
        raise RunFileError("unknown schema: neither device_fingerprint nor device in its context")
    busy, slow = _listed(context, "host_busy_benchmarks"), _listed(context, "slow_device_benchmarks")
    results, repetitions = [], {}
    for index, entry in enumerate(data["benchmarks"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise RunFileError(f"unknown schema: benchmarks[{index}] has no name")
        if entry.get("run_type") == "aggregate":
            continue  # mean/median/stddev/cv of the repetitions stored next to it
        if entry.get("time_unit", "ns") not in KNOWN_TIME_UNITS:
            raise RunFileError(f"unknown schema: benchmarks[{index}] has time_unit {entry.get('time_unit')!r}")
        key = gb.entry_key(entry)
        repetition = repetitions.get(key, 0)
        repetitions[key] = repetition + 1
        error = str(entry.get("error_message") or "error") if entry.get("error_occurred") else None
        metric = entry.get("primary_metric") if isinstance(entry.get("primary_metric"), str) else None
        if metric is None:  # files from before gpu_bench declared one
            metric = next((m for m in gb.PRIMARY_FALLBACK if gb.entry_value(entry, m) is not None), None)
        value = None if error or metric is None else gb.entry_value(entry, metric)
        converged = _number(entry.get("converged"))
        results.append((run_id, key, repetition, family(key), metric, value, int(metric == gb.REAL_TIME),
                        None if error else gb.entry_value(entry, gb.REAL_TIME), _number(entry.get("noise")),
                        _number(entry.get("samples")), None if converged is None else int(converged),
                        _number(entry.get("host_over_device")), error,
                        int(_listed_as(key, busy)), int(_listed_as(key, slow))))
    date = utc_date(context.get("date")) or now_utc()[:19] + "+00:00"
    flags = {k: context[k] for k in FLAG_KEYS if k in context}
    run = {"id": run_id, "date": date, "ingested_at": now_utc(), "source": source,
           "gpu_bench_version": version, "git_revision": _text(context.get("git_revision")),
           "device": _text(context.get("device")), "driver_version": _text(context.get("driver_version")),
           "device_fingerprint": fingerprint, "host": _text(context.get("host_name")),
           "size_class": _text(context.get("size_class")), "flags": json.dumps(flags, sort_keys=True),
           "interrupted": _text(context.get("interrupted")), "aborted": _text(context.get("aborted"))}
    pairs = [(run_id, k, v if isinstance(v, str) else json.dumps(v)) for k, v in context.items()]
    return RunRows(run_id, run, results, pairs)


def _text(value):
    return None if value is None else str(value)


def ingest(store, rows, tags=()):
    """Store one run in one transaction: True when stored, False when it was already there."""
    with store.errors():
        store.begin()
        try:
            placeholders = ", ".join("?" * len(RUN_COLUMNS))
            cur = store.execute(f"INSERT INTO runs ({', '.join(RUN_COLUMNS)}) VALUES ({placeholders}) "
                                "ON CONFLICT (id) DO NOTHING", [rows.run[c] for c in RUN_COLUMNS])
            stored = cur.rowcount == 1
            if stored:
                store.insert_many(f"INSERT INTO results ({', '.join(RESULT_COLUMNS)}) "
                                  f"VALUES ({', '.join('?' * len(RESULT_COLUMNS))})", rows.results)
                store.insert_many("INSERT INTO context (run_id, key, value) VALUES (?, ?, ?)", rows.context)
            for tag in tags:
                store.execute("INSERT INTO tags (run_id, tag) VALUES (?, ?) ON CONFLICT DO NOTHING", (rows.id, tag))
            store.commit()
        except BaseException:
            store.rollback()
            raise
    return stored
