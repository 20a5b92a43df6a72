# test_summarize.py: tools/summarize prints a table of a run, and bad input is one line on stderr
# and exit status 2, never a traceback.
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

BW = "L0/GlobalBandwidth/copy/type:float4/access:coalesced/size:3/manual_time"


class Summarize(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def file(self, content):
        path = os.path.join(self.tmp.name, "run.json")
        with open(path, "w") as handle:
            handle.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def test_table_of_a_run(self):
        path = sr.write_run(os.path.join(self.tmp.name, "ok.json"), sr.bench(BW, [2e6], bytes_moved=64 << 20))
        done = sr.run_tool("summarize", path)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("L0/GlobalBandwidth/copy/type:float4", done.stdout)
        self.assertIn("2 ms", done.stdout)  # 2e6 ns as one unit's time

    def test_a_benchmark_measured_on_a_slow_device_is_marked(self):
        slow = json.dumps([{"name": BW.replace("/manual_time", ""), "reason": "device below its steady rate"}])
        path = sr.write_run(os.path.join(self.tmp.name, "slow.json"), sr.bench(BW, [2e6], bytes_moved=64 << 20),
                            sr.context(slow_device_benchmarks=slow))
        done = sr.run_tool("summarize", path)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("unreliable: device below its steady rate", done.stdout)

    def test_bad_inputs(self):
        bad = ["[]", {"foo": 1}, {"benchmarks": [{"real_time": 1}]}, {"benchmarks": [{"name": "a"}]},
               {"benchmarks": [{"name": "a", "real_time": 1, "time_unit": "fs"}]},
               {"benchmarks": [{"name": "a", "real_time": "1"}]}, "{ not json"]
        for content in bad:
            done = sr.run_tool("summarize", self.file(content))
            self.assertEqual(done.returncode, 2, (content, done.stdout, done.stderr))
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, (content, done.stderr))
            self.assertNotIn("Traceback", done.stderr)
        done = sr.run_tool("summarize", self.file({"benchmarks": []}), "(")
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertNotIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()
