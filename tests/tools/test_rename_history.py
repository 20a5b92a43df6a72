# test_rename_history.py: tools/rename-history rewrites a run made before the 2026-11 naming grammar
# (a real H200 FFT run) into names that follow it, keeps today's names, and rejects bad input.
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
GRAMMAR = re.compile(r"^L[0-2]/[A-Z][A-Za-z0-9]*/[A-Za-z0-9_]+(/type:[^/:]+)?(/[a-z][a-z0-9_]*:[^/:]+)*?"
                     r"(/wg:(auto|\d+(x\d+){0,2}))?/size:[1-4](/manual_time)?(_[a-z]+)?$")


class RenameHistory(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_an_earlier_run_gets_todays_names(self):
        out = os.path.join(self.tmp.name, "renamed.json")
        done = sr.run_tool("rename-history", os.path.join(DATA, "h200_fft_a.json"), out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(DATA, "h200_fft_a.json")) as f:
            before = json.load(f)["benchmarks"]
        with open(out) as f:
            after = json.load(f)["benchmarks"]
        self.assertEqual(len(before), len(after))
        old_sweeps = [b["name"] for b in before if "stockham_wg_sweep" in b["name"]]
        self.assertTrue(old_sweeps)  # the data has names the grammar changed
        for b in after:
            self.assertRegex(b["name"], GRAMMAR)
            self.assertRegex(b["run_name"], GRAMMAR)
        self.assertIn("L1/FFT/stockham/n:1024/batch:65536/dir:forward/radix:32/wg:32/size:3/manual_time",
                      [b["name"] for b in after])
        again = os.path.join(self.tmp.name, "again.json")  # today's names are left alone
        self.assertEqual(sr.run_tool("rename-history", out, again).returncode, 0)
        with open(again) as f:
            self.assertEqual(json.load(f)["benchmarks"], after)

    def test_todays_bandwidth_names_are_kept(self):
        sys.path.insert(0, sr.TOOLS)
        import gbresults as gb
        for name in ("L0/GlobalBandwidth/copy/type:float4/access:coalesced/wg:256/size:3/manual_time",
                     "L0/GlobalBandwidth/read/type:float16/access:persistent/groups_per_cu:16/passes:4/wg:256/size:3",
                     "L0/GlobalBandwidth/copy/type:float4/access:coalesced/wg:auto/size:3/manual_time"):
            self.assertEqual(gb.renamed_2026_11(name), name)
        self.assertEqual(gb.renamed_2026_11("L0/GlobalBandwidth/copy/type:float4/access:coalesced/size:3/manual_time"),
                         "L0/GlobalBandwidth/copy/type:float4/access:coalesced/wg:256/size:3/manual_time")

    def test_bad_input_is_one_line_and_exit_2(self):
        path = os.path.join(self.tmp.name, "bad.json")
        for content in ("[]", '{"foo": 1}', '{"benchmarks": [{"real_time": 1}]}', "{ not json"):
            with open(path, "w") as f:
                f.write(content)
            done = sr.run_tool("rename-history", path, os.path.join(self.tmp.name, "out.json"))
            self.assertEqual(done.returncode, 2, (content, done.stderr))
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "out.json")))


if __name__ == "__main__":
    unittest.main()
