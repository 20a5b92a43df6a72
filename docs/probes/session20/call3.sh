#!/bin/sh
# Session 20, call 3: tiled_slide's phase two streamed in pairs (TS_UNROLL turns unrolled) against
# HEAD's all-up-front reads. 1. NVIDIA PTX of both for six tiles (registers read here with ptxas);
# 2. old and new binaries in turn, twice, every tiled_slide tile at radius 15 and 31; 3. unroll
# factors; 4. the SM side (PROBE_ARITH_ONLY) of both; 5. band 16 capped at 128 registers.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R/ptx
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
t0=$(date +%s)
D=.probe/s19/ptx/dump
T="-DONLY_TILED_SLIDE"
for v in old new; do
  for cfg in "a31w192b16:-DRADIUS=31 -DRGBA8 $T -DTW=192 -DBAND=16 -DSPAN=32" "a31w192b8:-DRADIUS=31 -DRGBA8 $T -DTW=192 -DBAND=8 -DSPAN=16" \
             "a15w224b8:-DRADIUS=15 -DRGBA8 $T -DTW=224 -DBAND=8 -DSPAN=16" "a15w192b16:-DRADIUS=15 -DRGBA8 $T -DTW=192 -DBAND=16 -DSPAN=32" \
             "f15w192b16:-DRADIUS=15 $T -DTW=192 -DBAND=16 -DSPAN=32" "f31w192b16:-DRADIUS=31 $T -DTW=192 -DBAND=16 -DSPAN=32"; do
    timeout 60 $D .probe/s20/box_$v.cl "${cfg#*:}" > $R/ptx/${v}_${cfg%%:*}.ptx 2>>$R/ptx/log.txt
  done
done
for u in 1 2 8 16; do
  timeout 60 $D .probe/s20/box_new.cl "-DRADIUS=31 -DRGBA8 $T -DTW=192 -DBAND=16 -DSPAN=32 -DTS_UNROLL=$u" > $R/ptx/new_a31w192b16_u$u.ptx 2>>$R/ptx/log.txt
  timeout 60 $D .probe/s20/box_new.cl "-DRADIUS=15 -DRGBA8 $T -DTW=224 -DBAND=8 -DSPAN=16 -DTS_UNROLL=$u" > $R/ptx/new_a15w224b8_u$u.ptx 2>>$R/ptx/log.txt
done
echo "ptx done at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
run() { name=$1; shift; timeout 150 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
F='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15|31)/'
B='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15/tile:224x80/|15/tile:192x64/|31/tile:192x96/|31/tile:192x64/band:16/)'
run main_old1 .probe/bin/gpu_bench_old --benchmark_filter="$F"
run main_new1 build/gpu_bench --benchmark_filter="$F"
run main_old2 .probe/bin/gpu_bench_old --benchmark_filter="$F"
run main_new2 build/gpu_bench --benchmark_filter="$F"
PN=.probe/bin/gpu_bench_probe_new
for u in 1 2 8; do GPU_BENCH_PROBE_OPTIONS="-DTS_UNROLL=$u" run unroll$u $PN --benchmark_filter="$B"; done
GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" run arith_old .probe/bin/gpu_bench_probe --benchmark_filter="$B"
GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" run arith_new $PN --benchmark_filter="$B"
CUDA_CACHE_DISABLE=1 GPU_BENCH_PROBE_LOG=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_NO_REQD -cl-nv-verbose -cl-nv-maxrregcount=128" run cap128 $PN --benchmark_filter="$B" --build_processes=0
cd $OUT && tar czf r.tgz r && cd - > /dev/null
/usr/bin/python3 .probe/s20/ab.py $R
