# store.py: the history store: one schema on SQLite (a file) or PostgreSQL (a URL), its migrations,
# and the errors a database can raise, each mapped to one exit status with the URL's password redacted.
"""The results store of tools/history.

SQLite is a single file opened in WAL mode with a busy timeout, so that several processes can
write to it; PostgreSQL takes the same SQL (placeholders are rewritten) for a fleet.  The schema
is versioned: schema_version holds the version, and MIGRATIONS[k] takes a store from version k
to k + 1, so a store made by any earlier tools/history is brought up to date when opened.
"""

import io
import re
import sqlite3
import urllib.parse

# Exit statuses of tools/history (docs/HISTORY.md); 0-2 are tools/gate's.
EXIT_BAD_RUN = 3      # a run file that is corrupt, truncated, not gpu-bench's or of an unknown schema
EXIT_LOCKED = 4       # the database stayed locked (busy) past the timeout
EXIT_UNREACHABLE = 5  # the database cannot be opened or reached, or is not a history store


class StoreError(Exception):
    """A database failure: one line for the user and the exit status it maps to."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


MIGRATIONS = [
    # 0 -> 1: runs, their results and their whole context.
    [
        "CREATE TABLE schema_version (version INTEGER NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (0)",
        """CREATE TABLE runs (
             id TEXT PRIMARY KEY,             -- SHA-256 of the file's bytes
             date TEXT NOT NULL,              -- the run's date, ISO 8601 in UTC
             ingested_at TEXT NOT NULL,
             source TEXT,                     -- the file's name when ingested
             gpu_bench_version TEXT, git_revision TEXT, device TEXT, driver_version TEXT,
             device_fingerprint TEXT NOT NULL, host TEXT, size_class TEXT,
             flags TEXT,                      -- JSON: how the run was set up, as its context says
             interrupted TEXT, aborted TEXT)""",
        "CREATE INDEX runs_by_device ON runs (device_fingerprint, date)",
        """CREATE TABLE results (
             run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
             name TEXT NOT NULL, repetition INTEGER NOT NULL, family TEXT NOT NULL,
             metric TEXT, value DOUBLE PRECISION,   -- the primary metric (real_time in s)
             time_s DOUBLE PRECISION,               -- real_time per unit of work, in s
             noise DOUBLE PRECISION, samples DOUBLE PRECISION, converged INTEGER,
             host_over_device DOUBLE PRECISION, error TEXT,
             host_busy INTEGER NOT NULL DEFAULT 0, device_slow INTEGER NOT NULL DEFAULT 0,
             PRIMARY KEY (run_id, name, repetition))""",
        """CREATE TABLE context (
             run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
             key TEXT NOT NULL, value TEXT, PRIMARY KEY (run_id, key))""",
    ],
    # 1 -> 2: tags on runs (release, main, ...), and the metric's direction kept with each result.
    [
        """CREATE TABLE tags (
             run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
             tag TEXT NOT NULL, PRIMARY KEY (run_id, tag))""",
        "CREATE INDEX tags_by_tag ON tags (tag)",
        "ALTER TABLE results ADD COLUMN lower_is_better INTEGER NOT NULL DEFAULT 0",
        "UPDATE results SET lower_is_better = 1 WHERE metric = 'real_time'",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
PG_MIGRATION_LOCK = 0x6770752d62  # pg_advisory_xact_lock key: one migrating process at a time


def redact(url):
    """The URL with its password replaced by ***: safe to print."""
    if "://" not in url:
        return re.sub(r"(password\s*=\s*)\S+", r"\1***", url)
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        if ":" in userinfo:
            userinfo = userinfo.split(":", 1)[0] + ":***"
        netloc = userinfo + "@" + host
    query = re.sub(r"(password=)[^&]*", r"\1***", parts.query)
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def is_postgres(url):
    return url.startswith(("postgresql://", "postgres://"))


class Store:
    """An open store.  SQL is written with ? placeholders; PostgreSQL gets %s."""

    def __init__(self, url, busy_timeout=30.0, migrate=True):
        self.url = url
        self.shown = redact(url)
        self.postgres = is_postgres(url)
        self._secrets = secrets_of(url)
        with self.errors():
            if self.postgres:
                self._open_postgres(busy_timeout)
            else:
                self._open_sqlite(busy_timeout)
            if migrate:
                self.migrate()

    def _open_sqlite(self, busy_timeout):
        path = self.url[len("sqlite:///"):] if self.url.startswith("sqlite:///") else self.url
        # isolation_level None: transactions are begun and ended here, explicitly.
        self.conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")  # readers do not block the writer
        # With WAL, a power loss may lose the last commits, never the store's consistency.
        self.conn.execute("PRAGMA synchronous = NORMAL")
        self.conn.execute("PRAGMA foreign_keys = ON")

    def _open_postgres(self, busy_timeout):
        try:
            import psycopg2
        except ImportError:
            raise StoreError(f"{self.shown}: PostgreSQL needs python3-psycopg2 (Debian package)",
                             EXIT_UNREACHABLE) from None
        self.conn = psycopg2.connect(self.url, connect_timeout=max(1, int(busy_timeout)))
        self.conn.autocommit = True  # transactions are begun and ended here, explicitly
        with self.conn.cursor() as cur:
            cur.execute("SET lock_timeout = %s", (f"{int(busy_timeout * 1000)}ms",))
            cur.execute("SET client_min_messages = warning")

    def errors(self):
        return _ErrorMap(self)

    def sql(self, text):
        return text.replace("?", "%s") if self.postgres else text

    def execute(self, text, params=()):
        cur = self.conn.cursor()
        cur.execute(self.sql(text), params)
        return cur

    def query(self, text, params=()):
        with self.errors():
            cur = self.execute(text, params)
            rows = cur.fetchall()
            cur.close()
            return rows

    def insert_many(self, text, rows):
        """Insert rows in one statement per page: psycopg2's executemany makes a round trip per row."""
        if not rows:
            return
        if self.postgres:  # COPY: a fraction of the server's and the client's work of INSERTs
            head = text.split(" VALUES ", 1)[0].replace("INSERT INTO", "COPY", 1)
            buffer = io.StringIO("".join("\t".join(map(_copy_text, row)) + "\n" for row in rows))
            with self.conn.cursor() as cur:
                cur.copy_expert(head + " FROM STDIN", buffer)
        else:
            self.conn.executemany(text, rows)

    def begin(self):
        self.execute("BEGIN" if self.postgres else "BEGIN IMMEDIATE")  # SQLite: take the write lock now

    def commit(self):
        self.execute("COMMIT")

    def rollback(self):
        try:
            self.execute("ROLLBACK")
        except Exception:  # nothing to roll back, or the connection is gone: the error raised first says why
            pass

    def version(self):
        if self.postgres:
            exists = self.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()[0]
        else:
            exists = self.execute("SELECT count(*) FROM sqlite_master WHERE name = 'schema_version'").fetchone()[0]
        if not exists:
            if self.tables():
                raise StoreError(f"{self.shown}: not a gpu-bench history store (it has other tables)",
                                 EXIT_UNREACHABLE)
            return 0
        return self.execute("SELECT version FROM schema_version").fetchone()[0]

    def tables(self):
        if self.postgres:
            rows = self.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").fetchall()
        else:
            rows = self.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return [r[0] for r in rows]

    def migrate(self, to=SCHEMA_VERSION):
        """Bring the store to schema version `to`, in one transaction."""
        if self.version() == to:  # the usual case, read without taking the write lock
            return
        self.begin()
        try:
            if self.postgres:
                self.execute("SELECT pg_advisory_xact_lock(?)", (PG_MIGRATION_LOCK,))
            version = self.version()
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.shown}: store schema version {version} is newer than this "
                                 f"tools/history's ({SCHEMA_VERSION}); update gpu-bench", EXIT_UNREACHABLE)
            for step in range(version, to):
                for statement in MIGRATIONS[step]:
                    self.execute(statement)
                self.execute("UPDATE schema_version SET version = ?", (step + 1,))
            self.commit()
        except BaseException:
            self.rollback()
            raise

    def close(self):
        try:
            self.conn.close()
        except Exception:  # closing a broken connection: nothing left to do
            pass


