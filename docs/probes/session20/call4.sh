#!/bin/sh
# Session 20, call 4: tiled_slide's phase-two form (TS_UNROLL: 0 every pair up front, n streamed
# with n turns unrolled) on the key tiles, the full kernel (checked) and its SM side
# (PROBE_ARITH_ONLY), one probe binary, forms in turn; the first form again at the end.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
t0=$(date +%s)
run() { name=$1; shift; timeout 100 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
B='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15/tile:224x80/|15/tile:192x64/|15/tile:192x96/band:16/|31/tile:192x96/|31/tile:192x64/band:16/)'
PN=.probe/bin/gpu_bench_probe_new
for u in 0 2 4 8 16; do
  GPU_BENCH_PROBE_OPTIONS="-DTS_UNROLL=$u" run full_u$u $PN --benchmark_filter="$B"
  GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY -DTS_UNROLL=$u" run sm_u$u $PN --benchmark_filter="$B"
done
GPU_BENCH_PROBE_OPTIONS="-DTS_UNROLL=0" run full_u0b $PN --benchmark_filter="$B"
cd $OUT && tar czf r.tgz r && cd - > /dev/null
/usr/bin/python3 .probe/s20/ab.py $R | cut -c1-240
