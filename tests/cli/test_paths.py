# test_paths.py: --size=1 takes every code path a GPU takes at the larger sizes (issue #14, class 1).
# Each case names the paths of its kernels per size class (chunk loops' second trips, tails,
# vector-aligned paths, further levels and passes, partial tiles), computed from the parameters its
# host code uses; `gpu_bench --list_paths` prints them for size 1 on the device at hand (what the
# case tests run) and for sizes 1-4 on a model GPU. A path the GPU takes that size 1 misses is a
# path verification never sees. Every path a table names (path_if, taken or not: "named") must be
# taken at size 1 too: a named path no size takes is a branch no registered problem reaches (a
# vector kernel's unaligned branch, a partial vector of 2 or 3 elements).
"""Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_paths"""
import json
import unittest

from cli_support import require_device, run

# Paths a GPU takes that size 1 does not, each with the reason it is left so. Every entry must
# still be a gap (the test fails once size 1 covers it, so the list only shrinks).
KNOWN_GAPS = {}

# Named paths that no registered problem takes, at any size, each with the reason it is left so.
# Every entry must still be missing at size 1 (the list only shrinks): register a problem that
# takes the path, or drop the branch and its name.
UNREACHED = "no registered problem takes it (found 2026-11-28 when the test began to check named paths)"
KNOWN_UNREACHED = {
    "L0/Interference": {"stream: a ragged last step": UNREACHED},
    "L0/WorkGroup": {"edges: non-uniform groups at both edges and the corner": UNREACHED},
    "L1/BoxFilter": {"strip_vec: element-aligned vloadn/vstoren, edge strips at the right":
                     "every registered width is a multiple of the vector width (cols)"},
    "L1/Reduction": {"final kernel: idle work items": UNREACHED,
                     "scalar tail of 1 (n % 4)": "every registered n leaves 0 or 3",
                     "scalar tail of 2 (n % 4)": "every registered n leaves 0 or 3"},
    "L1/Scan": {"lookback_pipelined: running sum across sub-tiles": UNREACHED,
                "lookback_registers: running sum across sub-tiles": UNREACHED,
                "lookback_window: running sum across sub-tiles": UNREACHED},
    "L1/Transpose": {f"float4: scalar {op} of a partial float4 at {edge} ({r} of 4)":
                     "every registered shape (1001 x 601 at size 1) leaves 1 of 4"
                     for op, edge in (("loads", "the right edge"), ("stores", "the bottom")) for r in (2, 3)},
}


class CodePaths(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_device()
        done = run("--list_paths", "--size=1", "--warmup_s=0", "--progress=0")
        if done.returncode != 0:
            raise AssertionError(done.stderr)
        cls.tables = json.loads(done.stdout)
        listed = run("--benchmark_list_tests", "--all_sweeps", "--size=1")
        cls.families = {"/".join(line.split("/")[:2]) for line in listed.stdout.split()}

    def test_every_family_has_a_table(self):
        self.assertGreater(len(self.families), 20)
        for family in sorted(self.families):
            self.assertIn(family, self.tables, f"{family}: no code-path table (gb::declare_paths)")
            self.assertTrue(self.tables[family][0]["paths"], f"{family}: an empty table")

    def test_size_1_takes_every_path_a_gpu_takes(self):
        problems = []
        for family, entries in sorted(self.tables.items()):
            here = entries[0]
            self.assertEqual((here["size"], here["gpu"]), (1, False), family)
            size1 = set(here["paths"])
            gpu = set()
            for entry in entries[1:-1]:
                self.assertTrue(entry["gpu"], family)
                if entry["size"] > 1:
                    gpu |= set(entry["paths"])
            missing = gpu - size1
            gaps = KNOWN_GAPS.get(family, set())
            if missing - gaps:
                problems.append(f"{family}: paths a GPU takes that --size=1 misses: {sorted(missing - gaps)}")
            if gaps - missing:
                problems.append(f"{family}: listed as gaps but covered now (drop them): {sorted(gaps - missing)}")
        self.assertEqual(problems, [], "\n".join(problems))

    def test_size_1_takes_every_path_a_table_names(self):
        problems = []
        for family, entries in sorted(self.tables.items()):
            self.assertIn("named", entries[-1], family)
            missing = set(entries[-1]["named"]) - set(entries[0]["paths"])
            known = KNOWN_UNREACHED.get(family, {})
            for path in sorted(missing - set(known)):
                problems.append(f"{family}: no registered size-1 problem takes {path!r}")
            for path in sorted(set(known) - missing):
                problems.append(f"{family}: {path!r} is listed as unreached but size 1 takes it (drop it)")
        for family in sorted(set(KNOWN_UNREACHED) - set(self.tables)):
            problems.append(f"{family}: listed in KNOWN_UNREACHED but has no table")
        self.assertEqual(problems, [], "\n".join(problems))


if __name__ == "__main__":
    unittest.main()
