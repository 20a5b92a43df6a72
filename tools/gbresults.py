# gbresults.py: code shared by tools/gate, tools/report and tools/export.
# Reads gpu_bench's Google Benchmark JSON (tolerating bare NaN/Infinity), groups entries per benchmark, judges changes.
"""Shared reading, grouping, judging and formatting of gpu_bench results.

A run file is Google Benchmark 1.7.1 JSON: {"context": {...}, "benchmarks": [...]}.
Entries of one benchmark (its repetitions and aggregates) share a "run_name";
that name is the stable key every tool matches on.  Metrics per benchmark are
"time" (real_time in seconds; lower is better) and every counter whose name
ends in "_per_second" (rates; higher is better).  tools/gate instead follows each
benchmark's declared "primary_metric" (see primary_metric() below).
"""

import gzip
import json
import math
import os
import re
import statistics
import sys
import tempfile
import zlib

TIME = "time"  # our name for real_time, always held in seconds
TIME_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
RATE_SUFFIX = "_per_second"
REAL_TIME = "real_time"  # a primary metric that is lower-is-better; every other one is a rate
# The primary metric of a file written before gpu_bench declared one: the first of these both runs have.
PRIMARY_FALLBACK = ("flop_per_second", "bytes_per_second", "items_per_second", REAL_TIME)

# Verdicts of one metric comparison.
REGRESSION = "REGRESSION"
IMPROVED = "improved"
UNCHANGED = "unchanged"
INCONCLUSIVE = "inconclusive"  # beyond the threshold, but not significant


class InputError(Exception):
    """Bad input or a refused comparison: the tools print it on one line and exit 2."""


# ---------------------------------------------------------------- reading

# Outside strings JSON only has numbers, true, false and null, so any of these
# bare tokens is a non-finite double written by Google Benchmark ("NaN",
# "-Infinity") or by a C++ stream ("nan", "-inf").  Strings are matched first
# so that a benchmark named "nan" is left alone.
_BARE_NONFINITE = re.compile(r'"(?:[^"\\]|\\.)*"|[-+]?(?:NaN|nan|Infinity|inf)\b')


def _nonfinite_to_null(match):
    token = match.group(0)
    return token if token.startswith('"') else "null"


