"""Helpers shared by the command-line tests: running gpu_bench ($GPU_BENCH), reading its JSON
strictly, and the device rule (no OpenCL device: skip, but fail under CI=true)."""
import json
import os
import subprocess
import unittest

GPU_BENCH = os.environ["GPU_BENCH"]


def run(*args, timeout=300, env=None):
    """gpu_bench with args; env adds to the environment."""
    return subprocess.run([GPU_BENCH, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, env=dict(os.environ, **env) if env else None)


def strict_load(path):
    def reject(name):
        raise ValueError("non-strict constant " + name)
    with open(path) as f:
        return json.load(f, parse_constant=reject)


def have_device():
    return run("--list_devices").stdout.count("\n") > 1


def require_device():
    """Skips the calling test (or class set-up) without a device; under CI=true that is a failure."""
    if have_device():
        return
    if os.environ.get("CI") == "true":
        raise AssertionError("no OpenCL device in CI")
    raise unittest.SkipTest("no OpenCL device")
