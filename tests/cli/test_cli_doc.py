"""docs/CLI.md documents every flag gpu_bench accepts (its own, from support/, and Google Benchmark's,
from --help), every exit code of support/cli.hpp and every environment variable gpu_bench reads."""
import os
import re
import unittest

from cli_support import run

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as handle:
        return handle.read()


def sources(*folders):
    for folder in folders:
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp")):
                    yield os.path.join(base, name), read(base, name)


class CliDoc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc = read("docs", "CLI.md")

    def documented(self, flag):
        """A flag is documented when CLI.md shows it in code: `--flag`, `--flag=...` or `--flag[...`."""
        return re.search(r"`" + re.escape(flag) + r"[`=\[ ]", self.doc) is not None

    def test_every_flag_of_support_is_documented(self):
        flags = set()
        for path, text in sources("support"):
            flags.update(re.findall(r'(?:a == |take_value\(a, |is_flag\(a, )"(-[-\w]+)"', text))
            flags.update(re.findall(r'"(--gb_\w+)="', text))
        self.assertIn("--size", flags)  # the patterns still find the parser's flags
        self.assertIn("--gb_child", flags)
        missing = sorted(f for f in flags if not self.documented(f))
        self.assertFalse(missing, "flags gpu_bench parses but docs/CLI.md does not show: " + ", ".join(missing))

    def test_every_flag_of_help_is_documented(self):
        done = run("--help", timeout=60)
        text = done.stdout + done.stderr
        flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z_]*)", text))
        self.assertIn("--benchmark_filter", flags, text[:2000])
        missing = sorted(f for f in flags if not self.documented(f))
        self.assertFalse(missing, "flags in gpu_bench --help that docs/CLI.md does not show: " + ", ".join(missing))

    def test_every_exit_code_is_documented(self):
        codes = {int(c) for c in re.findall(r"kExit\w+ = (\d+)", read("support", "cli.hpp"))}
        self.assertEqual(codes, {0, 1, 2, 3, 4, 5})
        rows = set(re.findall(r"^\| (\d+)[ ,|]", self.doc, re.MULTILINE))
        rows |= {c for line in re.findall(r"^\| ([\d, ]+) \|", self.doc, re.MULTILINE) for c in re.findall(r"\d+", line)}
        missing = sorted(c for c in codes | {129, 130, 143} if str(c) not in rows)
        self.assertFalse(missing, f"exit codes without a row in docs/CLI.md: {missing}")

    def test_every_environment_variable_is_documented(self):
        names = set()
        for path, text in sources("support", "bench"):
            names.update(re.findall(r'getenv\("(\w+)"\)', text))
        self.assertIn("GPU_BENCH_PHASES", names)
        missing = sorted(n for n in names if f"`{n}`" not in self.doc)
        self.assertFalse(missing, "environment variables gpu_bench reads that docs/CLI.md does not name: "
                         + ", ".join(missing))


if __name__ == "__main__":
    unittest.main()
