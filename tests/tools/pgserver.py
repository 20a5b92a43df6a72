# pgserver.py: a throw-away PostgreSQL server for the tests (Debian's postgresql, initdb and pg_ctl in a
# temporary directory, Unix socket only), run as an unprivileged user when the tests run as root.
"""start() -> Server with .url; Server.stop() removes it.  None of it touches a system cluster."""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile

BIN_GLOB = "/usr/lib/postgresql/*/bin"


def bindir():
    """The newest installed server's bin directory, or None."""
    found = sorted(d for d in glob.glob(BIN_GLOB) if os.path.exists(os.path.join(d, "initdb")))
    return found[-1] if found else None


class Server:
    def __init__(self, directory, bin_dir, as_user):
        self.directory, self.bin, self.as_user = directory, bin_dir, as_user
        self.data = os.path.join(directory, "data")
        # libpq URL: the socket's directory as host; initdb -U makes the superuser "postgres".
        self.url = f"postgresql://postgres@/postgres?host={directory}"

    def run(self, *command):
        prefix = ["runuser", "-u", self.as_user, "--"] if self.as_user else []
        done = subprocess.run(prefix + [os.path.join(self.bin, command[0]), *command[1:]],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stderr.strip()[-800:]}")
        return done

    def stop(self):
        try:
            self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def start():
    """A running server (initdb, then pg_ctl start); None when PostgreSQL is not installed."""
    bin_dir = bindir()
    if bin_dir is None:
        return None
    # /tmp: short enough for the socket's path (107 bytes at most), and open to the server's user
    directory = tempfile.mkdtemp(prefix="gpu-bench-pg-", dir="/tmp" if os.path.isdir("/tmp") else None)
    as_user = None
    if os.getuid() == 0:  # initdb refuses root: run the server as nobody, in a directory it owns
        as_user = "nobody"
        entry = pwd.getpwnam(as_user)
        os.chown(directory, entry.pw_uid, entry.pw_gid)
    server = Server(directory, bin_dir, as_user)
    try:
        server.run("initdb", "-D", server.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C",
                   "--no-sync", "--no-instructions")
        # Durability is not what is tested: no fsync; the socket only, in the temporary directory.
        options = (f"-k {directory} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c shared_buffers=32MB")
        server.run("pg_ctl", "-D", server.data, "-o", options, "-l", os.path.join(directory, "log"), "-w", "start")
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    return server
