# test_peers.py: tools/peers without torch, CuPy, clpeak or a GPU: the table from synthetic suite runs
# and a synthetic peers file (best variant, ratios, goals, missing rows, sizes that differ), measure
# with stand-ins for torch and clpeak, missing peers recorded as missing, and bad input (exit 2).
"""Run with: /usr/bin/python3 -m unittest discover -s tests/tools -v"""

import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthruns as sr  # noqa: E402

FLOP, BYTES, COPY, ITEMS = "flop_per_second", "bytes_per_second", "copy_fraction", "items_per_second"
COPY_BW = 4.21e12
FFT1 = "L1/FFT/stockham/n:{n}/batch:{b}/dir:forward/size:3"

# name (without /manual_time): (metric, value, counters). Names as gpu_bench lists them at --size=3.
L0_SUITE = {
    "L0/Compute/mad/type:float/width:4/wg:256/size:3": (FLOP, 65.3e12, {}),
    "L0/Compute/mad/type:float/width:8/wg:256/size:3": (FLOP, 64.0e12, {}),
    "L0/Compute/mad/type:double/width:4/wg:256/size:3": (FLOP, 33.3e12, {}),
    "L0/Compute/mad/type:double/width:8/wg:256/size:3": (FLOP, 32.0e12, {}),
    "L0/GlobalBandwidth/read/type:float16/access:blocked/wg:256/size:3": (BYTES, 4.355e12, {}),
    "L0/GlobalBandwidth/read/type:float16/access:persistent/groups_per_cu:16/passes:4/wg:256/size:3":
        (BYTES, 4.57e12, {}),
    "L0/GlobalBandwidth/copy/type:float4/access:coalesced/wg:256/size:3": (BYTES, 4.10e12, {"buffer_bytes": 2 ** 30}),
    "L0/GlobalBandwidth/copy/type:float4/access:blocked/wg:256/size:3": (BYTES, 4.196e12, {"buffer_bytes": 2 ** 30}),
    "L0/GlobalBandwidth/copy/type:float4/access:tiles_transposed/tile:64/wg:16x16/size:3":
        (BYTES, 4.02e12, {"buffer_bytes": 2 ** 30}),
    "L0/GlobalBandwidth/copy/type:float4/access:tiles_transposed/tile:128/wg:32x8/size:3":
        (BYTES, 3.9e12, {"buffer_bytes": 2 ** 30}),
    "L0/Atomics/local/type:int/method:native/contention:1/size:3": (ITEMS, 3.84e12, {}),
    "L0/Atomics/local/type:int/method:native/contention:4/size:3": (ITEMS, 3.95e12, {}),  # not the ceiling's
}
L1_SUITE = {
    "L1/GEMM/regblock/type:float/m:8192/n:8192/k:8192/wg:16x16/size:3": (FLOP, 40.2e12, {}),
    "L1/GEMM/clblast/type:float/m:8192/n:8192/k:8192/size:3": (FLOP, 60e12, {}),  # a library: never the suite's
    "L1/GEMM/regblock/type:double/m:8192/n:8192/k:8192/wg:16x16/size:3": (FLOP, 14.9e12, {}),
    "L1/GEMM/mma/type:double/m:8192/n:8192/k:8192/warps:2x4/size:3": (FLOP, 39.1e12, {}),
    FFT1.format(n=16384, b=4096): (FLOP, 9.06e12, {}),
    "L1/FFT/vkfft/n:16384/batch:4096/dir:forward/size:3": (FLOP, 11.72e12, {}),
    "L1/FFT/stockham/n:16384/batch:4096/dir:inverse/size:3": (FLOP, 20e12, {}),  # inverse: not the row's
    FFT1.format(n=1048576, b=64): (FLOP, 9.33e12, {}),
    FFT1.format(n=1024, b=65536): (FLOP, 12.75e12, {}),
    FFT1.format(n=4096, b=16384): (FLOP, 13.86e12, {}),
    "L1/FFT2D/rows_cols_split/n:2048x2048/dir:forward/size:3": (FLOP, 6.98e12, {}),
    "L1/FFT2D/rows_cols_split/n:2048x2048/dir:forward/split:64x32/cols:32/radix:8/size:3": (FLOP, 7.16e12, {}),
    "L1/FFT2D/rows_cols_split/n:2048x2048/dir:forward/split:32x64/cols:64/radix:auto/size:3": (FLOP, 6.95e12, {}),
    "L1/FFT2D/vkfft/n:2048x2048/dir:forward/size:3": (FLOP, 8.14e12, {}),
    "L1/IntegralImage/rows_cols/out:sum/size:3": (COPY, 0.14, {}),
    "L1/IntegralImage/fused/out:sum/size:3": (COPY, 0.10, {}),
    "L1/IntegralImage/fused/out:sum_sq/size:3": (COPY, 0.50, {}),  # the squared sum: not the row's
    "L1/BoxFilter/separable/type:float/radius:15/wg:32x8/size:3": (COPY, 0.20, {}),
    "L1/BoxFilter/sliding/type:float/radius:15/wg:128/size:3": (COPY, 0.31, {}),
    "L1/BoxFilter/sliding/type:float/radius:31/wg:128/size:3": (COPY, 0.72, {}),
    "L1/Histogram/local_lanes/input:noise/size:3": (BYTES, 3.32e12, {"pixels": 2 ** 28}),
    "L1/Histogram/local/input:noise/size:3": (BYTES, 2.2e12, {"pixels": 2 ** 28}),
    "L1/Histogram/local/input:flat/size:3": (BYTES, 4.4e12, {"pixels": 2 ** 28}),  # not noise
    "L1/Scan/lookback_window/type:int/window:32/items:32/walk:tree/size:3": (BYTES, 3.94e12, {"elements": 2 ** 28}),
    "L1/Scan/lookback_window/type:float/window:32/items:32/walk:tree/size:3": (BYTES, 3.95e12, {"elements": 2 ** 27}),
    "L1/Transpose/tiled_padded/wg:64x2/size:3": (BYTES, 3.75e12, {"width": 8192, "height": 8192}),
    "L1/Transpose/tiled_padded/wg:16x16/size:3": (BYTES, 3.5e12, {"width": 8192, "height": 8192}),
    "L2/StableFluids/jacobi/iterations:40/wg:128x2/size:3": (COPY, 0.68, {}),
    "L2/StableFluids/jacobi/iterations:40/wg:auto/size:3": (COPY, 0.60, {}),
    "L2/LatticeBoltzmann/D3Q19/wg:auto/size:3": (COPY, 0.904, {}),
}
ERRORED = "L1/BoxFilter/sliding/type:rgba8/radius:15/wg:128/size:3"

