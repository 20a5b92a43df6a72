# The tree speaks of the product only: no development notes (session or run numbers, scripts that are
# not in the repository, words about whose machine ran what) in any tracked file. git log keeps the history.
"""Fails when a tracked file matches FORBIDDEN, naming each file:line."""

import os
import re
import subprocess
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FORBIDDEN = re.compile(
    r"session [0-9]|\bruns? [0-9]+\b|\blent\b|\bborrowed\b|\.pro[b]e/"  # [b]: not a hit itself
    r"|run-on-h200|peers-h200|docs/PERFORMANCE\.md|docs/probes/", re.IGNORECASE)
SELF = os.path.relpath(os.path.abspath(__file__), ROOT)


def tracked_files():
    done = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True)
    if done.returncode != 0:
        return None
    return [f for f in done.stdout.decode().split("\0") if f]


class RepositoryWords(unittest.TestCase):
    def test_no_development_notes_in_tracked_files(self):
        files = tracked_files()
        if files is None:
            if os.environ.get("CI", "").lower() == "true":
                self.fail(f"{ROOT} is not a git checkout")
            self.skipTest("not a git checkout")
        hits = []
        for name in files:
            if name == SELF:
                continue
            try:
                with open(os.path.join(ROOT, name), "rb") as handle:
                    data = handle.read()
            except OSError:  # deleted in the work tree, not yet in the index
                continue
            if b"\0" in data[:8192]:  # binary (gzipped results)
                continue
            for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
                match = FORBIDDEN.search(line)
                if match:
                    hits.append(f"{name}:{number}: {match.group(0)!r}: {line.strip()[:120]}")
        self.assertFalse(hits, f"{len(hits)} line(s) carry development notes; say it of the product, or "
                         "leave it to git log:\n" + "\n".join(hits))


if __name__ == "__main__":
    unittest.main()
