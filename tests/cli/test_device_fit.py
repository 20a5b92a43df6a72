"""No problem shrinks to fit a device under the same name (issue #15): on PoCL with
POCL_MEMORY_LIMIT=1 (1 GiB of global memory, 256 MiB per buffer), the size-3 problems that do not
fit are skipped, each with the bytes it needs and the device's limit, and the ones that fit, one to
the byte, are listed under the names they have on any device.
Run with: GPU_BENCH=build/gpu_bench /usr/bin/python3 -m unittest -v test_device_fit"""
import json
import os
import re
import subprocess
import unittest

from cli_support import GPU_BENCH, require_device

# The families that used to halve their problem until it fitted.
SKIPPED = ["L0/Roofline", "L0/GlobalBandwidth", "L1/Reduction", "L1/Scan", "L1/BoxFilter", "L1/IntegralImage",
           "L2/LatticeBoltzmann", "L2/StableFluids"]
# At 1 GiB these fit: Transpose's 8192^2 floats are exactly CL_DEVICE_MAX_MEM_ALLOC_SIZE, two of them
# half the memory; Histogram's 16384^2 bytes the same; ImageRead's 4096^2 RGBA float image 256 MiB.
FITTING = ["L1/Transpose", "L1/Histogram", "L0/ImageRead"]
FILTER = "^(" + "|".join(SKIPPED + FITTING) + ")/"
LIMITS = ("CL_DEVICE_MAX_MEM_ALLOC_SIZE is 268435456 bytes (256 MiB)",
          "half of CL_DEVICE_GLOBAL_MEM_SIZE is 536870912 bytes (512 MiB)")


def listing(memory_limit_gb=None):
    env = dict(os.environ)
    env.pop("POCL_MEMORY_LIMIT", None)
    if memory_limit_gb:
        env["POCL_MEMORY_LIMIT"] = str(memory_limit_gb)
    p = subprocess.run([GPU_BENCH, "--size=3", "--benchmark_list_tests", "--progress=0", "--benchmark_filter=" + FILTER],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    if p.returncode != 0:
        raise AssertionError(p.stderr)
    names = [n.replace("/manual_time", "") for n in p.stdout.split()]
    skips = re.findall(r"^skipped (\S+): (.*)$", p.stderr, re.M)
    return names, skips


class DeviceFit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_device()
        env = dict(os.environ, POCL_MEMORY_LIMIT="1")
        devices = json.loads(subprocess.run([GPU_BENCH, "--list_devices=json"], stdout=subprocess.PIPE, text=True,
                                            env=env, timeout=60).stdout)
        first = devices[0]
        if first["platform"] != "Portable Computing Language" or first["max_alloc_bytes"] != 256 << 20:
            raise unittest.SkipTest("the default device is not PoCL honouring POCL_MEMORY_LIMIT")
        cls.names, cls.skips = listing(1)
        cls.all_names, _ = listing()

    def family(self, name):
        return "/".join(name.split("/")[:2])

    def test_problems_that_do_not_fit_are_skipped_with_the_bytes(self):
        skipped_families = {self.family(name) for name, _ in self.skips}
        self.assertEqual(skipped_families, set(SKIPPED))
        for name, reason in self.skips:
            self.assertRegex(reason, r"^needs (a buffer of )?\d+ bytes \(", name)
            self.assertTrue(reason.endswith(LIMITS), f"{name}: {reason}")

    def test_nothing_is_shrunk_to_fit(self):
        listed = {self.family(n) for n in self.names}
        self.assertEqual(listed, set(FITTING), "a family too large for 1 GiB still listed: shrunk to fit?")

    def test_names_are_those_of_any_device(self):
        self.assertTrue(self.names)
        self.assertEqual(set(self.names) - set(self.all_names), set())


if __name__ == "__main__":
    unittest.main()
