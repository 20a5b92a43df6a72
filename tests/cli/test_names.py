# test_names.py: every benchmark name follows the naming grammar (README, "Benchmark names") at
# every size class; a family's source, kernel file and case test share its name, and every kernel
# (attributes and macros included) is named after its file; the changelog's renames
# (tools/gbresults.py RENAMES_2026_11) map every earlier name onto a name listed today.
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


# Kernel declarations: `__kernel` or `kernel`, then attributes (`__attribute__((...))`, or macros in
# capitals such as REQD), `void`, more attributes, the name and `(`, over any number of lines. A
# kernel declared inside a #define (`void scan_##NAME##_tiles(`) is named once per invocation.
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
WORD = re.compile(r"\s*([A-Za-z_]\w*(?:\s*##\s*\w+)*)")


def code_of(text):
    """OpenCL C source without comments, continued lines joined."""
    return COMMENT.sub(" ", text.replace("\\\n", " "))


def kernel_declarations(code):
    """[(name or name template, offset)] of the kernels declared in code_of(text)."""
    found = []
    for keyword in re.finditer(r"\b(?:__kernel|kernel)\b", code):
        i, seen_void = keyword.end(), False
        while True:
            word = WORD.match(code, i)
            if not word:
                raise ValueError(f"unparsed kernel declaration: {code[keyword.start():][:120]!r}")
            token, i = re.sub(r"\s+", "", word.group(1)), word.end()
            if token in ("__attribute__", "__attribute"):  # skip its balanced parentheses
                i, depth = code.index("(", i), 0
                while True:
                    depth += {"(": 1, ")": -1}.get(code[i], 0)
                    i += 1
                    if depth == 0:
                        break
            elif token == "void":
                seen_void = True
            elif seen_void and code[i:].lstrip().startswith("("):
                found.append((token, keyword.start()))
                break
            elif not (token.isupper() or token in ("inline", "static")):
                raise ValueError(f"unparsed kernel declaration: {code[keyword.start():][:120]!r}")
    return found


def kernel_names(text):
    """The kernels a source text declares, with macro-declared ones named per invocation."""
    code, names = code_of(text), []
    for template, offset in kernel_declarations(code):
        if "##" not in template:
            names.append(template)
            continue
        define = list(re.finditer(r"#\s*define\s+(\w+)\(([^)]*)\)", code[:offset]))[-1]
        macro, params = define.group(1), [p.strip() for p in define.group(2).split(",")]
        calls = re.findall(rf"^\s*{macro}\(([^)]*)\)", code, re.M)
        if not calls:
            raise ValueError(f"{macro} declares {template} but is never invoked")
        for call in calls:
            args = dict(zip(params, (a.strip() for a in call.split(","))))
            names.append("".join(args.get(part, part) for part in template.split("##")))
    return names


def simple_kernel_count(text):
    """An independent count: `__kernel`/`kernel` words outside // comments, line by line."""
    return sum(len(re.findall(r"\b(?:__)?kernel\b", line.split("//")[0])) for line in text.splitlines())


class KernelNames(unittest.TestCase):
    """Every kernel is named after its file: <stem> or <stem>_<variant> (no device needed)."""

    def test_every_kernel_is_named_after_its_file(self):
        paths = sorted(glob.glob(f"{ROOT}/kernels/**/*.cl", recursive=True)
                       + glob.glob(f"{ROOT}/kernels/**/*.h", recursive=True))
        sites = simple = 0
        names = []
        for path in paths:
            text = read(path)
            sites += len(kernel_declarations(code_of(text)))
            simple += simple_kernel_count(text)
            stem = os.path.splitext(os.path.basename(path))[0]
            for kernel in kernel_names(text):
                names.append(kernel)
                self.assertTrue(kernel == stem or kernel.startswith(stem + "_"),
                                f"{path}: kernel {kernel} is not named {stem} or {stem}_...")
        # A declaration form the parser does not know fails here, not by being skipped.
        self.assertEqual(sites, simple, "kernel declarations parsed vs. `kernel` words counted")
        self.assertGreaterEqual(len(names), 113)  # 97 declarations, 16 more through macros

    def test_the_parser_knows_every_form(self):
        text = """
            __kernel void plain_a(int x) {}
            kernel void plain_b(int x) {}
            __kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
            void attributed_c(
                int x) {}
            __kernel REQD HINT void macro_attributes_d(int x) {}
            __kernel void __attribute__((vec_type_hint(float4))) after_void_e(int x) {}
            // __kernel void commented_out(int x) {}
            #define DECLARE(NAME, OP) \\
              __kernel __attribute__((reqd_work_group_size(64, 1, 1))) \\
              void pasted_##NAME##_f(int x) { OP; }
            DECLARE(one, x)
            DECLARE(two, x)
        """
        self.assertEqual(kernel_names(text), ["plain_a", "plain_b", "attributed_c", "macro_attributes_d",
                                              "after_void_e", "pasted_one_f", "pasted_two_f"])
        self.assertEqual(simple_kernel_count(text), len(kernel_declarations(code_of(text))))
        with self.assertRaises(ValueError):
            kernel_names("__kernel int not_a_kernel(int x) {}")


# Test hooks, listed only when asked for, and the test that runs them instead of a case test.
HOOKS = {"GPU_BENCH_SELFTEST_HANG": ("L0/SelfTest/", "cli.test_kernel_timeout"),
         "GPU_BENCH_SELFTEST_POISON": ("L0/SelfTest/poison_", "cli.test_poison")}


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

    def test_every_benchmark_has_a_case_test(self):
        filters = []
        for path in glob.glob(f"{ROOT}/tests/CMakeLists.txt") + glob.glob(f"{ROOT}/tests/cases/*.cmake"):
            filters += re.findall(r'add_case_test\(\S+\s+"([^"]+)"', read(path))
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
