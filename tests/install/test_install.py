# test_install.py: `cmake --install` into a temporary prefix gives a gpu_bench that runs a case
# with its embedded kernels and result tools that run from bin/; `cpack -G DEB` gives a package
# holding both, whose Depends names the OpenCL ICD loader and libbenchmark (tools/install.cmake).
"""Run with: GPU_BENCH_BUILD_DIR=build /usr/bin/python3 -m unittest -v test_install"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ["GPU_BENCH_BUILD_DIR"]
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
os.environ.setdefault("GPU_BENCH", os.path.join(BUILD, "gpu_bench"))
from cli_support import require_device  # noqa: E402

TOOLS = ["gate", "report", "export", "summarize", "peers", "repro-study", "history"]  # at least these (tools/install.cmake)
with open(f"{ROOT}/CMakeLists.txt") as f:
    VERSION = re.search(r"project\(gpu_bench VERSION (\S+)", f.read()).group(1)
# One small case, as tests/cases/run_case.py runs them (no clock-ramp warm-up: 3 s on PoCL).
CASE = ["--benchmark_filter=^L0/Compute/mad/type:float/width:1/", "--size=1", "--max_time=0.01", "--warmup_s=0",
        "--min_sample_ms=1", "--min_samples=3", "--max_noise=100", "--progress=0", "--build_threads=1"]


def check(*command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, timeout=120, **kwargs).stdout


def local_imports(path):
    """Modules of tools/ (a .py file or a package folder) that a tool imports."""
    with open(path, errors="replace") as f:
        names = re.findall(r"^\s*(?:import|from)\s+(\w+)", f.read(), re.M)
    return {n for n in names if os.path.exists(f"{ROOT}/tools/{n}.py") or os.path.isdir(f"{ROOT}/tools/{n}")}


class InstalledTree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="gpu-bench-install-")
        cls.prefix = os.path.join(cls.tmp.name, "prefix")
        check("cmake", "--install", BUILD, "--prefix", cls.prefix)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def installed(self, *args):
        # Run from an empty folder: nothing is found beside the working directory or the source tree.
        return subprocess.run([os.path.join(self.prefix, "bin", args[0]), *args[1:]], capture_output=True,
                              text=True, timeout=120, cwd=self.tmp.name)

    def test_the_layout(self):
        self.assertTrue(os.access(f"{self.prefix}/bin/gpu_bench", os.X_OK))
        self.assertTrue(os.path.isfile(f"{self.prefix}/share/doc/gpu-bench/README.md"))
        self.assertTrue(glob.glob(f"{self.prefix}/share/doc/gpu-bench/docs/*.md"))
        tools = f"{self.prefix}/share/gpu-bench/tools"
        self.assertTrue(os.path.isfile(f"{tools}/gbresults.py"))
        for tool in TOOLS:
            link = f"{self.prefix}/bin/gpu-bench-{tool}"
            self.assertTrue(os.path.islink(link) and not os.path.isabs(os.readlink(link)), link)
            self.assertEqual(os.path.realpath(link), os.path.realpath(f"{tools}/{tool}"))
        sources = [os.path.join(d, f) for d, _, files in os.walk(tools) for f in files if not f.endswith(".pyc")]
        for source in sources:
            tool = os.path.relpath(source, tools)
            for module in local_imports(source):
                self.assertTrue(os.path.exists(f"{tools}/{module}.py") or os.path.isdir(f"{tools}/{module}"),
                                f"{tool} imports {module}: add it to GPU_BENCH_TOOL_MODULES")

    def test_kernels_are_embedded(self):
        with open(f"{self.prefix}/bin/gpu_bench", "rb") as f:
            binary = f.read()
        self.assertIn(b"__kernel", binary)
        self.assertNotIn(f"{ROOT}/kernels/".encode(), binary)

    def test_gpu_bench_runs_a_case(self):
        version = self.installed("gpu_bench", "--version")
        self.assertEqual(version.returncode, 0, version.stderr)
        self.assertIn(f"gpu-bench {VERSION} ", version.stdout)
        require_device()
        out = os.path.join(self.tmp.name, "case.json")
        done = self.installed("gpu_bench", *CASE, f"--benchmark_out={out}")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        with open(out) as f:
            runs = json.load(f)["benchmarks"]
        self.assertEqual(len(runs), 1, [r["name"] for r in runs])
        self.assertTrue(runs[0]["name"].startswith("L0/Compute/mad/type:float/width:1/"), runs[0]["name"])
        self.assertFalse(runs[0].get("error_occurred"), runs[0].get("error_message"))

    def test_a_tool_runs_from_bin(self):
        data = f"{ROOT}/tests/tools/data"
        done = self.installed("gpu-bench-gate", f"{data}/h100_fft_a.json", f"{data}/h100_fft_b.json")
        self.assertIn(done.returncode, (0, 1), done.stderr)  # 1: a regression found, still a verdict
        self.assertRegex(done.stdout, r"PASS|FAIL")
        # the installed studies give the H200's floors (docs/results/*/spread.json)
        done = self.installed("gpu-bench-gate", f"{data}/h200_fft_a.json", f"{data}/h200_fft_b.json")
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertIn("run-to-run floor from the study", done.stdout)
        self.assertIn("share/gpu-bench/docs/results/", done.stdout)


class DebianPackage(unittest.TestCase):
    def test_cpack_makes_a_deb(self):
        with tempfile.TemporaryDirectory(prefix="gpu-bench-deb-") as tmp:
            check("cpack", "-G", "DEB", "--config", f"{BUILD}/CPackConfig.cmake", "-B", tmp)
            debs = glob.glob(f"{tmp}/gpu-bench_*.deb")
            self.assertEqual(len(debs), 1, os.listdir(tmp))
            info, contents = check("dpkg-deb", "-I", debs[0]), check("dpkg-deb", "-c", debs[0])
        self.assertRegex(info, rf"(?m)^ Version: {re.escape(VERSION)}$")
        depends = re.search(r"(?m)^ Depends: (.*)$", info).group(1)
        for package in ("ocl-icd-libopencl1", "libbenchmark", "python3"):
            self.assertRegex(depends, rf"(^|, |\| ){package}", depends)
        self.assertRegex(contents, r" \./usr/bin/gpu_bench\n")
        for tool in TOOLS:
            self.assertRegex(contents, rf" \./usr/share/gpu-bench/tools/{tool}\n")
            self.assertRegex(contents, rf" \./usr/bin/gpu-bench-{tool} -> \.\./share/gpu-bench/tools/{tool}\n")
        self.assertIn("./usr/share/gpu-bench/tools/gbresults.py", contents)
        self.assertIn("./usr/share/doc/gpu-bench/README.md", contents)


if __name__ == "__main__":
    unittest.main()