PEERS = {
    "cublas_sgemm": {"label": "cuBLAS SGEMM 8192^3, TF32 off", "library": "torch 2.11.0",
                     "problem": {"m": 8192, "n": 8192, "k": 8192}, FLOP: 51.2e12},
    "cufft_1d_16384x4096": {"label": "cuFFT 1-D", "library": "torch 2.11.0", "problem": {"n": 16384, "batch": 4096},
                            FLOP: 10.81e12},
    "cufft_1d_1048576x64": {"label": "cuFFT 1-D", "problem": {"n": 1048576, "batch": 64}, FLOP: 8.33e12},
    "cufft_1d_1024x65536": {"label": "cuFFT 1-D", "problem": {"n": 1024, "batch": 65536}, FLOP: 12.0e12},
    "cufft_2d_2048x2048": {"label": "cuFFT 2-D", "problem": {"nx": 2048, "ny": 2048}, FLOP: 8.57e12},
    "cufft_2d_4096x4096": {"label": "cuFFT 2-D", "problem": {"nx": 4096, "ny": 4096}, FLOP: 9.47e12},
    "cublas_dgemm": {"label": "DGEMM 8192^3", "library": "torch 2.11.0", "problem": {"m": 8192, "n": 8192, "k": 8192},
                     FLOP: 57.1e12},
    "fp64_tensor_peak": {"label": "FP64 tensor-core peak", "library": "CuPy 13", FLOP: 66.0e12},
    "cumsum_int": {"label": "cumsum int", "problem": {"elements": 2 ** 28}, BYTES: 2.5e12},
    "cumsum_float": {"label": "cumsum float", "problem": {"elements": 2 ** 28}, BYTES: 2.5e12},
    "transpose": {"label": "transpose", "problem": {"width": 8192, "height": 8192}, BYTES: 3.6e12,
                  "call": "cupy.cublas.geam('T', 'T', 1, x, 0, x) (cuBLAS)"},
    "histogram": {"label": "histogram", "problem": {"pixels": 2 ** 28}, "missing": "torch: no bincount today"},
    "cuda_copy": {"label": "device copy", "problem": {"buffer_bytes": 2 ** 30}, BYTES: 4.249e12},
    "clpeak_float": {"label": "clpeak float", "library": "clpeak", FLOP: 64.5e12},
    "clpeak_double": {"label": "clpeak double", "library": "clpeak", FLOP: 32.9e12},
    "clpeak_read": {"label": "clpeak read", "library": "clpeak", BYTES: 4.457e12},
}  # cufft_1d_4096x16384 left out: a peer the file does not hold


def entries(suite):
    out = []
    for name, (metric, value, counters) in suite.items():
        counters = dict(counters)
        if metric == COPY:
            counters[COPY] = value
            metric, value = BYTES, value * COPY_BW
        out += sr.measured(name + "/manual_time", [1e15 / value], work={metric: 1e6}, counters=counters)
    return out


def peers_file(path, peers=PEERS, **extra):
    data = {"format": "gpu-bench-peers", "version": 1, "date": "2026-11-24T12:00:00+00:00", "device": "NVIDIA H200",
            "backends": {"torch 2.11.0": "NVIDIA H200"}, "peers": peers}
    data.update(extra)
    with open(path, "w") as handle:
        json.dump(data, handle)
    return path


