# against.py: a run against the stored history of its device, with tools/gate's test and verdicts.
# The history side holds one value per stored run (a side with repetitions); flagged benchmarks are unreliable.
"""Gate a run against history.

The history of a benchmark is its value in each selected run of the same device fingerprint
(the median of a run's repetitions), leaving out errored values and those the run flagged (host
busy, device below its steady rate, not converged).  tools/gate's Side makes of those N values a
side with repetitions: its centre is the mean of their logs and its variance that of the logs
over N.  The same N values are the best estimate of the benchmark's run-to-run spread, which a
single current run cannot show: the current side's variance is at least that spread (the
variance of one new draw), so the test is a prediction test of one run against N, with Welch's
degrees of freedom, plus tools/gate's floor.  Then Benjamini-Hochberg and the verdicts, as
tools/gate has them; a benchmark the current run flagged is "unreliable: <why>" instead.
"""

import importlib.machinery
import importlib.util
import os
import statistics

import gbresults as gb

from . import runfile

TOOLS = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
UNRELIABLE = "unreliable"
MARKDOWN_ROOM = 64000  # bytes of the whole comment; GitHub refuses comments over 65,536 characters
RESULT_FIELDS = "r.run_id, r.name, r.metric, r.value, r.noise, r.samples, r.converged, r.host_over_device, " \
                "r.error, r.host_busy, r.device_slow"


