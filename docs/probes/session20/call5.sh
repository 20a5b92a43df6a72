#!/bin/sh
# Session 20, call 5: every tiled_slide tile at radius 15 and 31 (float and RGBA8) with phase two
# in each form (TS_UNROLL 0, 4, 16; checked), one probe binary, forms in turn, then 0 again.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
t0=$(date +%s)
run() { name=$1; shift; timeout 100 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
F='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15|31)/'
PN=.probe/bin/gpu_bench_probe_new
GPU_BENCH_PROBE_OPTIONS="-DTS_UNROLL=0" run u0 $PN --benchmark_filter="$F"
GPU_BENCH_PROBE_OPTIONS="-DTS_UNROLL=4" run u4 $PN --benchmark_filter="$F"
GPU_BENCH_PROBE_OPTIONS="-DTS_UNROLL=16" run u16 $PN --benchmark_filter="$F"
GPU_BENCH_PROBE_OPTIONS="-DTS_UNROLL=0" run u0_again $PN --benchmark_filter="$F"
cd $OUT && tar czf r.tgz r && cd - > /dev/null
/usr/bin/python3 .probe/s20/ab.py $R | cut -c1-240
