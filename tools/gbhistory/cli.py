# cli.py: the subcommands of tools/history (ingest, gate, trend, runs, dashboard, bench) and their exit statuses.
# Every failure is one line on stderr; database URLs are shown with their password redacted.
"""tools/history: a store of gpu_bench runs over time (SQLite or PostgreSQL), gated and charted.

  ingest RUN.json...       store runs (idempotent: a file's SHA-256 is its id; one transaction per file)
  gate RUN.json --against last:N | FROM..TO | tag:NAME
                           tools/gate's test of a run against the stored runs of its device
  trend                    each benchmark's series per device and its change points, newest first
  runs                     the stored runs, newest first
  dashboard -o DIR         a static site: series with noise bands and change points, the latest
                           run against its baseline, the device matrix
  bench                    the scale benchmark: synthetic runs ingested, gated and charted, timed

The store: --db PATH (SQLite, default results.sqlite) or --db postgresql://...; without --db,
the environment variable GPU_BENCH_HISTORY_DB, so that no password is on a command line.
Exit: 0 success (gate: PASS); 1 gate: FAIL (a regression or verification failure); 2 bad usage
or nothing to compare; 3 a run file that is corrupt, truncated, not gpu-bench's or of an unknown
schema (ingest stores the other files); 4 the database stayed locked past --busy-timeout;
5 the database cannot be opened or reached, or is not a history store (or is newer).
"""

import argparse
import math
import os
import re
import sys

import gbresults as gb

from . import against as hist
from . import runfile, store as st, trend

DB_ENV = "GPU_BENCH_HISTORY_DB"
DEFAULT_DB = "results.sqlite"


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def add_db(parser):
    parser.add_argument("--db", default=None, metavar="PATH|URL",
                        help=f"SQLite file or postgresql:// URL (default: ${DB_ENV}, else {DEFAULT_DB})")
    parser.add_argument("--busy-timeout", type=float, default=30.0, metavar="S",
                        help="seconds to wait for a locked database (default 30)")