def load_gate():
    """tools/gate as a module (it is a script without .py)."""
    loader = importlib.machinery.SourceFileLoader("gpu_bench_gate", os.path.join(TOOLS, "gate"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Against:
    """What to compare with: last:N, a date range FROM..TO (either end may be left out), or tag:NAME."""

    def __init__(self, text):
        self.text = text
        self.last = self.tag = self.start = self.end = None
        if text.startswith("last:") and text[5:].isdigit() and int(text[5:]) >= 1:
            self.last = int(text[5:])
        elif text.startswith("tag:") and len(text) > 4:
            self.tag = text[4:]
        elif ".." in text:
            start, end = text.split("..", 1)
            self.start = _day(start, "T00:00:00") if start else None
            self.end = _day(end, "T23:59:59") if end else None
            if (start and self.start is None) or (end and self.end is None):
                raise ValueError(f"--against {text}: dates are YYYY-MM-DD or ISO 8601")
        else:
            raise ValueError(f"--against {text}: expected last:N (N >= 1), FROM..TO (dates) or tag:NAME")


def _day(text, time_of_day):
    return runfile.utc_date(text + time_of_day if len(text) == 10 else text)


def history_ids(store, fingerprint, against, current_id, current_date):
    """(run id, date, revision) of the history runs, newest first."""
    sql = "SELECT id, date, git_revision FROM runs WHERE device_fingerprint = ? AND id <> ?"
    params = [fingerprint, current_id]
    if against.tag is not None:
        sql += " AND id IN (SELECT run_id FROM tags WHERE tag = ?)"
        params.append(against.tag)
    if against.start is not None:
        sql += " AND date >= ?"
        params.append(against.start)
    if against.end is not None:
        sql += " AND date <= ?"
        params.append(against.end)
    if against.last is not None:
        sql += " AND date <= ? ORDER BY date DESC, ingested_at DESC LIMIT ?"
        params += [current_date, against.last]
    else:
        sql += " ORDER BY date DESC, ingested_at DESC"
    return store.query(sql, params)


def flag_reason(busy, slow, converged):
    reasons = [why for why, flagged in (("host busy", busy), ("device below its steady rate", slow),
                                         ("not converged", converged == 0)) if flagged]
    return ", ".join(reasons) or None


def entry(name, metric, value, noise, samples, converged, hod, error):
    """A Google Benchmark entry as gbresults reads it, from stored columns."""
    if error is not None:
        return {"name": name, "run_name": name, "error_occurred": True, "error_message": error}
    out = {"name": name, "run_name": name, "run_type": "iteration", "primary_metric": metric, "time_unit": "s"}
    if metric is not None and value is not None:
        out[metric] = value  # real_time in s as well
    for key, number in (("noise", noise), ("samples", samples), ("converged", converged), ("host_over_device", hod)):
        if number is not None:
            out[key] = number
    return out


class Current:
    """The run under test as a gbresults.Run, with the reason each flagged benchmark is unreliable."""

    def __init__(self, run_id, run, rows):
        self.id, self.date = run_id, run["date"]
        self.fingerprint = run["device_fingerprint"]
        context = {"device": run["device"], "device_fingerprint": self.fingerprint}
        self.run = gb.Run(run.get("source") or run_id, context, {})
        self.flagged = {}
        for name, metric, value, noise, samples, converged, hod, error, busy, slow in rows:
            self.run.benches.setdefault(name, gb.Bench(name)).add(
                entry(name, metric, value, noise, samples, converged, hod, error))
            why = flag_reason(busy, slow, converged)
            if why and error is None:
                self.flagged.setdefault(name, why)

    @classmethod
    def from_file(cls, rows):
        cols = {c: i for i, c in enumerate(runfile.RESULT_COLUMNS)}
        picked = [(r[cols["name"]], r[cols["metric"]], r[cols["value"]], r[cols["noise"]], r[cols["samples"]],
                   r[cols["converged"]], r[cols["host_over_device"]], r[cols["error"]], r[cols["host_busy"]],
                   r[cols["device_slow"]]) for r in rows.results]
        return cls(rows.id, rows.run, picked)

    @classmethod
    def from_store(cls, store, run_id):
        found = store.query("SELECT id, date, device, device_fingerprint, source FROM runs WHERE id = ?", (run_id,))
        if not found:
            return None
        rid, date, device, fingerprint, source = found[0]
        rows = store.query("SELECT name, metric, value, noise, samples, converged, host_over_device, error, "
                           "host_busy, device_slow FROM results WHERE run_id = ? ORDER BY name, repetition", (rid,))
        return cls(rid, {"date": date, "device": device, "device_fingerprint": fingerprint, "source": source}, rows)


def history_run(store, ids, device):
    """A gbresults.Run with one iteration entry per stored run for each benchmark (their medians);
    its flagged_values counts the values left out as flagged."""
    per = {}  # (name) -> {run_id: [values]}, plus the counters of the last entry seen
    counters = {}
    if ids:
        marks = ", ".join("?" * len(ids))
        rows = store.query(f"SELECT {RESULT_FIELDS} FROM results r WHERE r.run_id IN ({marks})", list(ids))
    else:
        rows = []
    flagged = 0
    for run_id, name, metric, value, noise, samples, converged, hod, error, busy, slow in rows:
        if error is not None or value is None or value <= 0:
            continue
        if flag_reason(busy, slow, converged):
            flagged += 1
            continue
        per.setdefault(name, {}).setdefault(run_id, []).append(value)
        counters.setdefault(name, {}).setdefault(run_id, (metric, noise, samples, converged, hod))
    run = gb.Run("history", {"device": device}, {})
    for name in sorted(per):
        bench = gb.Bench(name)
        for run_id, values in per[name].items():
            metric, noise, samples, converged, hod = counters[name][run_id]
            bench.add(entry(name, metric, statistics.median(values), noise, samples, converged, hod, None))
        run.benches[name] = bench
    run.flagged_values = flagged
    return run


def compare(gate, hist, current, args):
    """tools/gate's Result for CURRENT against the history side, with unreliable benchmarks judged so."""
    result = gate.Result()
    cur = current.run
    for key, bench in cur.benches.items():
        if bench.errored:
            result.errored.append((key, bench.errors[0]))
        elif key not in hist.benches:
            result.new.append(key)
    for key, old in hist.benches.items():
        bench = cur.benches.get(key)
        if bench is None:
            result.missing.append(key)
        elif not bench.errored:
            metric = gb.primary_metric(old, bench)
            if metric is None:
                result.no_metric.append(key)
                continue
            base_side, cur_side = gate.Side(old, metric), gate.Side(bench, metric)
            if base_side.repeated and base_side.var * base_side.reps > cur_side.var:
                # One new run varies from the others as much as they vary among themselves.
                cur_side.var, cur_side.df = base_side.var * base_side.reps, base_side.df
            result.comparisons.append(_comparison_class(gate)(key, metric, base_side, cur_side, args))
    pvalues = [c.pvalue for c in result.comparisons]
    gate.set_detectable(result.comparisons, args)
    for comparison, q in zip(result.comparisons, gate.benjamini_hochberg(pvalues)):
        comparison.qvalue = q
        comparison.judge(args)
        why = current.flagged.get(comparison.key)
        if why:
            comparison.verdict = f"{UNRELIABLE}: {why}"
    result.comparisons.sort(key=lambda c: (rank(gate, c.verdict), -max(c.slowdown, c.speedup)))
    return result


def _evidence(self):
    history = f"spread of {self.base.reps} runs" if self.base.repeated else f"1 run, {self.base.describe()}"
    return f"{history} / {self.cur.describe()}" + (", launch-bound" if self.launch_bound else "")


def _comparison_class(gate):
    """tools/gate's Comparison, its evidence naming the history."""
    return type("HistoryComparison", (gate.Comparison,), {"evidence": property(_evidence)})


def rank(gate, verdict):
    """Sort order: tools/gate's, with unreliable benchmarks just before the unchanged ones."""
    if verdict.startswith(UNRELIABLE):
        return len(gate.ORDER) - 1
    index = gate.ORDER.index(verdict)
    return index + (1 if verdict == gate.gb.UNCHANGED else 0)


def unreliable(result):
    return [c for c in result.comparisons if c.verdict.startswith(UNRELIABLE)]


def counts(gate, result):
    return gate.counts(result)  # its verdicts include the unreliable ones


def markdown(gate, result, cur_run, args, reasons, described):
    """tools/gate's pull-request comment, with the history described and the unreliable benchmarks listed."""
    text = gate.markdown(result, cur_run, args, reasons)
    text = text.replace(gate.counts(result) + ".", f"{counts(gate, result)}.\n\nHistory: {described}.", 1)
    text = text.replace("### gpu-bench gate:", "### gpu-bench gate against history:", 1)
    head, _, summary = text.rstrip("\n").rpartition("\n")
    flagged = unreliable(result)
    if not flagged:
        return text
    lines = [f"#### Unreliable: flagged by the run ({len(flagged)})", ""]
    # tools/gate keeps its comment within MARKDOWN_LIMIT; this section gets what is left below GitHub's 65,536.
    room = MARKDOWN_ROOM - len((head + summary).encode("utf-8")) - 200
    shown = 0
    for c in flagged:
        item = gate.md_item(c.key, c.verdict[len(UNRELIABLE) + 2:])
        room -= len(item.encode("utf-8")) + 1
        if room < 0:
            break
        lines.append(item)
        shown += 1
    if shown < len(flagged):
        lines += ["", gate.more(len(flagged) - shown)]
    return head + "\n" + "\n".join(lines) + "\n\n" + summary + "\n"
