# test_history.py: tools/history on both stores (SQLite, and a PostgreSQL server the module starts) through
# one suite, then its dashboard loaded in headless Chromium from file://.
"""Tests of tools/history: ingest, gate against history, trend, migrations, errors, the dashboard.

PostgreSQL is started once for the module (pgserver.py), in the background while the SQLite
cases run; without it the PostgreSQL cases skip, or fail under CI=true.
"""

import contextlib
import importlib.util
import gzip
import io
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import unittest

import pgserver
import synthruns as sr

sys.path.insert(0, sr.TOOLS)
from gbhistory import against, cli, runfile, store as st  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
SERVER = {}  # "server": the running PostgreSQL, or "error": why it did not start
STARTED = threading.Event()


def start_postgres():
    try:
        SERVER["server"] = pgserver.start()
    except Exception as err:  # reported by the PostgreSQL cases, which need it
        SERVER["error"] = str(err)
    STARTED.set()


def setUpModule():
    threading.Thread(target=start_postgres, daemon=True).start()


def tearDownModule():
    STARTED.wait()
    if SERVER.get("server"):
        SERVER["server"].stop()


def history(*args, env=None):
    """tools/history in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = os.environ.get(cli.DB_ENV)
    if env is not None:
        os.environ[cli.DB_ENV] = env
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main([str(a) for a in args])
    finally:
        if env is not None:
            if old is None:
                del os.environ[cli.DB_ENV]
            else:
                os.environ[cli.DB_ENV] = old
    return status, out.getvalue(), err.getvalue()


def write_runs(directory, count=10, benchmarks=6, fingerprint=sr.FINGERPRINT_A, device="Synthetic GPU A",
               seed=1, first_day=1, steps=(), flags=None, prefix="run"):
    """count run files, one a day: steps is [(benchmark index, from run, factor on its time)];
    flags: {run: context extras}.  Returns (paths, benchmark names)."""
    specs = sr.one_binary(seed, n=benchmarks, launch_bound=0)
    rng = random.Random(seed + 100)
    paths = []
    for r in range(count):
        entries = []
        for i, spec in enumerate(specs):
            factor = 1.0
            for index, start, f in steps:
                if index == i and r >= start:
                    factor = f
            entries += sr.side_entries(spec, rng, sr.jittered(spec, rng, 1, factor))
        ctx = sr.context(fingerprint=fingerprint, device=device, git_revision=f"rev{r:03d}",
                         date=f"2026-10-{first_day + r:02d}T06:00:00+00:00", **(flags or {}).get(r, {}))
        paths.append(sr.write_run(os.path.join(directory, f"{prefix}{r:02d}.json"), entries, ctx))
    return paths, [s["name"] for s in specs]


def run_gate(*args):
    """tools/gate in this process: (exit status, stdout)."""
    gate, out = against.load_gate(), io.StringIO()
    argv, sys.argv = sys.argv, ["gate", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = gate.main()
    finally:
        sys.argv = argv
    return status, out.getvalue()


def verdicts(stdout):
    """{benchmark: verdict} from the gate's table."""
    found = {}
    for line in stdout.splitlines():
        match = re.match(r"^(L\d/\S+)\s.*?\s{2}(REGRESSION|improved|inconclusive|too noisy|unchanged|unreliable: .+)$",
                         line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


class StoreCases:
    """The same cases on each store; a subclass provides url()."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="history-test-")
        self.addCleanup(self.tmp.cleanup)
        self.db = self.url()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def count(self, table):
        store = st.Store(self.db)
        try:
            return store.query(f"SELECT count(*) FROM {table}")[0][0]
        finally:
            store.close()

    def test_ingest_stores_each_file_once(self):
        note = "a tab\there, a back\\slash, a line\nend, \\N"
        paths, names = write_runs(self.tmp.name, count=3, flags={0: {"note": note}})
        status, out, _ = history("ingest", "--db", self.db, *paths)
        self.assertEqual(status, 0)
        self.assertIn("3 run(s) stored", out)
        status, out, _ = history("ingest", "--db", self.db, paths[0], paths[0], paths[1])
        self.assertEqual(status, 0)
        self.assertIn("0 run(s) stored, 3 already there", out)
        self.assertEqual(self.count("runs"), 3)
        self.assertEqual(self.count("results"), 3 * len(names))
        store = st.Store(self.db)
        row = store.query("SELECT device_fingerprint, device, git_revision, host, size_class, gpu_bench_version, "
                          "driver_version, date FROM runs ORDER BY date")[0]
        self.assertEqual(row, (sr.FINGERPRINT_A, "Synthetic GPU A", "rev000", "ci-runner", "small", "0.1.0", "1.0",
                               "2026-10-01T06:00:00+00:00"))
        self.assertEqual(store.query("SELECT value FROM context WHERE key = 'platform'")[0][0], "Synthetic OpenCL")
        self.assertEqual(store.query("SELECT value FROM context WHERE key = 'note'"), [(note,)])
        store.close()
        # a gzip copy, as docs/results keeps runs, is the same run
        with open(paths[2], "rb") as plain, gzip.open(paths[2] + ".gz", "wb") as packed:
            packed.write(plain.read())
        status, out, _ = history("ingest", "--db", self.db, paths[2] + ".gz")
        self.assertEqual(status, 0)
        self.assertIn("0 run(s) stored, 1 already there", out)

    def test_repetitions_are_rows_and_aggregates_are_skipped(self):
        entries = sr.measured("L0/Rep/size:3/manual_time", [100.0, 110.0, 120.0], work={"bytes_per_second": 1e6})
        entries += sr.measured("L0/Time/size:3/manual_time", [5.0], work={})
        entries[0]["noise"] = float("nan")  # written as bare NaN: a missing value
        path = sr.write_run(self.path("reps.json"), entries)
        self.assertEqual(history("ingest", "--db", self.db, path)[0], 0)
        store = st.Store(self.db)
        rows = store.query("SELECT name, repetition, metric, value, time_s, noise, lower_is_better FROM results "
                           "ORDER BY name, repetition")
        store.close()
        self.assertEqual([r[:3] for r in rows], [("L0/Rep/size:3/manual_time", 0, "bytes_per_second"),
                                                  ("L0/Rep/size:3/manual_time", 1, "bytes_per_second"),
                                                  ("L0/Rep/size:3/manual_time", 2, "bytes_per_second"),
                                                  ("L0/Time/size:3/manual_time", 0, "real_time")])
        self.assertAlmostEqual(rows[1][3], 1e6 / 110e-9)
        self.assertAlmostEqual(rows[1][4], 110e-9)
        self.assertIsNone(rows[0][5])
        self.assertEqual([r[6] for r in rows], [0, 0, 0, 1])

    def test_bad_files_are_refused_with_status_3_and_leave_nothing(self):
        good, _ = write_runs(self.tmp.name, count=1)
        with open(good[0], encoding="utf-8") as handle:
            text = handle.read()
        bad = {"truncated.json": text[: len(text) // 2], "empty.json": "",
               "other.json": json.dumps({"context": {"date": "2026-01-01"}, "benchmarks": []}),
               "future.json": text.replace('"gpu_bench_version": "0.1.0"', '"gpu_bench_version": "7.0.0"'),
               "list.json": "[1, 2, 3]"}
        for name, content in bad.items():
            with open(self.path(name), "w", encoding="utf-8") as handle:
                handle.write(content)
        expected = {"truncated.json": "corrupt or truncated", "empty.json": "empty file",
                    "other.json": "not a gpu-bench run", "future.json": "unknown schema",
                    "list.json": "not a gpu-bench run"}
        for name, reason in expected.items():
            status, _, err = history("ingest", "--db", self.db, self.path(name))
            self.assertEqual(status, st.EXIT_BAD_RUN, name)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(reason, err)
        self.assertEqual(self.count("runs"), 0)
        status, out, _ = history("ingest", "--db", self.db, self.path("truncated.json"), good[0])
        self.assertEqual(status, st.EXIT_BAD_RUN)  # the good file is stored all the same
        self.assertIn("1 run(s) stored, 0 already there, 1 refused", out)

    def test_a_failure_inside_a_file_rolls_the_whole_file_back(self):
        paths, _ = write_runs(self.tmp.name, count=1)
        rows = runfile.read(paths[0])
        store = st.Store(self.db)
        real = store.insert_many

        def fail_on_context(sql, values):
            if "INTO context" in sql:
                raise RuntimeError("disk full")
            real(sql, values)

        store.insert_many = fail_on_context
        with self.assertRaises(RuntimeError):
            runfile.ingest(store, rows)
        store.close()
        self.assertEqual((self.count("runs"), self.count("results"), self.count("context")), (0, 0, 0))
        self.assertEqual(history("ingest", "--db", self.db, paths[0])[0], 0)  # and it can be stored again

    def test_gate_finds_a_regression_and_judges_flagged_benchmarks_unreliable(self):
        busy, slow, unconverged = 2, 3, 4
        names = write_runs(self.tmp.name, count=9)[1]
        # gpu_bench lists them by name without /manual_time, as JSON text in the context.
        listed = [{"name": names[i].replace("/manual_time", ""), "reason": why}
                  for i, why in ((busy, "host busy"), (slow, "device below its steady rate"))]
        current_flags = {8: {"host_busy_benchmarks": json.dumps(listed[:1]),
                             "slow_device_benchmarks": json.dumps(listed[1:])}}
        # The last run is today's: benchmark 0 takes 1.2x as long, and the flagged ones 1.5x.
        paths, _ = write_runs(self.tmp.name, count=9, flags=current_flags,
                              steps=[(0, 8, 1.2), (busy, 8, 1.5), (slow, 8, 1.5), (unconverged, 8, 1.5)])
        with open(paths[8], encoding="utf-8") as handle:
            run = json.load(handle)
        for entry in run["benchmarks"]:
            if entry["name"] == names[unconverged]:
                entry["converged"] = 0.0
        sr.write_run(paths[8], run["benchmarks"], run["context"])
        self.assertEqual(history("ingest", "--db", self.db, *paths[:8])[0], 0)
        markdown = self.path("gate.md")
        status, out, err = history("gate", "--db", self.db, paths[8], "--against", "last:8", "--markdown", markdown)
        self.assertEqual(status, 1, out + err)
        found = verdicts(out)
        self.assertEqual(found[names[0]], "REGRESSION")
        self.assertEqual(found[names[busy]], "unreliable: host busy")
        self.assertEqual(found[names[slow]], "unreliable: device below its steady rate")
        self.assertEqual(found[names[unconverged]], "unreliable: not converged")
        self.assertEqual({found[n] for n in (names[1], names[5])}, {"unchanged"})
        self.assertIn("against 8 run(s) of Synthetic GPU A (0123456789abcdef), last:8", out)
        self.assertIn("gate: FAIL: 1 regressed benchmark(s)", out)
        with open(markdown, encoding="utf-8") as handle:
            text = handle.read()
        self.assertIn("#### Regressions (1)", text)
        self.assertIn("#### Unreliable: flagged by the run (3)", text)
        self.assertIn("3 unreliable", text)
        # Ingested, today's run is not its own history; last:3 is the three runs before it.
        self.assertEqual(history("ingest", "--db", self.db, paths[8])[0], 0)
        status, out, _ = history("gate", "--db", self.db, paths[8], "--against", "last:3")
        self.assertEqual(status, 1)
        self.assertIn("3 run(s)", out)
        self.assertIn("2026-10-06 to 2026-10-08", out)

    def test_gate_uses_the_spread_of_the_history(self):
        # Benchmark 0 moves by +-6% from run to run in the history (far beyond its 0.1-1% noise):
        # a current one 8% slower is within that spread; benchmark 1, steady, fails at 8%.
        paths, names = write_runs(self.tmp.name, count=9, steps=[(0, 0, 1.06), (0, 1, 0.94), (0, 2, 1.06),
                                                                 (0, 3, 0.94), (0, 4, 1.06), (0, 5, 0.94),
                                                                 (0, 6, 1.06), (0, 7, 0.94), (0, 8, 1.08),
                                                                 (1, 8, 1.08)])
        self.assertEqual(history("ingest", "--db", self.db, *paths[:8])[0], 0)
        status, out, _ = history("gate", "--db", self.db, paths[8], "--against", "last:8")
        found = verdicts(out)
        self.assertEqual(status, 1)
        self.assertEqual(found[names[1]], "REGRESSION")
        self.assertIn(found[names[0]], ("inconclusive", "unchanged"))

    def test_gate_against_a_tag_a_date_range_and_only_its_device(self):
        paths, names = write_runs(self.tmp.name, count=6, steps=[(0, 3, 1.3)])
        other, _ = write_runs(self.tmp.name, count=4, fingerprint=sr.FINGERPRINT_B, device="Synthetic GPU B",
                              prefix="b", first_day=10)
        self.assertEqual(history("ingest", "--db", self.db, "--tag", "release", *paths[:3])[0], 0)
        self.assertEqual(history("ingest", "--db", self.db, *paths[3:5], *other)[0], 0)
        current = paths[5]
        status, out, _ = history("gate", "--db", self.db, current, "--against", "tag:release")
        self.assertEqual(status, 1)  # against the release runs, before the step
        self.assertEqual(verdicts(out)[names[0]], "REGRESSION")
        self.assertIn("3 run(s) of Synthetic GPU A", out)
        status, out, _ = history("gate", "--db", self.db, current, "--against", "2026-10-04..2026-10-05")
        self.assertEqual(status, 0)  # against the runs after the step
        self.assertIn("2 run(s) of Synthetic GPU A", out)
        status, _, err = history("gate", "--db", self.db, current, "--against", "2027-01-01..")
        self.assertEqual(status, 2)
        self.assertIn("compared nothing", err)
        status, _, err = history("gate", "--db", self.db, current, "--against", "last:0")
        self.assertEqual(status, 2)
        self.assertIn("expected last:N", err)
        # A stored run by its id: device B's newest against device B's others.
        run_b = runfile.read(other[3]).id
        status, out, _ = history("gate", "--db", self.db, run_b[:10], "--against", "last:20")
        self.assertEqual(status, 0)
        self.assertIn("3 run(s) of Synthetic GPU B", out)

    def test_trend_lists_change_points_newest_first(self):
        paths, names = write_runs(self.tmp.name, count=16, steps=[(0, 6, 1.25), (3, 11, 0.8)])
        with open(paths[9], encoding="utf-8") as handle:
            run = json.load(handle)
        for entry in run["benchmarks"]:  # a single outlier is not a change point
            if entry["name"] == names[4]:
                entry["real_time"] *= 1.5
                for metric in entry["metrics"]:
                    entry[metric] /= 1.5
        sr.write_run(paths[9], run["benchmarks"], run["context"])
        self.assertEqual(history("ingest", "--db", self.db, *paths)[0], 0)
        status, out, _ = history("trend", "--db", self.db)
        self.assertEqual(status, 0)
        lines = [line for line in out.splitlines() if line.startswith("2026-")]
        self.assertEqual(len(lines), 2, out)
        self.assertTrue(lines[0].startswith("2026-10-12T06:00:00+00:00  rev011"), lines[0])
        self.assertIn(names[3], lines[0])
        self.assertIn("(faster)", lines[0])
        self.assertTrue(lines[1].startswith("2026-10-07T06:00:00+00:00  rev006"), lines[1])
        self.assertIn(names[0], lines[1])
        self.assertIn("(slower)", lines[1])
        status, out, _ = history("trend", "--db", self.db, "--series", "--benchmark", re.escape(names[0]))
        series = [line for line in out.splitlines() if line.startswith("  2026-")]
        self.assertEqual(len(series), 16)
        self.assertTrue(series[0].startswith("  2026-10-16"))  # newest first
        self.assertEqual([line for line in series if "<- change point" in line][0][:12], "  2026-10-07")

    def test_concurrent_writers_store_every_run_once(self):
        paths, names = write_runs(self.tmp.name, count=8, benchmarks=20)
        script = os.path.join(sr.TOOLS, "history")
        # Two writers at once over overlapping sets: the first six runs and the last six of eight.
        procs = [subprocess.Popen([script, "ingest", "--db", self.db, *paths[a:b]], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for a, b in ((0, 6), (2, 8))]
        outputs = [p.communicate(timeout=120) for p in procs]
        self.assertEqual([p.returncode for p in procs], [0, 0], outputs)
        stored = sum(int(re.search(r"(\d+) run\(s\) stored", out).group(1)) for out, _ in outputs)
        self.assertEqual(stored, 8)
        self.assertEqual(self.count("runs"), 8)
        self.assertEqual(self.count("results"), 8 * 20)

    def test_migrates_a_first_version_store(self):
        store = st.Store(self.db, migrate=False)
        store.migrate(to=1)
        store.execute("INSERT INTO runs (id, date, ingested_at, device_fingerprint) VALUES ('r1', '2026-01-01', "
                      "'2026-01-01', 'fp')")
        store.execute("INSERT INTO results (run_id, name, repetition, family, metric, value) VALUES "
                      "('r1', 'L0/A/x', 0, 'L0/A', 'real_time', 0.5), ('r1', 'L0/A/y', 0, 'L0/A', 'mlups', 5)")
        store.close()
        store = st.Store(self.db)
        self.assertEqual(store.version(), st.SCHEMA_VERSION)
        self.assertEqual(store.query("SELECT name, lower_is_better FROM results ORDER BY name"),
                         [("L0/A/x", 1), ("L0/A/y", 0)])
        self.assertEqual(store.query("SELECT count(*) FROM tags"), [(0,)])
        store.execute("UPDATE schema_version SET version = ?", (st.SCHEMA_VERSION + 1,))
        store.close()
        status, _, err = history("runs", "--db", self.db)
        self.assertEqual(status, st.EXIT_UNREACHABLE)
        self.assertIn("newer than this", err)

    def test_the_environment_names_the_store(self):
        paths, _ = write_runs(self.tmp.name, count=1)
        status, out, _ = history("ingest", paths[0], env=self.db)
        self.assertEqual(status, 0)
        self.assertEqual(self.count("runs"), 1)
        self.assertNotIn("secret", out)


class SQLiteStore(StoreCases, unittest.TestCase):
    def url(self):
        return os.path.join(self.tmp.name, "results.sqlite")

    def test_against_one_run_it_judges_as_tools_gate_does(self):
        # Two runs of one binary on an H100 (and an H200 beside it): with one run of history the test
        # is tools/gate's; only the benchmarks either run flagged (converged 0) are judged otherwise.
        data = os.path.join(sr.HERE, "data")
        a, b = os.path.join(data, "h100_fft_a.json"), os.path.join(data, "h100_fft_b.json")
        self.assertEqual(history("ingest", "--db", self.db, a, os.path.join(data, "h200_fft_a.json"))[0], 0)
        status, out, err = history("gate", "--db", self.db, b, "--against", "last:1")
        gate_status, gate_out = run_gate(a, b)
        self.assertEqual(status, gate_status, out + err)
        self.assertIn("1 run(s) of NVIDIA H100 80GB HBM3", out)
        ours, theirs = verdicts(out), verdicts(gate_out)
        compared = [k for k, v in ours.items() if not v.startswith("unreliable") and k in theirs]
        self.assertGreater(len(compared), 100)
        self.assertEqual({k: ours[k] for k in compared}, {k: theirs[k] for k in compared})
        with open(b, encoding="utf-8") as handle:
            unconverged = {e["run_name"] for e in json.load(handle)["benchmarks"] if e.get("converged") == 0}
        # Those unconverged in both runs have no history (flagged values are left out of it): new.
        self.assertEqual({k for k, v in ours.items() if v.startswith("unreliable")}, unconverged & set(ours))
        new = out[out.index("New in CURRENT"):]
        self.assertTrue(all(k in new for k in unconverged - set(ours)))

    def test_a_locked_store_is_status_4(self):
        paths, _ = write_runs(self.tmp.name, count=1)
        self.assertEqual(history("runs", "--db", self.db)[0], 0)  # made, in WAL mode
        holder = sqlite3.connect(self.db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            status, _, err = history("ingest", "--db", self.db, "--busy-timeout", "0.2", paths[0])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        self.assertEqual(status, st.EXIT_LOCKED, err)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("locked", err)

    def test_an_unusable_file_is_status_5(self):
        status, _, err = history("runs", "--db", os.path.join(self.tmp.name, "no", "such", "dir", "x.sqlite"))
        self.assertEqual(status, st.EXIT_UNREACHABLE)
        self.assertIn("unable to open", err)
        with open(self.path("junk.sqlite"), "w", encoding="utf-8") as handle:
            handle.write("not a database, not at all" * 100)
        status, _, err = history("runs", "--db", self.path("junk.sqlite"))
        self.assertEqual(status, st.EXIT_UNREACHABLE)
        self.assertIn("not a database", err)


class PostgresStore(StoreCases, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        STARTED.wait()
        if SERVER.get("error"):
            raise AssertionError(f"PostgreSQL did not start: {SERVER['error']}")
        sr.need(SERVER.get("server") is not None, "PostgreSQL (Debian packages postgresql, python3-psycopg2)")
        sr.need(importlib.util.find_spec("psycopg2") is not None, "python3-psycopg2 (Debian package)")

    def url(self):
        """The server's one database, emptied: TRUNCATE is much faster than making the tables again."""
        url = SERVER["server"].url
        store = st.Store(url, migrate=False)
        if "runs" in store.tables():
            store.execute("TRUNCATE runs CASCADE")
        store.close()
        return url

    def drop_tables(self):
        store = st.Store(self.db, migrate=False)
        for table in ("tags", "context", "results", "runs", "schema_version"):
            store.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
        store.close()

    def test_migrates_a_first_version_store(self):
        self.drop_tables()
        self.addCleanup(self.drop_tables)  # it leaves a store of a newer version
        super().test_migrates_a_first_version_store()

    def test_an_unreachable_server_is_status_5_without_its_password(self):
        url = "postgresql://gate:s3cr3t-pw@127.0.0.1:1/results"
        status, _, err = history("runs", "--db", url, "--busy-timeout", "2")
        self.assertEqual(status, st.EXIT_UNREACHABLE)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("postgresql://gate:***@127.0.0.1:1/results", err)
        self.assertNotIn("s3cr3t", err)
        status, _, err = history("runs", env=url)
        self.assertEqual(status, st.EXIT_UNREACHABLE)
        self.assertNotIn("s3cr3t", err)

    def test_a_locked_table_is_status_4(self):
        paths, _ = write_runs(self.tmp.name, count=1)
        self.assertEqual(history("runs", "--db", self.db)[0], 0)
        import psycopg2
        holder = psycopg2.connect(self.db)
        holder.cursor().execute("LOCK TABLE runs IN ACCESS EXCLUSIVE MODE")
        try:
            status, _, err = history("ingest", "--db", self.db, "--busy-timeout", "0.3", paths[0])
        finally:
            holder.rollback()
            holder.close()
        self.assertEqual(status, st.EXIT_LOCKED, err)
        self.assertIn("lock", err)


class Dashboard(unittest.TestCase):
    """The site of two devices, one with a step, in headless Chromium from file://."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="history-dashboard-")
        cls.db = os.path.join(cls.tmp.name, "results.sqlite")
        paths, cls.names = write_runs(cls.tmp.name, count=12, benchmarks=6, steps=[(2, 8, 1.3)])
        other, _ = write_runs(cls.tmp.name, count=3, benchmarks=6, fingerprint=sr.FINGERPRINT_B,
                              device="Synthetic GPU B", prefix="b", seed=1)
        assert history("ingest", "--db", cls.db, *paths, *other)[0] == 0
        cls.site = os.path.join(cls.tmp.name, "site")
        cls.status, cls.out, cls.err = history("dashboard", "--db", cls.db, "-o", cls.site)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def chromium(self, page):
        sr.need(os.path.exists(CHROMIUM), "chromium (Debian package)")
        profile = tempfile.mkdtemp(prefix="chromium-profile-")
        self.addCleanup(shutil.rmtree, profile, True)
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
                 "--dump-dom"]
        done = subprocess.run([CHROMIUM, *flags, "file://" + os.path.join(self.site, page)],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
        self.assertEqual(console, [], "console messages")
        self.assertNotIn("data-errors", done.stdout)
        return done.stdout

    def test_site_is_written_for_each_device(self):
        self.assertEqual(self.status, 0, self.err)
        self.assertEqual(sorted(os.listdir(self.site)),
                         ["device-0123456789abcdef.html", "device-fedcba9876543210.html", "index.html"])
        for page in os.listdir(self.site):
            with open(os.path.join(self.site, page), encoding="utf-8") as handle:
                text = handle.read()
            self.assertNotRegex(text, r"""(src|href)=["']?(https?:)?//""")  # nothing from the network
            self.assertIn("Chart.js v3", text)

    def test_device_page_draws_every_chart_and_the_injected_step(self):
        dom = self.chromium("device-0123456789abcdef.html")
        self.assertRegex(dom, r'<html[^>]*data-charts-shown="6"')
        self.assertRegex(dom, r'<html[^>]*data-charts-rendered="6"')
        canvases = re.findall(r"<canvas [^>]*>", dom)
        self.assertEqual(len(canvases), 6)
        for canvas in canvases:
            self.assertIn('data-rendered="yes"', canvas)
            self.assertIn('data-points="12"', canvas)
            name = re.search(r'data-name="([^"]+)"', canvas).group(1)
            if name == self.names[2]:
                self.assertIn('data-change-points="1"', canvas)
                self.assertIn('data-change-dates="2026-10-09T06:00:00+00:00"', canvas)
            else:
                self.assertIn('data-change-points="0"', canvas)
        # The latest run (a 1.3x step four runs ago) against the last 20: beyond the threshold.
        self.assertIn("Latest run against its baseline", dom)

    def test_index_draws_the_device_matrix(self):
        dom = self.chromium("index.html")
        self.assertRegex(dom, r'<canvas [^>]*data-kind="matrix"[^>]*data-rendered="yes"')
        header = re.search(r'<table id="matrix">.*?</tr>', dom, re.S).group(0)
        self.assertIn("Synthetic GPU A (0123456789abcdef)", header)
        self.assertIn("Synthetic GPU B (fedcba9876543210)", header)
        self.assertEqual(dom.count('href="device-'), 2)


def load_tests(loader, tests, pattern):
    """SQLite and the dashboard first: PostgreSQL starts in the background meanwhile."""
    suite = unittest.TestSuite()
    for case in (SQLiteStore, Dashboard, PostgresStore):
        suite.addTests(loader.loadTestsFromTestCase(case))
    return suite


if __name__ == "__main__":
    unittest.main()
