# tools/results-page: the committed docs/RESULTS.md is what the committed docs/results/ makes, and the
# page picks up any new directory, says what is missing, and feeds a peers file to its sections.
"""Tests of tools/results-page on the committed results and on small synthetic directories."""

import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

from synthruns import TOOLS, context

TOOL = os.path.join(TOOLS, "results-page")
ROOT = os.path.dirname(TOOLS)


def page(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))


def entry(name, time_ms, noise=0.002, **counters):
    return {"name": name + "/manual_time", "run_name": name + "/manual_time", "run_type": "iteration",
            "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": time_ms,
            "cpu_time": 50.0, "time_unit": "ms", "noise": noise, "samples": 10.0, "converged": 1.0, **counters}


def run(scale=1.0):
    return {"context": context(device="Synthetic GPU A", git_revision="abc1234def"),
            "benchmarks": [entry("L0/Compute/mad/type:float/width:4/wg:256/size:3", 1.0 * scale,
                                 flop_per_second=1e13 / scale, primary_metric="flop_per_second"),
                           entry("L0/GlobalBandwidth/read/type:float4/access:coalesced/wg:256/size:3", 2.0 * scale,
                                 bytes_per_second=1e12 / scale, primary_metric="bytes_per_second")]}


class Committed(unittest.TestCase):
    def test_the_committed_page_is_what_the_committed_files_make(self):
        done = page("--check")
        self.assertEqual(done.returncode, 0, "docs/RESULTS.md is stale: run tools/results-page\n" + done.stderr)