def _finite(value):
    """Replace non-finite floats (e.g. from 1e999) by None, recursively: missing data."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value


def parse_lenient_json(text, what):
    """Parse JSON text in which bare NaN/Infinity stand for missing values."""
    text = _BARE_NONFINITE.sub(_nonfinite_to_null, text)
    try:
        return _finite(json.loads(text))
    except json.JSONDecodeError as err:
        raise InputError(f"{what}: not JSON ({err.msg} at line {err.lineno})") from None


def load_json(path):
    """A JSON file, or a gzip-compressed one (name ending in .gz), as kept under docs/results/."""
    try:
        if str(path).endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                text = handle.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (EOFError, gzip.BadGzipFile, zlib.error):
        raise InputError(f"{path}: not a complete gzip file") from None
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not JSON (not UTF-8 text)") from None
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror})") from None
    return parse_lenient_json(text, path)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def is_rate(metric):
    return metric.endswith(RATE_SUFFIX)


def is_verification_error(message):
    """gpu_bench starts the message of a wrong result this way; other errors are OpenCL or setup trouble."""
    return message.lower().startswith("verification failed")


def entry_metrics(entry):
    """The metrics of one JSON entry: time in seconds and the rate counters."""
    metrics = {}
    scale = TIME_UNIT_SECONDS.get(entry.get("time_unit", "ns"))
    if scale is not None and is_number(entry.get("real_time")):
        metrics[TIME] = entry["real_time"] * scale
    for name, value in entry.items():
        if is_rate(name) and is_number(value):
            metrics[name] = float(value)
    return metrics


def entry_value(entry, metric):
    """One metric of one entry: "real_time" in seconds, any other counter as written; None when absent."""
    if metric == REAL_TIME:
        scale = TIME_UNIT_SECONDS.get(entry.get("time_unit", "ns"))
        value = entry.get(REAL_TIME)
        return value * scale if scale is not None and is_number(value) else None
    value = entry.get(metric)
    return float(value) if is_number(value) else None


def entry_key(entry):
    """The stable name of the benchmark an entry belongs to (shared by its repetitions)."""
    if isinstance(entry.get("run_name"), str) and entry["run_name"]:
        return entry["run_name"]
    name = entry["name"]
    suffix = "_" + str(entry.get("aggregate_name", ""))
    if entry.get("run_type") == "aggregate" and name.endswith(suffix):
        return name[: -len(suffix)]
    return name


class Bench:
    """All entries of one benchmark in one run."""

    def __init__(self, key):
        self.key = key
        self.level = key.split("/", 1)[0]
        self.samples = {}     # metric -> per-repetition values (iteration entries)
        self.aggregates = {}  # aggregate name ("mean", "median", "stddev") -> {metric: value}
        self.repetitions = 1
        self.errors = []      # error messages of errored entries
        self.entries = []     # the iteration entries as read (not errored), for the gate
        self.aggregate_entries = {}  # aggregate name -> that aggregate's entry as read

    def add(self, entry):
        if is_number(entry.get("repetitions")):
            self.repetitions = max(self.repetitions, int(entry["repetitions"]))
        if entry.get("error_occurred"):
            self.errors.append(str(entry.get("error_message") or "error"))
            return
        metrics = entry_metrics(entry)
        if entry.get("run_type") == "aggregate":
            # "cv" is a fraction, not a time: never use it as an estimate.
            self.aggregates[str(entry.get("aggregate_name"))] = metrics
            self.aggregate_entries[str(entry.get("aggregate_name"))] = entry
            return
        self.entries.append(entry)
        for metric, value in metrics.items():
            self.samples.setdefault(metric, []).append(value)

    @property
    def errored(self):
        return bool(self.errors)

    @property
    def verification_failed(self):
        return any(map(is_verification_error, self.errors))

    def metrics(self):
        """Metric names, time first, then the rates in name order."""
        names = set(self.samples)
        for agg in ("mean", "median"):
            names.update(self.aggregates.get(agg, {}))
        return sorted(names, key=lambda m: (m != TIME, m))

    def values(self, metric):
        return self.samples.get(metric, [])

    def estimate(self, metric):
        """Point estimate: the median of the repetitions, else the median/mean aggregate."""
        values = self.values(metric)
        if values:
            return statistics.median(values)
        for agg in ("median", "mean"):
            value = self.aggregates.get(agg, {}).get(metric)
            if value is not None:
                return value
        return None

    def spread(self, metric):
        """(min, max) over the repetitions, or None with fewer than two."""
        values = self.values(metric)
        return (min(values), max(values)) if len(values) >= 2 else None

    def declared_primary(self):
        """The "primary_metric" the entries name (gpu_bench writes it since 0.1.0), or None in older files."""
        for entry in self.entries + list(self.aggregate_entries.values()):
            name = entry.get("primary_metric")
            if isinstance(name, str) and name:
                return name
        return None

    def metric_values(self, metric):
        """Positive values of one metric (a counter, or "real_time" in seconds) over the repetitions."""
        values = (entry_value(entry, metric) for entry in self.entries)
        return [v for v in values if v is not None and v > 0]

    def aggregate_value(self, aggregate, metric):
        entry = self.aggregate_entries.get(aggregate)
        return None if entry is None else entry_value(entry, metric)

    def has_metric(self, metric):
        if self.metric_values(metric):
            return True
        value = self.aggregate_value("median", metric) or self.aggregate_value("mean", metric)
        return value is not None and value > 0

    def counter(self, name):
        """The median of a descriptive counter (noise, samples, host_over_device) over the repetitions."""
        values = [float(e[name]) for e in self.entries if is_number(e.get(name))]
        return statistics.median(values) if values else None

    def summary_stats(self, metric):
        """(mean, stddev, n) from the aggregates, for files written with aggregates only."""
        mean = self.aggregates.get("mean", {}).get(metric)
        stddev = self.aggregates.get("stddev", {}).get(metric)
        if mean is None or stddev is None or self.repetitions < 2:
            return None
        return mean, stddev, self.repetitions


class Run:
    """One gpu_bench JSON file."""

    def __init__(self, path, context, benches):
        self.path = path
        self.context = context
        self.benches = benches  # key -> Bench, in file order

    @property
    def fingerprint(self):
        return str(self.context.get("device_fingerprint") or "") or None

    @property
    def device(self):
        return str(self.context.get("device") or "unknown device")

    @property
    def device_id(self):
        """What identifies the device for grouping: the fingerprint, else the device name."""
        return self.fingerprint or self.device

    @property
    def name(self):
        return os.path.basename(self.path)

    def context_float(self, key):
        try:
            value = float(self.context.get(key))
        except (TypeError, ValueError):
            return None
        return value if math.isfinite(value) else None


FLAG_LISTS = (("host_busy_benchmarks", "host busy"), ("slow_device_benchmarks", "device below its steady rate"),
              ("memory_pressure_benchmarks", "memory pressure"), ("device_condition_benchmarks", "device throttled or shared"))


def context_list(context, key):
    """A list gpu_bench writes into its context as JSON text (the flagged benchmarks, the skips); [] when
    absent or not a list."""
    try:
        items = json.loads(context.get(key) or "[]")
    except (TypeError, ValueError):
        return []
    return items if isinstance(items, list) else []


def context_object(context, key):
    """An object gpu_bench writes into its context as JSON text (gpu_memory_health); {} when absent or
    not an object."""
    try:
        value = json.loads(context.get(key) or "{}")
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def flagged_benchmarks(context):
    """{benchmark key: why} of the benchmarks a run's context names as measured while the host was
    busy or the device below its steady rate (gpu_bench lists their names without /manual_time)."""
    out = {}
    for key, why in FLAG_LISTS:
        for item in context_list(context, key):
            # {"name": ..., "reason": ...} as gpu_bench writes them, or a bare name
            name = item.get("name") if isinstance(item, dict) else item
            if not isinstance(name, str):
                continue
            reason = item.get("reason") if isinstance(item, dict) and key == "device_condition_benchmarks" else None
            for k in (name, name + "/manual_time"):
                out[k] = ", ".join(dict.fromkeys(filter(None, (out.get(k), reason or why))))
    return out


CLOCK_DIP = 0.97  # an SM clock this share of the run's usual one or below: another operating point


def clock_dips(run):
    """{benchmark key: why} of the benchmarks whose SM clock (sm_clock_mhz, read as sampling ended) sits
    3% or more below the run's median SM clock: a GPU that stepped its clock down (heat, power) ran
    them at another operating point, which gpu_bench flags only below 90% of the steady clock."""
    clocks = {key: bench.counter("sm_clock_mhz") for key, bench in run.benches.items()}
    clocks = {key: c for key, c in clocks.items() if c is not None and c > 0}
    if len(clocks) < 3:
        return {}
    usual = statistics.median(clocks.values())
    return {key: f"SM clock {c:.0f} MHz, {100 * (1 - c / usual):.0f}% below the run's median {usual:.0f} MHz"
            for key, c in clocks.items() if c <= CLOCK_DIP * usual}


FLEET_FORMAT = "gpu-bench-fleet"  # gpu_bench_mpi's file: every rank's run (docs/FLEET.md)


def split_run_spec(path):
    """'fleet.json#rank=1,mode=alone' -> ('fleet.json', {'rank': '1', 'mode': 'alone'}); a plain path
    -> (path, {}). A '#' that is part of an existing file's name stays in the name."""
    if "#" not in str(path) or os.path.exists(path):
        return path, {}
    base, _, spec = str(path).rpartition("#")
    selector = {}
    for part in spec.split(","):
        key, eq, value = part.partition("=")
        if not eq or key not in ("rank", "mode"):
            raise InputError(f"{path}: expected FILE#rank=N[,mode=M] after '#'")
        selector[key] = value
    return base, selector