_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(value):
    """One field of COPY's text format: NULL as \\N, backslash, tab and line ends escaped."""
    if value is None:
        return "\\N"
    if isinstance(value, str):
        return value.translate(_COPY_ESCAPES)
    return repr(value)


def secrets_of(url):
    """The password in a URL, to be scrubbed from any message a driver returns."""
    if "://" in url:
        password = urllib.parse.urlsplit(url).password
        found = [password] if password else []
        found += re.findall(r"password=([^&]+)", urllib.parse.urlsplit(url).query)
        return found
    return re.findall(r"password\s*=\s*(\S+)", url)


class _ErrorMap:
    """Turns a driver's exception into a StoreError with the right status and no secret in it."""

    def __init__(self, store):
        self.store = store

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        if err is None or isinstance(err, StoreError):
            return False
        status = classify(err)
        if status is None:
            return False
        text = " ".join(str(err).split()) or type(err).__name__
        for secret in self.store._secrets:
            text = text.replace(secret, "***")
        text = text.replace(self.store.url, self.store.shown)
        raise StoreError(f"{self.store.shown}: {text}", status) from None


def classify(err):
    """The exit status of a database exception, or None for one that is not the database's."""
    if isinstance(err, sqlite3.OperationalError):
        text = str(err).lower()
        return EXIT_LOCKED if ("locked" in text or "busy" in text) else EXIT_UNREACHABLE
    if isinstance(err, sqlite3.DatabaseError):  # "file is not a database", a corrupt file
        return EXIT_UNREACHABLE
    module = type(err).__module__ or ""
    if module.startswith("psycopg2"):
        code = getattr(err, "pgcode", None)
        if code in ("55P03", "40P01"):  # lock_not_available, deadlock_detected
            return EXIT_LOCKED
        return EXIT_UNREACHABLE
    return None