def parse_args(argv):
    parser = Parser(prog="history", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("ingest", help="store run files")
    add_db(p)
    p.add_argument("runs", nargs="+", metavar="RUN.json")
    p.add_argument("--tag", action="append", default=[], help="tag the runs (e.g. main, v0.2.0); repeatable")

    p = sub.add_parser("gate", help="a run against the history of its device")
    add_db(p)
    p.add_argument("current", metavar="RUN.json|RUN_ID", help="a run file, or a stored run's id (or its start)")
    p.add_argument("--against", default="last:20", help="last:N (default last:20), FROM..TO dates, or tag:NAME")
    # tools/gate's options, with its defaults
    p.add_argument("--threshold", type=float, default=5.0, metavar="PCT", help="slowdown that counts (default 5)")
    p.add_argument("--alpha", type=float, default=0.05, help="false-discovery rate (default 0.05)")
    p.add_argument("--min-noise", type=float, default=1.0, metavar="PCT", help="run-to-run floor (default 1)")
    p.add_argument("--launch-noise", type=float, default=10.0, metavar="PCT",
                   help="the floor of launch-bound benchmarks (default 10)")
    p.add_argument("--max-noise", type=float, default=None, metavar="PCT",
                   help="a single run noisier than this is too noisy (default: the threshold)")
    p.add_argument("--markdown", metavar="FILE", help="also write a pull-request comment")
    p.add_argument("--fail-on-missing", action="store_true", help="fail when a benchmark of the history is missing")
    p.add_argument("--fail-on-error", action="store_true", help="fail on any errored benchmark")

    p = sub.add_parser("trend", help="series and change points")
    add_db(p)
    p.add_argument("--device", metavar="FINGERPRINT", help="one device fingerprint (default: all)")
    p.add_argument("--benchmark", metavar="REGEX", help="benchmarks whose name matches")
    p.add_argument("--series", action="store_true", help="also list each series' values, newest first")
    p.add_argument("--window", type=int, default=trend.WINDOW)
    p.add_argument("--threshold", type=float, default=trend.THRESHOLD * 100, metavar="PCT")

    p = sub.add_parser("runs", help="the stored runs, newest first")
    add_db(p)
    p.add_argument("--device", metavar="FINGERPRINT")

    p = sub.add_parser("dashboard", help="write the static site")
    add_db(p)
    p.add_argument("-o", "--output", required=True, metavar="DIR")
    p.add_argument("--baseline", default="last:20", help="what the latest run is gated against (default last:20)")

    p = sub.add_parser("bench", help="time ingest, gate and dashboard on synthetic runs")
    add_db(p)
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--benchmarks", type=int, default=1000)
    p.add_argument("--workdir", metavar="DIR", help="where the run files and the site go (default: a temporary one)")

    args = parser.parse_args(argv)
    if getattr(args, "db", None) is None:
        args.db = os.environ.get(DB_ENV) or DEFAULT_DB
    if args.command == "gate":
        if args.max_noise is None:
            args.max_noise = args.threshold
        for flag in ("threshold", "min_noise", "launch_noise", "max_noise"):
            value = getattr(args, flag)
            if not math.isfinite(value) or value < 0:
                raise UsageError(f"--{flag.replace('_', '-')} must be a finite number >= 0, not {value:g}")
        if not 0 < args.alpha < 1:
            raise UsageError(f"--alpha must be within (0, 1), not {args.alpha:g}")
    return args


def open_store(args):
    return st.Store(args.db, busy_timeout=args.busy_timeout)


# ---------------------------------------------------------------- ingest

def cmd_ingest(args):
    store = open_store(args)
    status, stored, known = 0, 0, 0
    refused = 0
    for path in args.runs:
        try:
            all_rows = runfile.read_all(path)  # a fleet file holds a run per rank
        except runfile.RunFileError as err:
            print(f"history: error: {path}: {err}", file=sys.stderr)
            status, refused = st.EXIT_BAD_RUN, refused + 1
            continue
        for rows in all_rows:
            if runfile.ingest(store, rows, args.tag):
                stored += 1
                print(f"{rows.run['source']}: stored run {rows.id[:12]} ({rows.run['device']}, {len(rows.results)} results)")
            else:
                known += 1
                print(f"{rows.run['source']}: already stored (run {rows.id[:12]})")
    store.close()
    print(f"history: {stored} run(s) stored, {known} already there, {refused} refused, in {store.shown}")
    return status


# ---------------------------------------------------------------- gate

def current_run(store, ref):
    if os.path.exists(ref) or ref.endswith(".json") or re.search(r"\.json(\.gz)?#", ref):  # FILE#rank=N: a fleet's run
        try:
            return hist.Current.from_file(runfile.read(ref))
        except runfile.RunFileError as err:
            raise RunRefused(f"{ref}: {err}") from None
    if re.fullmatch(r"[0-9a-f]{4,64}", ref):
        ids = store.query("SELECT id FROM runs WHERE id LIKE ?", (ref + "%",))
        if len(ids) == 1:
            return hist.Current.from_store(store, ids[0][0])
        if len(ids) > 1:
            raise gb.InputError(f"{ref}: {len(ids)} stored runs start so; give more of the id")
    raise gb.InputError(f"{ref}: neither a file nor a stored run's id")


class RunRefused(Exception):
    pass


def gate_against_history(store, current, against, args, gate):
    """(Result, history description, run count) of one run against its device's history."""
    ids = hist.history_ids(store, current.fingerprint, against, current.id, current.date)
    device = current.run.device
    if not ids:
        return None, f"no stored run of {device} ({current.fingerprint}) matches {against.text}", 0
    history = hist.history_run(store, [i[0] for i in ids], device)
    described = (f"{len(ids)} run(s) of {device} ({current.fingerprint}), {against.text}, "
                 f"{ids[-1][1][:10]} to {ids[0][1][:10]}")
    if history.flagged_values:
        described += f"; {history.flagged_values} flagged value(s) left out"
    result = hist.compare(gate, history, current, args)
    return result, described, len(ids)


def print_table(gate, result):
    rows = [gate.row(c) for c in result.comparisons]
    widths = [max(len(r[i]) for r in [gate.HEADER] + rows) for i in range(len(gate.HEADER))]
    for cells in [gate.HEADER, ["-" * w for w in widths]] + rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(cells, widths)).rstrip())


def cmd_gate(args):
    try:
        against = hist.Against(args.against)
    except ValueError as err:
        raise UsageError(str(err)) from None
    gate = hist.load_gate()
    store = open_store(args)
    current = current_run(store, args.current)
    result, described, count = gate_against_history(store, current, against, args, gate)
    store.close()
    if result is None:
        raise gb.InputError(f"compared nothing: {described}")
    if not result.comparisons:
        raise gb.InputError(f"compared nothing: no benchmark has values in both the run and the history ({described})")
    print(f"history: against {described}")
    print(f"gate: {gate.method(args)}")
    print_table(gate, result)
    gate.print_lists(result)
    reasons = gate.failure_reasons(result, args)
    if args.markdown:
        gb.write_atomic(args.markdown, hist.markdown(gate, result, current.run, args, reasons, described))
    print(f"\n{hist.counts(gate, result)}")
    print("gate: " + ("FAIL: " + ", ".join(reasons) if reasons else "PASS: no regression"))
    return 1 if reasons else 0