def fleet_runs(data):
    """Each rank's run of a fleet file: (label, run), the run's context naming its rank, host and mode."""
    runs = []
    for entry in data.get("runs") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("run"), dict):
            continue  # a rank that wrote nothing (died before its file)
        run = dict(entry["run"])
        context = dict(run.get("context") or {})
        context.update(fleet_rank=str(entry.get("rank")), fleet_host=str(entry.get("host")),
                       fleet_mode=str(entry.get("mode")), fleet_device_index=str(entry.get("device_index")))
        run["context"] = context
        runs.append((f"rank={entry.get('rank')},mode={entry.get('mode')}", run))
    return runs


def select_run(data, selector, path):
    """The run a selector names in a fleet file, or data itself for a plain run file."""
    if not (isinstance(data, dict) and data.get("format") == FLEET_FORMAT):
        if selector:
            raise InputError(f"{path}: '#{','.join(f'{k}={v}' for k, v in selector.items())}' names a rank, "
                             "but this is not a fleet file")
        return data
    runs = fleet_runs(data)
    picked = [run for label, run in runs
              if all(run["context"].get("fleet_" + k) == v for k, v in selector.items())]
    modes = {run["context"]["fleet_mode"] for _, run in runs}
    if len(picked) > 1 and "mode" not in selector and "concurrent" in modes:
        picked = [run for run in picked if run["context"]["fleet_mode"] == "concurrent"]
    if len(picked) != 1:
        raise InputError(f"{path}: a fleet file: name one run as FILE#rank=N[,mode=M] "
                         f"(runs: {', '.join(label for label, _ in runs) or 'none'})")
    return picked[0]