class Synthetic(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="results-page-test.")
        self.results = os.path.join(self.tmp.name, "results")
        self.out = os.path.join(self.tmp.name, "RESULTS.md")

    def tearDown(self):
        self.tmp.cleanup()

    def put(self, directory, name, data, gz=False):
        os.makedirs(os.path.join(self.results, directory), exist_ok=True)
        path = os.path.join(self.results, directory, name)
        text = json.dumps(data)
        if gz:
            with gzip.open(path, "wt", encoding="utf-8") as handle:
                handle.write(text)
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)

    def make(self):
        done = page("--results", self.results, "--out", self.out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(self.out, encoding="utf-8") as handle:
            return handle.read()

    def test_a_new_directory_is_picked_up_and_missing_parts_are_named(self):
        self.put("gpu9-2026-12-01", "full.json.gz", run(), gz=True)
        text = self.make()
        self.assertIn("## Synthetic GPU A (gpu9-2026-12-01)", text)
        self.assertIn("revision abc1234", text)
        self.assertIn("No manifest.json", text)
        self.assertIn("Missing: no peers file", text)
        self.assertIn("Missing: one gpu_bench run", text)
        self.assertIn("10 TFLOP/s", text)
        for title in ("## NVIDIA H200", "## NVIDIA H100", "## PoCL, the CPU reference"):
            self.assertIn(title + "\n\nNo results committed", text)

    def test_the_newest_directory_is_the_standing_and_two_runs_make_the_run_to_run_table(self):
        self.put("gpu9-2026-12-01", "old.json", run())
        self.put("gpu9-2026-12-05", "a.json", run())
        self.put("gpu9-2026-12-05", "b.json", run(scale=1.02))
        self.put("gpu9-2026-12-05", "manifest.json",
                 {"files": {"a.json": {"command": "build/gpu_bench --benchmark_out=a.json", "wall_seconds": 12.5}}})
        text = self.make()
        self.assertIn("## Synthetic GPU A (gpu9-2026-12-05)", text)
        self.assertIn("- [gpu9-2026-12-01]", text)  # listed under the earlier results
        self.assertIn("`build/gpu_bench --benchmark_out=a.json`", text)
        self.assertIn("| a.json / b.json | 2 | 2.00% |", text)
        self.assertIn("| a.json | 12 s |", text)  # the wall time from the manifest (rounded)

    def test_a_peers_file_feeds_the_peers_table_and_the_clpeak_column(self):
        self.put("gpu9-2026-12-01", "suite.json", run())
        self.put("gpu9-2026-12-01", "peers.json", {
            "format": "gpu-bench-peers", "version": 1, "date": "2026-12-01T00:00:00+00:00",
            "peers": {"clpeak_float": {"label": "clpeak float (best vector width)", "library": "clpeak",
                                       "flop_per_second": 2e13},
                      "clpeak_read": {"label": "clpeak read", "missing": "clpeak printed no figure"}}})
        text = self.make()
        self.assertIn("`tools/peers table suite.json peers.json`:", text)
        self.assertIn("clpeak float (best vector width): 20 TFLOP/s | 0.500 |", text)
        self.assertIn("clpeak_read: clpeak printed no figure", text)

    def test_device_readings_make_the_conditions_table_and_a_conditions_run_stays_out_of_the_figures(self):
        readings = {"gpu_temperature_c": 41.0, "sm_clock_mhz": 1980.0, "power_w": 300.0}
        alone = run()
        alone["context"]["telemetry_source"] = "NVML 12.580 (00000000:00:06.0)"
        alone["context"]["gpu_memory_health"] = json.dumps({
            "remapped_rows_correctable": 2, "remapped_rows_uncorrectable": 0, "remapping_pending": 1,
            "remapping_failed": 0, "ecc_corrected_aggregate": 5, "ecc_uncorrected_aggregate": 0})
        for entry in alone["benchmarks"]:
            entry.update(readings)
        shared = run(scale=2.0)
        shared["context"].update(telemetry_source="NVML 12.580 (00000000:00:06.0)", device_condition_benchmarks=json.dumps(
            [{"name": shared["benchmarks"][0]["name"], "reason": "1 other process(es) on the GPU"}]))
        for entry in shared["benchmarks"]:
            entry.update(readings, gpu_other_processes=1.0)
        self.put("gpu9-2026-12-01", "alone.json", alone)
        self.put("gpu9-2026-12-01", "shared.json", shared)
        self.put("gpu9-2026-12-01", "manifest.json", {"files": {"shared.json": {
            "command": "gpu_bench ...", "role": "conditions", "what": "beside a second process"}}})
        text = self.make()
        self.assertIn("| alone.json | NVML 12.580 (00000000:00:06.0) | 2 | 41 °C (41-41) | 1980 MHz (1980-1980) "
                      "| absent | 300 W (300-300) | rows 2 / 0, remapping pending, ECC 5 / 0 | 0 / 0 / 0 / 0 |", text)
        self.assertIn("| shared.json (beside a second process) |", text)
        self.assertIn("| 300 W (300-300) | not recorded | 1 / 0 / 0 / 0 |", text)  # a run without the health record
        self.assertIn("| 1 / 0 / 0 / 0 |", text)
        self.assertIn("- shared.json, device: `L0/Compute/mad/type:float/width:4/wg:256/size:3`: "
                      "1 other process(es) on the GPU", text)
        self.assertIn("| FP32 multiply-add | 10 TFLOP/s |", text)  # the shared run's 5 TFLOP/s is not a figure
        self.assertNotIn("shared.json / alone.json", text)
        self.assertNotIn("alone.json / shared.json", text)

    def test_check_fails_when_the_page_differs(self):
        self.put("gpu9-2026-12-01", "full.json", run())
        text = self.make()
        self.assertEqual(page("--results", self.results, "--out", self.out, "--check").returncode, 0)
        with open(self.out, "w", encoding="utf-8") as handle:
            handle.write(text.replace("10 TFLOP/s", "11 TFLOP/s"))
        done = page("--results", self.results, "--out", self.out, "--check")
        self.assertEqual(done.returncode, 1)
        self.assertIn("run tools/results-page", done.stderr)
        self.assertIn("+", done.stderr)  # the diff

    def test_bad_input_is_one_line_and_exit_2(self):
        self.put("gpu9-2026-12-01", "odd.json", {"something": "else"})
        done = page("--results", self.results, "--out", self.out)
        self.assertEqual(done.returncode, 2)
        self.assertIn("neither a gpu_bench run, a peers file nor a reproducibility study", done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
