#!/bin/sh
# Runs the peers that docs/PERFORMANCE.md compares against, on the first NVIDIA GPU, writing their
# raw output under OUTDIR: clpeak (Debian's), and torch's device-to-device copy when torch exists.
# Usage: tools/peers-h200.sh OUTDIR [clpeak test flags...]
set -u
out=$1; shift
platform=${GPU_PLATFORM:-1}  # PoCL is platform 0 on the lent machines
clpeak -p "$platform" -d 0 "$@" > "$out/clpeak.txt" 2>&1
python3 - > "$out/torch_copy.txt" 2>&1 <<'PY'
import torch
n = 2 * 1024**3 // 4
x = torch.rand(n, device="cuda"); y = torch.empty_like(x)
for _ in range(3): y.copy_(x)
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
times = []
for _ in range(10):
    s.record(); y.copy_(x); e.record(); torch.cuda.synchronize(); times.append(s.elapsed_time(e) / 1e3)
best = min(times)
print("torch device copy 2 GiB: %.1f GB/s (read+write, best of 10), median %.1f GB/s" % (2 * 4 * n / best / 1e9, 2 * 4 * n / sorted(times)[5] / 1e9))
PY
if [ "${PEER_GEMM:-0}" = 1 ]; then
python3 - > "$out/torch_sgemm.txt" 2>&1 <<'PY'
import torch
torch.backends.cuda.matmul.allow_tf32 = False  # plain FP32, as the OpenCL kernels compute
n = 8192
a = torch.rand(n, n, device="cuda"); b = torch.rand(n, n, device="cuda")
for _ in range(3): a @ b
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
times = []
for _ in range(10):
    s.record(); a @ b; e.record(); torch.cuda.synchronize(); times.append(s.elapsed_time(e) / 1e3)
t = sorted(times)[5]
print("cuBLAS (torch) SGEMM 8192^3, TF32 off: %.1f TFLOP/s (median of 10)" % (2 * n**3 / t / 1e12))
PY
fi