# ---------------------------------------------------------------- trend, runs

def cmd_trend(args):
    if args.window < trend.PERSIST:
        raise UsageError(f"--window must be at least {trend.PERSIST}: a step must hold that many runs")
    pattern = re.compile(args.benchmark) if args.benchmark else None
    store = open_store(args)
    series = trend.load(store, args.device, pattern.search if pattern else None)
    store.close()
    found = []
    for s in series.values():
        for change in trend.find_changes(s, window=args.window, threshold=args.threshold / 100):
            found.append((s, change))
    found.sort(key=lambda sc: (sc[0].dates[sc[1].index], sc[0].name), reverse=True)
    print(f"history: {len(series)} series, {len(found)} change point(s), newest first")
    for s, c in found:
        way = "slower" if s.slower(c.step) > 0 else "faster"
        print(f"{s.dates[c.index]}  {s.revisions[c.index] or '-':<12}  {gb.fmt_pct(c.step):>7} ({way})  {s.name}  "
              f"[{s.device} {s.fingerprint}]  {fmt(s.metric, c.before)} -> {fmt(s.metric, c.after)}, "
              f"p {c.pvalue:.1e}, {c.runs_before} runs before, {c.runs_after} from it")
    if args.series:
        for (fp, name), s in sorted(series.items()):
            marks = {c.index for c in s.changes}
            print(f"\n{name} [{s.device} {fp}] ({s.metric}, {len(s.values)} runs, newest first)")
            for i in reversed(range(len(s.values))):
                noise = "-" if s.noise[i] is None else f"{s.noise[i] * 100:.2g}%"
                note = ("  <- change point" if i in marks else "") + ("  (flagged)" if s.flagged[i] else "")
                print(f"  {s.dates[i]}  {s.revisions[i] or '-':<12}  {fmt(s.metric, s.values[i]):>14}  "
                      f"noise {noise}{note}")
    return 0


def fmt(metric, value):
    if metric == gb.REAL_TIME:
        return gb.fmt_time(value)
    return gb.fmt_si(value) + (gb.rate_unit(metric) if gb.is_rate(metric) else metric)


def cmd_runs(args):
    store = open_store(args)
    sql = ("SELECT ru.id, ru.date, ru.device, ru.device_fingerprint, ru.git_revision, ru.host, "
           "(SELECT count(*) FROM results r WHERE r.run_id = ru.id), ru.interrupted, ru.aborted FROM runs ru")
    params = []
    if args.device:
        sql += " WHERE ru.device_fingerprint = ?"
        params.append(args.device)
    rows = store.query(sql + " ORDER BY ru.date DESC, ru.ingested_at DESC", params)
    tags = {}
    for run_id, tag in store.query("SELECT run_id, tag FROM tags ORDER BY tag"):
        tags.setdefault(run_id, []).append(tag)
    store.close()
    for run_id, date, device, fp, revision, host, results, interrupted, aborted in rows:
        notes = [f"interrupted ({interrupted})"] if interrupted else []
        notes += [f"aborted ({aborted})"] if aborted else []
        notes += [f"tags: {', '.join(tags[run_id])}"] if run_id in tags else []
        print(f"{run_id[:12]}  {date}  {revision or '-':<12}  {device} ({fp})  {host or '-'}  {results} results"
              + ("  " + "; ".join(notes) if notes else ""))
    print(f"history: {len(rows)} run(s) in {st.redact(args.db)}")
    return 0


def cmd_dashboard(args):
    from . import dashboard
    try:
        against = hist.Against(args.baseline)
    except ValueError as err:
        raise UsageError(str(err)) from None
    store = open_store(args)
    pages = dashboard.build(store, args.output, against)
    store.close()
    print(f"history: dashboard of {pages} device(s) in {args.output}/index.html")
    return 0


def cmd_bench(args):
    from . import scale
    try:
        return scale.run(args)
    except ValueError as err:
        raise UsageError(str(err)) from None


COMMANDS = {"ingest": cmd_ingest, "gate": cmd_gate, "trend": cmd_trend, "runs": cmd_runs,
            "dashboard": cmd_dashboard, "bench": cmd_bench}


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(f"history: error: {err}", file=sys.stderr)
        return 2
    except st.StoreError as err:
        print(f"history: error: {err}", file=sys.stderr)
        return err.status
    except RunRefused as err:
        print(f"history: error: {err}", file=sys.stderr)
        return st.EXIT_BAD_RUN
    except gb.InputError as err:
        print(f"history: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        where = f"{err.filename}: " if err.filename else ""
        print(f"history: error: {where}{err.strerror}", file=sys.stderr)
        return 2
