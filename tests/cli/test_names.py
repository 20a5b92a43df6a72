# test_names.py: every benchmark name follows the naming grammar (README, "Benchmark names") at
# every size class; a family's source, kernel file and case test share its name; the changelog's
# renames (tools/gbresults.py RENAMES_2026_11) map every earlier name onto a name listed today.
"""Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_names"""
import glob
import os
import re
import subprocess
import sys
import unittest

from cli_support import GPU_BENCH, require_device, run

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gbresults  # noqa: E402

# The grammar, written independently of support/registry.cpp's check.
NAME = re.compile(r"^L(?P<level>[0-2])/(?P<case>[A-Z][A-Za-z0-9]*)/(?P<variant>[A-Za-z0-9_]+)"
                  r"(?P<type>/type:[^/:]+)?(?P<axes>(/[a-z][a-z0-9_]*:[^/:]+)*?)"
                  r"(?P<wg>/wg:(auto|\d+(x\d+){0,2}))?/size:(?P<size>[1-4])$")
TYPE_WORD = re.compile(r"(u?int|float|double|half|char|rgba)(\d+)?(_\w+)?")
# Families whose kernels live in another family's file, or that have none.
KERNEL_FILE_EXCEPTIONS = {
    "L0/Transfer": None,  # host-device copies: no kernel
    "L1/FFT2D": "l1/fft.cl",  # the 2-D pipelines run the Stockham kernels of L1/FFT
}


def read(path):
    with open(path) as f:
        return f.read()


def snake(case):
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", case).lower()


def listed(size, env=None):
    done = subprocess.run([GPU_BENCH, "--benchmark_list_tests", "--all_sweeps", f"--size={size}"],
                          capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        raise AssertionError(done.stderr)
    return [line.replace("/manual_time", "") for line in done.stdout.split()]


# Test hooks, listed only when asked for, and the test that runs them instead of a case test.
HOOKS = {"GPU_BENCH_SELFTEST_HANG": ("L0/SelfTest/", "cli.test_kernel_timeout")}


class Names(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_device()
        cls.names = {size: listed(size) for size in (1, 2, 3, 4)}
        hooks_on = dict(os.environ, **{variable: "1" for variable in HOOKS})
        cls.with_hooks = listed(1, hooks_on)

    def test_every_name_follows_the_grammar(self):
        hooks = [n for n in self.with_hooks if any(n.startswith(f) for f, _ in HOOKS.values())]
        self.assertTrue(hooks)
        for size, names in list(self.names.items()) + [(1, hooks)]:
            self.assertGreater(len(names), 100 if names is not hooks else 0)
            self.assertEqual(len(names), len(set(names)), f"duplicate names at size {size}")
            for name in names:
                match = NAME.match(name)
                self.assertIsNotNone(match, name)
                self.assertEqual(match.group("size"), str(size), name)
                variant = match.group("variant")
                self.assertNotIn("sweep", variant, f"{name}: a sweep is an axis, not a variant")
                self.assertFalse(TYPE_WORD.fullmatch(variant), f"{name}: a type belongs in type:")
                keys = [part.split(":")[0] for part in name.split("/")[3:]]
                self.assertEqual(len(keys), len(set(keys)), f"{name}: an axis repeats")

    def test_a_family_shares_its_name_with_its_files_and_case_test(self):
        families = {"/".join(n.split("/")[:2]) for names in self.names.values() for n in names}
        families |= {"/".join(n.split("/")[:2]) for n in self.with_hooks}
        for family in sorted(families):
            level, case = family.split("/")
            base = snake(case)
            self.assertTrue(os.path.exists(f"{ROOT}/bench/{level.lower()}/{base}.cpp"), family)
            kernel = KERNEL_FILE_EXCEPTIONS.get(family, f"{level.lower()}/{base}.cl")
            if kernel:
                self.assertTrue(os.path.exists(f"{ROOT}/kernels/{kernel}"), f"{family}: kernels/{kernel}")
        bases = {f"{f.split('/')[0].lower()}/{snake(f.split('/')[1])}" for f in families}
        for path in glob.glob(f"{ROOT}/bench/l*/*.cpp") + glob.glob(f"{ROOT}/kernels/l*/*.cl"):
            level, stem = path.split("/")[-2], os.path.splitext(os.path.basename(path))[0]
            owner = [b for b in bases if f"{level}/{stem}" == b or f"{level}/{stem}".startswith(b + "_")]
            self.assertTrue(owner, f"{path}: no family of that name")
            if path.endswith(".cl"):
                for kernel in re.findall(r"__kernel\s+void\s+(\w+)", read(path)):
                    self.assertTrue(kernel.startswith(stem), f"{path}: kernel {kernel} is not named {stem}_...")

    def test_every_benchmark_has_a_case_test(self):
        filters = []
        for path in glob.glob(f"{ROOT}/tests/CMakeLists.txt") + glob.glob(f"{ROOT}/tests/cases/*.cmake"):
            filters += re.findall(r'add_case_test\(\S+\s+"([^"]+)"\)', read(path))
        self.assertTrue(filters)
        for name in self.names[1]:
            self.assertTrue(any(re.search(f, name + "/manual_time") for f in filters), f"{name}: no case test")

    def test_the_changelog_maps_every_earlier_name_onto_a_listed_one(self):
        with open(os.path.join(os.path.dirname(__file__), "data", "names_size1_before_2026-11.txt")) as f:
            before = f.read().split()
        today = set(self.names[1])
        for old in before:
            # Size 1 only (README, Changelog): FFT2D's blocking sweeps moved to thin transforms.
            if re.match(r"L1/FFT2D/\w+_sweep/n:256x256/", old):
                continue
            self.assertIn(gbresults.renamed_2026_11(old), today, old)
        self.assertEqual(gbresults.renamed_2026_11("L0/Latency/pointer_chase/ws:1KiB/size:3/manual_time_median"),
                         "L0/MemoryHierarchy/pointer_chase/ws:1KiB/size:3/manual_time_median")
        self.assertEqual(gbresults.renamed_2026_11(self.names[1][0]), self.names[1][0])  # today's names stay


if __name__ == "__main__":
    unittest.main()