def load_run(path):
    """Read one run file, or one rank's run of a fleet file (FILE#rank=N); InputError when it is not
    Google Benchmark JSON."""
    path, selector = split_run_spec(path)
    data = select_run(load_json(path), selector, path)
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise InputError(f'{path}: no "benchmarks" list (not Google Benchmark JSON output)')
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    benches = {}
    for index, entry in enumerate(data["benchmarks"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise InputError(f"{path}: benchmarks[{index}] has no name")
        key = entry_key(entry)
        benches.setdefault(key, Bench(key)).add(entry)
    return Run(path, context, benches)


def primary_metric(base, cur):
    """The one metric the gate compares for a benchmark, or None when the two runs share no usable one.

    CURRENT's declared primary_metric, else BASELINE's, else (files from before gpu_bench declared one)
    the first of flop_per_second, bytes_per_second, items_per_second and real_time, whichever both
    runs have values for.
    """
    for metric in (cur.declared_primary(), base.declared_primary()) + PRIMARY_FALLBACK:
        if metric and base.has_metric(metric) and cur.has_metric(metric):
            return metric
    return None


def lower_is_better(metric):
    return metric == REAL_TIME


# ---------------------------------------------------------------- judging

class Change:
    """The comparison of one metric of one benchmark between two runs."""

    def __init__(self, key, metric, base, cur, pvalue, test, verdict):
        self.key, self.metric = key, metric
        self.base, self.cur = base, cur
        self.pvalue, self.test, self.verdict = pvalue, test, verdict

    @property
    def change(self):
        """Relative change of the value itself, as people read it (+10% = value grew)."""
        return self.cur / self.base - 1.0

    @property
    def slowdown(self):
        """How much slower, uniformly for times and rates: +10% = took 1.1x as long."""
        ratio = self.base / self.cur if is_rate(self.metric) else self.cur / self.base
        return ratio - 1.0


def significance(base, cur, metric):
    """(p-value or None, how it was obtained) for the difference of one metric."""
    x, y = base.values(metric), cur.values(metric)
    if len(x) >= 2 and len(y) >= 2:
        from scipy.stats import mannwhitneyu  # as compare.py does; imported late: exports don't need scipy
        return float(mannwhitneyu(x, y, alternative="two-sided").pvalue), f"U test {len(x)}v{len(y)}"
    sx, sy = base.summary_stats(metric), cur.summary_stats(metric)
    if sx and sy:
        return welch_pvalue(sx, sy), f"Welch t {sx[2]}v{sy[2]}"
    # One value on a side has no spread to test against: the threshold alone decides.
    return None, "single run"


def welch_pvalue(sx, sy):
    """Welch's t-test from (mean, stddev, n): the files only hold aggregates."""
    from scipy.stats import ttest_ind_from_stats
    p = ttest_ind_from_stats(sx[0], sx[1], sx[2], sy[0], sy[1], sy[2], equal_var=False).pvalue
    if not math.isfinite(p):  # both stddevs zero: any difference is exact
        return 1.0 if sx[0] == sy[0] else 0.0
    return float(p)


def compare_metric(base, cur, metric, threshold, alpha):
    """A Change for one metric, or None when either side has no usable value."""
    b, c = base.estimate(metric), cur.estimate(metric)
    if b is None or c is None or b <= 0 or c <= 0:
        return None
    pvalue, test = significance(base, cur, metric)
    significant = pvalue is None or pvalue < alpha
    change = Change(base.key, metric, b, c, pvalue, test, UNCHANGED)
    if change.slowdown > threshold:
        change.verdict = REGRESSION if significant else INCONCLUSIVE
    elif change.slowdown < -threshold:
        change.verdict = IMPROVED if significant else INCONCLUSIVE
    return change


def compare_benches(base, cur, threshold, alpha):
    """Changes of every metric the two share (time and each rate)."""
    current = set(cur.metrics())
    shared = [m for m in base.metrics() if m in current]
    changes = (compare_metric(base, cur, m, threshold, alpha) for m in shared)
    return [c for c in changes if c is not None]


class GateResult:
    """Everything the gate decides about two runs."""

    def __init__(self):
        self.changes = []           # Change, for benchmarks usable in both runs
        self.missing = []           # keys in the baseline only
        self.new = []               # keys in the current run only (not errored)
        self.errored = []           # (key, message) errored in the current run
        self.errored_baseline = []  # (key, message) errored in the baseline only

    @property
    def regressions(self):
        return [c for c in self.changes if c.verdict == REGRESSION]

    @property
    def verification_failures(self):
        return [(k, m) for k, m in self.errored if is_verification_error(m)]


def compare_runs(base, cur, threshold, alpha):
    result = GateResult()
    for key, bench in cur.benches.items():
        if bench.errored:
            result.errored.append((key, bench.errors[0]))
        elif key not in base.benches:
            result.new.append(key)
    for key, old in base.benches.items():
        bench = cur.benches.get(key)
        if bench is None:
            result.missing.append(key)
        elif old.errored and not bench.errored:
            result.errored_baseline.append((key, old.errors[0]))
        elif not bench.errored:
            result.changes.extend(compare_benches(old, bench, threshold, alpha))
    return result


# ---------------------------------------------------------------- formatting

_RATE_UNITS = {"bytes_per_second": "B/s", "flop_per_second": "FLOP/s", "items_per_second": "items/s"}


def rate_unit(metric):
    return _RATE_UNITS.get(metric, metric[: -len(RATE_SUFFIX)] + "/s")


def fmt_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(seconds) >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_si(value):
    for prefix, scale in (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}"
    return f"{value:.3g} "


def fmt_value(metric, value):
    if value is None:
        return "-"
    if metric == TIME:
        return fmt_time(value)
    return fmt_si(value) + rate_unit(metric)


def fmt_pct(fraction):
    return f"{fraction * 100:+.1f}%"


def metric_label(metric):
    return "time" if metric == TIME else metric


# ---------------------------------------------------------------- names

# The one rename of 2026-11 (the naming grammar, CHANGELOG.md): (old, new) regular
# expressions over a benchmark name without its /manual_time; the first rule that matches applies.
RENAMES_2026_11 = [
    (r"^L0/Atomics/(global|local)/int/", r"L0/Atomics/\1/type:int/method:native/"),
    (r"^L0/Atomics/(global|local)/float_cas/", r"L0/Atomics/\1/type:float/method:cas/"),
    (r"^L0/Atomics/(global|local)/float_native/", r"L0/Atomics/\1/type:float/method:native/"),
    (r"^L0/Compute/wg_sweep/float/width:4/size:(\d)/wg:([^/]+)$", r"L0/Compute/mad/type:float/width:4/wg:\2/size:\1"),
    (r"^L0/Compute/int8_dot4/width:(\d+)/size:(\d)$", r"L0/Compute/dot4/type:int8/width:\1/wg:256/size:\2"),
    (r"^L0/Compute/(\w+)/width:(\d+)/size:(\d)$", r"L0/Compute/mad/type:\1/width:\2/wg:256/size:\3"),
    (r"^L0/GlobalBandwidth/copy_wg_sweep/type:float4/size:(\d)/wg:([^/]+)$",
     r"L0/GlobalBandwidth/copy/type:float4/access:coalesced/wg:\2/size:\1"),
    (r"^L0/GlobalBandwidth/(?!.*/wg:)(.*)/size:(\d)$", r"L0/GlobalBandwidth/\1/wg:256/size:\2"),
    (r"^L0/ImageRead/rgba_float/size:(\d)$", r"L0/ImageRead/nearest/type:rgba_float/wg:16x16/size:\1"),
    (r"^L0/ImageRead/rgba_float_wg_sweep/size:(\d)/wg:([^/]+)$", r"L0/ImageRead/nearest/type:rgba_float/wg:\2/size:\1"),
    (r"^L0/Latency/pointer_chase/", r"L0/MemoryHierarchy/pointer_chase/"),
    (r"^L0/CacheBandwidth/read/", r"L0/MemoryHierarchy/read/"),
    (r"^L0/Roofline/float4/", r"L0/Roofline/fma/type:float4/"),
    (r"^L0/CompileTime/(short|long)/(cold|again)/", r"L0/CompileTime/\1/build:\2/"),
    (r"^L0/Transfer/(write|read)/(pageable|pinned|map)/", r"L0/Transfer/\1/route:\2/"),
    (r"^(L1/BoxFilter/.*)/size:(\d)/(.*)$", r"\1/\3/size:\2"),
    (r"^(L1/Transpose/\w+)/size:(\d)/wg:([^/]+)$", r"\1/wg:\3/size:\2"),
    (r"^L1/FFT/stockham_wg_sweep/(.*)/size:(\d)/wg:([^/]+)$", r"L1/FFT/stockham/\1/wg:\3/size:\2"),
    (r"^L1/FFT2D/(rows_cols_wide|rows_transposed|rows_cols_split)_sweep/", r"L1/FFT2D/\1/"),
    (r"^L1/Reduction/(\w+)/op:(\w+)/type:(\w+)/", r"L1/Reduction/\1/type:\3/op:\2/"),
    (r"^L2/StableFluids/jacobi:(\d+)/", r"L2/StableFluids/jacobi/iterations:\1/"),
]


def renamed_2026_11(name):
    """A benchmark name (or run_name, with any /manual_time or aggregate suffix) in today's grammar."""
    suffix = ""
    match = re.match(r"^(.*?)((/manual_time|/real_time)?(_\w+)?)$", name)
    head, suffix = match.group(1), match.group(2)
    if not re.search(r"/size:\d", head):  # a suffix the pattern above took for part of the name
        head, suffix = name, ""
    for old, new in RENAMES_2026_11:
        if re.search(old, head):
            return re.sub(old, new, head) + suffix
    return name


# ---------------------------------------------------------------- output

def write_atomic(path, text):
    """Write text to path via a temporary file and a rename: never left half-written."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    except OSError as err:  # name the file asked for, not the temporary one
        raise OSError(err.errno, err.strerror, path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; results are meant to be shared
        os.replace(tmp, path)
    except OSError as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OSError(err.errno, err.strerror, path) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def run_cli(main, prog):
    """Run main(); bad input becomes one line on stderr and exit status 2."""
    try:
        status = main()
    except InputError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        status = 2
    except OSError as err:  # e.g. the output directory does not exist
        print(f"{prog}: error: {err.filename or ''}: {err.strerror}", file=sys.stderr)
        status = 2
    sys.exit(status)
