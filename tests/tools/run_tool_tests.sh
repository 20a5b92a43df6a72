#!/bin/sh
# run_tool_tests.sh: runs the tests of tools/gate, export, report, summarize, rename-history, peers and history (tests/tools/test_*.py).
# Exits non-zero when a test fails; with CI=true a missing python3-matplotlib, chromium or postgresql fails instead of skipping.
set -eu
cd "$(dirname "$0")/../.."
export PYTHONDONTWRITEBYTECODE=1  # leave no __pycache__ in the source tree
exec /usr/bin/python3 -m unittest discover -s tests/tools -p 'test_*.py' -v
