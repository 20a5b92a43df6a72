# test_paths.py: --size=1 takes every code path a GPU takes at the larger sizes (issue #14, class 1).
# Each case names the paths of its kernels per size class (chunk loops' second trips, tails,
# vector-aligned paths, further levels and passes, partial tiles), computed from the parameters its
# host code uses; `gpu_bench --list_paths` prints them for size 1 on the device at hand (what the
# case tests run) and for sizes 1-4 on a model GPU. A path the GPU takes that size 1 misses is a
# path verification never sees.
"""Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_paths"""
import json
import unittest

from cli_support import require_device, run

# Paths a GPU takes that size 1 does not, each with the reason it is left so. Every entry must
# still be a gap (the test fails once size 1 covers it, so the list only shrinks).
KNOWN_GAPS = {}


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
            for entry in entries[1:]:
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


if __name__ == "__main__":
    unittest.main()