class Table(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        ctx = sr.context(device="NVIDIA H200", copy_bytes_per_second=COPY_BW)
        cls.l0 = sr.write_run(os.path.join(d, "l0.json"), entries(L0_SUITE), ctx)
        errored = sr.bench(ERRORED + "/manual_time", [1.0], error="verification failed: max rel error 0.5")
        cls.l1 = sr.write_run(os.path.join(d, "l1.json"), entries(L1_SUITE) + errored, ctx)
        cls.peers = peers_file(os.path.join(d, "peers.json"))
        cls.out = os.path.join(d, "table.json")
        cls.done = sr.run_tool("peers", "table", cls.l0, cls.l1, cls.peers, "--json", cls.out)
        assert cls.done.returncode == 0, cls.done.stderr
        with open(cls.out) as handle:
            cls.rows = {r["id"]: r for r in json.load(handle)["rows"]}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, rid, suite, ratio, verdict, peer=None):
        row = self.rows[rid]
        self.assertEqual(row["suite_benchmark"], suite, rid)
        self.assertAlmostEqual(row["ratio"], ratio, delta=ratio * 1e-6, msg=rid)
        self.assertEqual(row["verdict"], verdict, rid)
        if peer:
            self.assertIn(peer, row["peer"], rid)

    def test_best_variant_and_ratio(self):
        self.check("sgemm", "L1/GEMM/regblock/type:float/m:8192/n:8192/k:8192/wg:16x16/size:3", 40.2 / 51.2, "MISSED",
                   "cuBLAS")  # CLBlast's 60 TFLOP/s is a library inside gpu_bench, not the suite's kernel
        split = "L1/FFT2D/rows_cols_split/n:2048x2048/dir:forward/split:64x32/cols:32/radix:8/size:3"
        self.check("fft2d_2048_cufft", split, 7.16 / 8.57, "MISSED")  # VkFFT's 8.14 is a peer, not the suite's
        self.check("fft2d_2048_vkfft", split, 7.16 / 8.14, "MISSED", "L1/FFT2D/vkfft/n:2048x2048/dir:forward/size:3")
        self.check("fft1d_16384_vkfft", FFT1.format(n=16384, b=4096), 9.06 / 11.72, "MISSED", "VkFFT")
        self.check("fft1d_16384_cufft", FFT1.format(n=16384, b=4096), 9.06 / 10.81, "MISSED", "cuFFT")
        self.check("fft1d_1048576_cufft", FFT1.format(n=1048576, b=64), 9.33 / 8.33, "met")
        self.check("transpose", "L1/Transpose/tiled_padded/wg:64x2/size:3", 3.75 / 3.6, "met")
        self.check("scan_int", "L1/Scan/lookback_window/type:int/window:32/items:32/walk:tree/size:3", 3.94 / 2.5,
                   "met")

    def test_peaks_and_bandwidth_rows(self):
        # DGEMM against cuBLAS: the mma variant (FP64 tensor cores), both sides under the tensor peak.
        mma = "L1/GEMM/mma/type:double/m:8192/n:8192/k:8192/warps:2x4/size:3"
        self.check("dgemm", mma, 39.1 / 57.1, "MISSED", "DGEMM")
        self.assertAlmostEqual(self.rows["dgemm"]["suite_of_limit"], 39.1 / 66.0)
        self.assertAlmostEqual(self.rows["dgemm"]["peer_of_limit"], 57.1 / 66.0)
        self.check("fp32_peak", "L0/Compute/mad/type:float/width:4/wg:256/size:3", 65.3 / 64.5, "met", "clpeak")
        self.check("fp64_peak", "L0/Compute/mad/type:double/width:4/wg:256/size:3", 33.3 / 32.9, "met")
        persistent = "L0/GlobalBandwidth/read/type:float16/access:persistent/groups_per_cu:16/passes:4/wg:256/size:3"
        self.check("read", persistent, 4.57 / 4.457, "met")
        self.check("histogram_read", "L1/Histogram/local_lanes/input:noise/size:3", 3.32 / 4.57, "bounded", persistent)
        self.check("copy", "L0/GlobalBandwidth/copy/type:float4/access:blocked/wg:256/size:3", 4.196 / 4.249,
                   "MISSED")  # 0.988 < 0.99

    def test_ceilings(self):
        # The histogram's goal (0.90 of read) is above the local atomic rate over the read peak: bounded.
        row = self.rows["histogram_read"]
        self.assertEqual(row["verdict"], "bounded")
        self.assertAlmostEqual(row["ceiling"], 3.84 / 4.57, delta=1e-6)
        self.assertEqual(row["ceiling_benchmark"], "L0/Atomics/local/type:int/method:native/contention:1/size:3")
        self.assertIn("local atomic", row["note"])
        self.assertIn(f"reaches {3.32 / 3.84:.3f} of it", row["note"])
        # Met rows keep their verdict; the scan's ceiling is the best copy over the peer, the
        # transpose's the best copy in its tiles' pattern (not the faster plain copy).
        self.assertEqual(self.rows["transpose"]["verdict"], "met")
        self.assertAlmostEqual(self.rows["transpose"]["ceiling"], 4.02 / 3.6, delta=1e-6)
        self.assertEqual(self.rows["transpose"]["ceiling_benchmark"],
                         "L0/GlobalBandwidth/copy/type:float4/access:tiles_transposed/tile:64/wg:16x16/size:3")
        # Rows without a ceiling have none.
        self.assertIsNone(self.rows["sgemm"]["ceiling"])
        line = next(l for l in self.done.stdout.splitlines() if l.startswith("| histogram on noise vs read"))
        self.assertIn(f"| {3.32 / 4.57:.3f} | - | - | {3.84 / 4.57:.3f} | >= 0.90 | bounded: the goal is above", line)

    def test_a_ceiling_below_the_goal_bounds_only_that_row(self):
        peers = dict(PEERS)
        peers["cumsum_int"] = dict(PEERS["cumsum_int"], **{BYTES: 3.0e12})  # ceiling 4.196 / 3.0 = 1.399 < 1.5
        peers["transpose"] = dict(PEERS["transpose"], **{BYTES: 3.9e12})    # ceiling 1.031 >= 1.0: missed
        path = peers_file(os.path.join(self.tmp.name, "peers_fast.json"), peers)
        out = os.path.join(self.tmp.name, "table_fast.json")
        done = sr.run_tool("peers", "table", self.l0, self.l1, path, "--json", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            rows = {r["id"]: r for r in json.load(handle)["rows"]}
        self.assertEqual(rows["scan_int"]["verdict"], "bounded")
        self.assertAlmostEqual(rows["scan_int"]["ceiling"], 4.196 / 3.0, delta=1e-6)
        self.assertIn("L0/GlobalBandwidth/copy/type:float4/access:blocked", rows["scan_int"]["note"])
        self.assertEqual(rows["transpose"]["verdict"], "MISSED")
        self.assertAlmostEqual(rows["transpose"]["ratio"], 3.75 / 3.9, delta=1e-6)

    def test_the_transpose_is_bounded_by_its_tiles_pattern(self):
        peers = dict(PEERS)
        peers["transpose"] = dict(PEERS["transpose"], **{BYTES: 4.1e12})  # tiles 4.02 / 4.1 = 0.980 < 1.0
        path = peers_file(os.path.join(self.tmp.name, "peers_tiles.json"), peers)
        out = os.path.join(self.tmp.name, "table_tiles.json")
        done = sr.run_tool("peers", "table", self.l0, self.l1, path, "--json", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            row = {r["id"]: r for r in json.load(handle)["rows"]}["transpose"]
        self.assertEqual(row["verdict"], "bounded")  # though the plain copy's 4.196 / 4.1 = 1.023 is above 1.0
        self.assertAlmostEqual(row["ceiling"], 4.02 / 4.1, delta=1e-6)
        self.assertIn("tiled transpose's pattern", row["note"])
        self.assertIn(f"reaches {3.75 / 4.02:.3f} of it", row["note"])

    def test_copy_fraction_rows(self):
        self.check("integral_image", "L1/IntegralImage/rows_cols/out:sum/size:3", 0.14, "MISSED", "copy bandwidth")
        self.check("box_float_r15", "L1/BoxFilter/sliding/type:float/radius:15/wg:128/size:3", 0.31, "MISSED")
        self.check("box_float_r31", "L1/BoxFilter/sliding/type:float/radius:31/wg:128/size:3", 0.72, "met")
        self.check("stable_fluids", "L2/StableFluids/jacobi/iterations:40/wg:128x2/size:3", 0.68, "MISSED")
        self.check("lbm_d3q19", "L2/LatticeBoltzmann/D3Q19/wg:auto/size:3", 0.904, "met")
        self.assertAlmostEqual(self.rows["stable_fluids"]["peer_value"], COPY_BW)

    def test_missing_rows_and_peers(self):
        rows = self.rows
        self.assertEqual((rows["fft2d_4096_cufft"]["verdict"], rows["fft2d_4096_cufft"]["note"]),
                         ("missing", "not in this run"))
        self.assertEqual(rows["lbm_d2q9"]["note"], "not in this run")
        self.assertEqual(rows["box_rgba8_r31"]["note"], "not in this run")
        self.assertIn("errored in this run: " + ERRORED, rows["box_rgba8_r15"]["note"])
        self.assertEqual(rows["histogram_library"]["verdict"], "missing")
        self.assertIn("peer not measured: torch: no bincount today", rows["histogram_library"]["note"])
        self.assertIsNone(rows["histogram_library"]["ratio"])
        self.assertIn("cufft_1d_4096x16384 not in peers.json", rows["fft1d_4096_cufft"]["note"])
        # a suite problem that is not the peer's: no verdict on it
        self.assertEqual(rows["scan_float"]["verdict"], "sizes differ")
        self.assertIn("elements 134217728 / 268435456", rows["scan_float"]["note"])

    def test_markdown(self):
        out = self.done.stdout
        self.assertIn("| row | suite benchmark", out)
        line = next(l for l in out.splitlines() if l.startswith("| SGEMM"))
        self.assertIn("| 40.2 TFLOP/s |", line)
        self.assertIn("| 51.2 TFLOP/s |", line)
        self.assertIn(f"| 0.785 | {40.2 / 65.3:.2f} of FP32 | {51.2 / 65.3:.2f} of FP32 | - | >= 0.90 | MISSED |", line)
        line = next(l for l in out.splitlines() if l.startswith("| transpose"))
        self.assertIn(f"| {4.02 / 3.6:.3f} | >= 1.00 | met |", line)
        self.assertIn("flagged: a side above its limit or a weak peer", out)
        self.assertIn("FFT 2-D 4096^2 vs cuFFT | - |", out)
        self.assertRegex(out, r"\d+ rows: .*\d+ met.*\d+ missing")
        self.assertEqual(len([l for l in out.splitlines() if l.startswith("| ")]), 1 + len(self.rows))

    def test_a_peer_slowed_by_an_extra_pass_is_flagged(self):
        """cuFFT through torch's out= (a copy after the transform) as the peers file once held it: half its
        speed, below half the copy bandwidth, so the rows are flagged and not counted as met. The 2^20 row's
        peer, at 0.55 of its two-pass limit, is within what the bandwidth can tell; measure's second route
        (CuPy) is what catches it."""
        suite = {FFT1.format(n=1024, b=65536): 12.86e12, FFT1.format(n=4096, b=16384): 13.96e12,
                 FFT1.format(n=16384, b=4096): 12.32e12, FFT1.format(n=1048576, b=64): 9.36e12,
                 "L1/FFT2D/rows_cols_multi/n:2048x2048/dir:forward/size:3": 9.20e12,
                 "L1/FFT2D/rows_cols_multi/n:4096x4096/dir:forward/size:3": 10.08e12}
        table_says = {"cufft_1d_1024x65536": 2.008, "cufft_1d_4096x16384": 1.825, "cufft_1d_16384x4096": 1.664,
                      "cufft_1d_1048576x64": 1.277, "cufft_2d_2048x2048": 1.382, "cufft_2d_4096x4096": 1.400}
        peers = {}
        for (name, value), (pid, ratio) in zip(suite.items(), table_says.items()):
            peers[pid] = {"label": "cuFFT", "library": "torch 2.11.0", FLOP: value / ratio}
        d = self.tmp.name
        run = sr.write_run(os.path.join(d, "fft.json"), entries({n: (FLOP, v, {}) for n, v in suite.items()}),
                           sr.context(device="NVIDIA H200", copy_bytes_per_second=4.24e12))
        out = os.path.join(d, "old_fft.json")
        done = sr.run_tool("peers", "table", run, peers_file(os.path.join(d, "old_peers.json"), peers),
                           "--json", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            rows = {r["id"]: r for r in json.load(handle)["rows"]}
        for rid in ("fft1d_1024_cufft", "fft1d_4096_cufft", "fft1d_16384_cufft", "fft2d_2048_cufft",
                    "fft2d_4096_cufft"):
            self.assertEqual(rows[rid]["verdict"], "weak peer", rows[rid])
            self.assertIn("the peer at 0.", rows[rid]["note"])
            self.assertLess(rows[rid]["peer_of_limit"], 0.5)
        self.assertAlmostEqual(rows["fft1d_1024_cufft"]["peer_of_limit"], 12.86e12 / 2.008 * 16 / 50 / 4.24e12)
        self.assertAlmostEqual(rows["fft1d_1048576_cufft"]["peer_of_limit"], 9.36e12 / 1.277 * 32 / 100 / 4.24e12)
        self.assertEqual(rows["fft1d_1048576_cufft"]["verdict"], "met")
        self.assertRegex(done.stdout, r"\(5 flagged: a side above its limit or a weak peer")

    def test_a_side_above_its_limit_is_flagged(self):
        peers = dict(PEERS)
        peers["cublas_sgemm"] = dict(PEERS["cublas_sgemm"], **{FLOP: 70e12})  # above the FP32 peak of 65.3
        d = self.tmp.name
        out = os.path.join(d, "above.json")
        done = sr.run_tool("peers", "table", self.l0, self.l1, peers_file(os.path.join(d, "above_peers.json"), peers),
                           "--json", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            rows = {r["id"]: r for r in json.load(handle)["rows"]}
        self.assertEqual(rows["sgemm"]["verdict"], "above the limit")
        self.assertIn("the peer at 1.07 of FP32 FMA peak", rows["sgemm"]["note"])

    def test_older_names_are_renamed(self):
        """A run from before the 2026-11 rename (the H200 FFT runs kept under data/) lines up."""
        data = os.path.join(sr.HERE, "data", "h200_fft_a.json")
        out = os.path.join(self.tmp.name, "old.json")
        done = sr.run_tool("peers", "table", data, self.peers, "--json", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            rows = {r["id"]: r for r in json.load(handle)["rows"]}
        row = rows["fft2d_2048_vkfft"]  # rows_cols_split_sweep/.../radix:8 was the best forward 2048^2
        self.assertEqual(row["suite_benchmark"],
                         "L1/FFT2D/rows_cols_split/n:2048x2048/dir:forward/split:64x32/cols:32/radix:8/size:3")
        self.assertIn("L1/FFT2D/vkfft/n:2048x2048/dir:forward/size:3", row["peer"])
        self.assertAlmostEqual(row["ratio"], 7161514963367.688 / 8137546205147.991)
        self.assertEqual(rows["sgemm"]["note"], "not in this run")

    def test_bad_input(self):
        d = self.tmp.name
        notjson = os.path.join(d, "bad.txt")
        with open(notjson, "w") as handle:
            handle.write("{ not json")
        other = os.path.join(d, "other.json")
        with open(other, "w") as handle:
            json.dump({"foo": 1}, handle)
        badpeers = peers_file(os.path.join(d, "badpeers.json"), peers=[1, 2])
        badvalue = peers_file(os.path.join(d, "badvalue.json"), peers={"cuda_copy": {BYTES: "fast"}})
        cases = [
            ("table", self.l1, os.path.join(d, "absent.json")),  # no such file
            ("table", self.l1, notjson),
            ("table", self.l1),                                   # no peers file
            ("table", self.peers),                                # no suite run
            ("table", self.l1, self.peers, self.peers),           # two peers files
            ("table", self.l1, other, self.peers),
            ("table", self.l1, badpeers),
            ("table", self.l1, badvalue),
            ("table", self.l1, self.peers, "--json", os.path.join(d, "no", "dir.json")),
            ("table",), ("nonsense",), (),
            ("measure", os.path.join(d, "m.json"), "--samples", "5"),
            ("measure", os.path.join(d, "m.json"), "--only", "("),
            ("measure", os.path.join(d, "no", "m.json")),
        ]
        for args in cases:
            done = sr.run_tool("peers", *args)
            self.assertEqual(done.returncode, 2, (args, done.stdout, done.stderr))
            self.assertEqual(len(done.stderr.strip().splitlines()), 1, (args, done.stderr))
            self.assertNotIn("Traceback", done.stderr)


# ---------------------------------------------------------------- measure, with stand-ins

FAKE_TORCH = '''
"""A stand-in for torch in tests: every call advances a simulated device clock by its cost."""
import types
__version__ = "0.0-fake"
version = types.SimpleNamespace(cuda="0.0")
complex64, int32, uint8, float32 = "complex64", "int32", "uint8", "float32"
COST = {"matmul": 0.02, "fft": 1e-4, "fft2": 5e-5, "cumsum": 3e-4, "copy": 5e-4, "box": 1e-3, "conv": 4e-4, "pad": 1e-4}
_clock = [0.0]
class Tensor:
    def __init__(self, dtype="float32"):
        self.dtype = dtype
    def t(self):
        return self
    def copy_(self, other):
        _clock[0] += COST["copy"]
        return self
def _new(*shape, dtype="float32", device=None):
    assert device == "cuda"
    return Tensor(dtype)
rand = randn = empty = _new
def randint(low, high, size, dtype="int64", device=None):
    return Tensor(dtype)
def empty_like(x):
    return Tensor(x.dtype)
def _op(name):
    def call(*args, out=None, **kwargs):
        _clock[0] += COST[name]
        return out or Tensor()
    return call
matmul, cumsum = _op("matmul"), _op("cumsum")
fft = types.SimpleNamespace(fft=_op("fft"), fft2=_op("fft2"))
Tensor.contiguous = lambda self: _op("copy")()
full = _new
nn = types.SimpleNamespace(functional=types.SimpleNamespace(avg_pool2d=_op("box"), conv2d=_op("conv"), pad=_op("pad")))
def bincount(x, minlength=0):
    raise RuntimeError("fake: no bincount for uint8\\nsecond line")
def set_float32_matmul_precision(precision):
    pass
backends = types.SimpleNamespace(cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(allow_tf32=True)),
                                 cudnn=types.SimpleNamespace(allow_tf32=True))
class Event:
    def __init__(self, enable_timing=False):
        self.at = None
    def record(self):
        self.at = _clock[0]
    def synchronize(self):
        pass
    def elapsed_time(self, end):
        return (end.at - self.at) * 1e3
cuda = types.SimpleNamespace(is_available=lambda: True, get_device_name=lambda index=0: "Fake GPU", Event=Event,
                             synchronize=lambda: None, _sleep=lambda cycles: None, empty_cache=lambda: None)
'''

FAKE_CUPY = '''
"""A stand-in for CuPy: cuFFT twice as fast as the torch stand-in's, every other call missing."""
import types
__version__ = "0.0-fake"
float32, complex64, float64, int32 = "float32", "complex64", "float64", int
_clock = [0.0]
class Array:
    def astype(self, dtype):
        return self
    def __add__(self, other):
        return self
    __radd__ = __rmul__ = __mul__ = __add__
def _fft(x, **kwargs):
    _clock[0] += 5e-5
    return x
fft = types.SimpleNamespace(fft=_fft, fft2=_fft)
random = types.SimpleNamespace(rand=lambda *shape, dtype=None: Array())
zeros = random.rand
class Event:
    def record(self):
        self.at = _clock[0]
    def synchronize(self):
        pass
def get_elapsed_time(start, end):
    return (end.at - start.at) * 1e3
def _properties(index):
    return {"name": b"Fake GPU", "multiProcessorCount": 1}
cuda = types.SimpleNamespace(Event=Event, get_elapsed_time=get_elapsed_time,
                             runtime=types.SimpleNamespace(getDeviceCount=lambda: 1, getDeviceProperties=_properties,
                                                           deviceSynchronize=lambda: None))
def get_default_memory_pool():
    return types.SimpleNamespace(free_all_blocks=lambda: None)
def RawKernel(*args, **kwargs):
    raise RuntimeError("fake: no NVRTC")
'''

FAKE_CLINFO = """#!/bin/sh
echo 'Platform #0: Portable Computing Language'
echo ' `-- Device #0: cpu'
echo 'Platform #1: NVIDIA CUDA'
echo ' `-- Device #0: NVIDIA H200'
"""

# clpeak 1.1.2's console output and XML dump (taken from a real run on PoCL, figures changed)
FAKE_CLPEAK = """#!/bin/sh
echo "$@" > "$(dirname "$0")/clpeak.args"
xml=""
while [ $# -gt 0 ]; do [ "$1" = -f ] && xml=$2; shift; done
cat <<'TXT'
Platform: NVIDIA CUDA
  Device: NVIDIA H200
    Driver version  : 580.159.04 (Linux x64)
    Compute units   : 132
    Clock frequency : 1980 MHz

    Global memory bandwidth (GBPS)
      float   : 4139.40
      float16 : 4457.00

    Single-precision compute (GFLOPS)
      float   : 16000.00
      float4  : 64500.00

    No half precision support! Skipped

    Double-precision compute (GFLOPS)
      double   : 32900.00
      double2  : 32800.00
TXT
[ -n "$xml" ] && [ -z "$NO_XML" ] && cat > "$xml" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<clpeak os="Linux x64">
  <platform name="NVIDIA CUDA">
    <device name="NVIDIA H200" driver_version="580.159.04" compute_units="132" clock_frequency="1980"
            clock_frequency_unit="MHz">
      <global_memory_bandwidth unit="gbps">
        <float>4139.4</float>
        <float16>4457</float16>
      </global_memory_bandwidth>
      <single_precision_compute unit="gflops">
        <float>16000</float>
        <float4>64500</float4>
      </single_precision_compute>
      <double_precision_compute unit="gflops">
        <double>32900</double>
        <double2>32800</double2>
      </double_precision_compute>
    </device>
  </platform>
</clpeak>
XML
exit 0
"""


class Measure(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name
        self.bin = os.path.join(self.dir, "bin")
        os.mkdir(self.bin)
        for name, text in (("clinfo", FAKE_CLINFO), ("clpeak", FAKE_CLPEAK)):
            path = os.path.join(self.bin, name)
            with open(path, "w") as handle:
                handle.write(text)
            os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        self.fakes = os.path.join(self.dir, "site")
        for module, text in (("torch", FAKE_TORCH), ("cupy", "raise ImportError('no CuPy in this test')\n")):
            os.makedirs(os.path.join(self.fakes, module))
            with open(os.path.join(self.fakes, module, "__init__.py"), "w") as handle:
                handle.write(text)

    def measure(self, *args, path=None, torch=True, **env):
        out = os.path.join(self.dir, "peers.json")
        environ = dict(os.environ, PATH=path if path is not None else self.bin + os.pathsep + os.environ["PATH"],
                       PYTHONPATH=self.fakes, **env)
        if not torch:
            with open(os.path.join(self.fakes, "torch", "__init__.py"), "w") as handle:
                handle.write("raise ImportError('no torch in this test')\n")
        done = subprocess.run([os.path.join(sr.TOOLS, "peers"), "measure", out, *args], capture_output=True,
                              text=True, timeout=60, env=environ)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        with open(out) as handle:
            return json.load(handle), done.stderr

    def test_figures_from_cuda_events_and_clpeak(self):
        data, err = self.measure()
        self.assertEqual(data["format"], "gpu-bench-peers")
        self.assertEqual(data["device"], "Fake GPU")
        peers = data["peers"]
        sgemm = peers["cublas_sgemm"]
        self.assertAlmostEqual(sgemm["seconds"], 0.02)
        self.assertAlmostEqual(sgemm[FLOP], 2 * 8192 ** 3 / 0.02, delta=1e3)
        self.assertEqual((sgemm["batch"], sgemm["samples"]), (1, 15))
        fft = peers["cufft_1d_1024x65536"]  # 0.1 ms a call: a batch of about 20 calls per sample
        self.assertAlmostEqual(fft["seconds"], 1e-4)
        self.assertGreaterEqual(fft["batch"], 20)
        self.assertAlmostEqual(fft[FLOP], 5 * 1024 * 10 * 65536 / 1e-4, delta=1e3)
        self.assertAlmostEqual(peers["cufft_2d_2048x2048"][FLOP], 5 * 2048 ** 2 * 22 / 5e-5, delta=1e3)
        self.assertAlmostEqual(peers["cumsum_int"][BYTES], 8 * 2 ** 28 / 3e-4, delta=1e3)
        self.assertAlmostEqual(peers["cuda_copy"][BYTES], 2 * 2 ** 30 / 5e-4, delta=1e3)
        self.assertEqual(peers["transpose"]["problem"], {"width": 8192, "height": 8192})
        self.assertEqual(peers["transpose"]["call"], "x.t().contiguous()")
        # every call is measured and kept; the fastest is the figure (two convolutions beat avg_pool2d)
        box = peers["box_float_r15"]
        self.assertEqual(box["call"], "torch.nn.functional.conv2d 1x31 then 31x1 (cuDNN)")
        self.assertAlmostEqual(box["seconds"], 8e-4)
        self.assertAlmostEqual(box["calls"]["torch.nn.functional.avg_pool2d(x, 31, 1, 15)"]["seconds"], 1e-3)
        self.assertIn("no CuPy in this test", box["calls"]["cupyx.scipy.ndimage.uniform_filter(x, 31)"]["missing"])
        # a peer torch fails, with no CuPy to fall back on: missing, with both reasons on one line
        self.assertIn("fake: no bincount for uint8", peers["histogram"]["missing"])
        self.assertIn("no CuPy in this test", peers["histogram"]["missing"])
        self.assertIn("histogram not measured", err)
        self.assertIn("no CuPy in this test", peers["fp64_tensor_peak"]["missing"])
        # clpeak on the NVIDIA platform that clinfo lists second, best width of each test
        with open(os.path.join(self.bin, "clpeak.args")) as handle:
            self.assertTrue(handle.read().startswith("-p 1 -d 0 --compute-sp --compute-dp --global-bandwidth"))
        self.assertEqual(peers["clpeak_float"][FLOP], 64500e9)
        self.assertEqual(peers["clpeak_double"][FLOP], 32900e9)
        self.assertEqual((peers["clpeak_read"][BYTES], peers["clpeak_read"]["width"]), (4457e9, "float16"))

    def test_two_routes_to_one_library_that_disagree_are_reported(self):
        with open(os.path.join(self.fakes, "cupy", "__init__.py"), "w") as handle:
            handle.write(FAKE_CUPY)
        data, err = self.measure("--only", "cufft_1d_1024|cublas_sgemm|fp64")
        fft = data["peers"]["cufft_1d_1024x65536"]
        self.assertEqual((fft["call"], fft["library"]), ("cupy.fft.fft(x)", "CuPy 0.0-fake"))
        self.assertAlmostEqual(fft["seconds"], 5e-5)
        self.assertAlmostEqual(fft["calls"]["torch.fft.fft(x)"]["seconds"], 1e-4)
        self.assertIn("cuFFT: cupy.fft.fft(x) is 2.00x as fast as torch.fft.fft(x)", fft["disagree"])
        self.assertIn("2.00x as fast", err)
        self.assertNotIn("disagree", data["peers"]["cublas_sgemm"])  # CuPy's matmul missing: one route
        self.assertIn("fake: no NVRTC", data["peers"]["fp64_tensor_peak"]["missing"])
        # the table says so for that row, and uses the faster
        run = sr.write_run(os.path.join(self.dir, "run.json"), entries(L1_SUITE),
                           sr.context(device="NVIDIA H200", copy_bytes_per_second=COPY_BW))
        out = os.path.join(self.dir, "table.json")
        done = sr.run_tool("peers", "table", run, os.path.join(self.dir, "peers.json"), "--json", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            row = {r["id"]: r for r in json.load(handle)["rows"]}["fft1d_1024_cufft"]
        self.assertAlmostEqual(row["peer_value"], 5 * 1024 * 10 * 65536 / 5e-5, delta=1e3)
        self.assertIn("torch and CuPy disagree", row["note"])

    def test_clpeak_console_output_without_xml(self):
        data, _ = self.measure("--only", "clpeak", NO_XML="1")
        self.assertEqual(data["peers"]["clpeak_read"][BYTES], 4457e9)
        self.assertEqual(data["peers"]["clpeak_double"][FLOP], 32900e9)
        self.assertEqual(data["peers"]["cublas_sgemm"]["missing"], "not selected (--only)")

    def test_nothing_to_measure_is_recorded_as_missing(self):
        data, err = self.measure(path="/usr/bin:/bin", torch=False)
        self.assertTrue(all("missing" in r for r in data["peers"].values()))
        self.assertIn("no torch in this test", data["peers"]["cufft_2d_4096x4096"]["missing"])
        self.assertIn("clpeak not found", data["peers"]["clpeak_float"]["missing"])
        self.assertIn("no CUDA peers measured", err)
        self.assertEqual(len(err.strip().splitlines()), 4, err)  # CUDA, the tensor peak, clpeak, the file
        # and the table of that file: every row with a CUDA or clpeak peer is missing, none crashes
        run = sr.write_run(os.path.join(self.dir, "run.json"), entries(L1_SUITE), sr.context(device="NVIDIA H200"))
        done = sr.run_tool("peers", "table", run, os.path.join(self.dir, "peers.json"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("peer not measured: torch not importable", done.stdout)


class Filter(unittest.TestCase):
    def test_the_filter_covers_every_row(self):
        """With $GPU_BENCH: the names it lists at --size=3 --all_sweeps under the filter hold every row."""
        exe = os.environ.get("GPU_BENCH")
        if not exe or not os.access(exe, os.X_OK):
            raise unittest.SkipTest("GPU_BENCH does not name the gpu_bench executable")
        flt = sr.run_tool("peers", "filter").stdout.strip()
        done = subprocess.run([exe, "--benchmark_list_tests", "--all_sweeps", "--size=3",
                               f"--benchmark_filter={flt}"], capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        names = [n.replace("/manual_time", "") for n in done.stdout.split()]
        self.assertLess(len(names), 100)  # the suite's side of the table stays a short run
        peers = os.path.join(tempfile.mkdtemp(), "peers.json")
        try:
            run = sr.write_run(peers + ".run", [e for n in names for e in sr.measured(
                n + "/manual_time", [1.0], work={FLOP: 1.0, BYTES: 1.0}, counters={COPY: 0.5})])
            out = peers + ".table"
            done = sr.run_tool("peers", "table", run, peers_file(peers, peers={}), "--json", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out) as handle:
                rows = json.load(handle)["rows"]
        finally:
            for path in (peers, peers + ".run", peers + ".table"):
                if os.path.exists(path):
                    os.unlink(path)
        for row in rows:
            if row["id"] != "fft2d_4096_cufft":  # the suite has no 4096^2 2-D FFT yet
                self.assertIsNotNone(row["suite_benchmark"], row)
            if "vkfft" in row["id"] or row["id"] == "histogram_read":
                self.assertRegex(row["peer"], r"L0/|vkfft", row)  # the suite-side peers are in the run too


if __name__ == "__main__":
    unittest.main()
