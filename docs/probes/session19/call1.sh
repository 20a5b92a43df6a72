#!/bin/sh
# Session 19, call 1 (H200): harness checklist for GB_SET_ARGS; RGBA8 box filter probes.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R/h
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
t0=$(date +%s)
# 1. the harness checklist
GPU_BENCH=build/gpu_bench GPU_BENCH_PHASES=1 tools/measure-harness fft $R/h > $R/h/table.txt 2>&1
/usr/bin/python3 tools/gate $R/h/fft_a.json $R/h/fft_b.json > $R/h/gate_ab.txt 2>&1; echo "gate A->B exit $?" >> $R/h/table.txt
/usr/bin/python3 tools/gate $R/h/fft_b.json $R/h/fft_a.json > $R/h/gate_ba.txt 2>&1; echo "gate B->A exit $?" >> $R/h/table.txt
echo "checklist done at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
# 2. box filter RGBA8: the current sweep, then probes on one binary each
F='^L1/BoxFilter/tiled_slide/type:rgba8/radius:(15|31)/'
B='^L1/BoxFilter/tiled_slide/type:rgba8/radius:(15/tile:224x80/|31/tile:192x96/|31/tile:192x64/band:16/)'
P=.probe/bin/gpu_bench_probe
run() { name=$1; shift; timeout 200 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
run box_main build/gpu_bench --benchmark_filter="$F"
GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" run box_arith $P --benchmark_filter="$B"
for cap in 64 80 96; do
  CUDA_CACHE_DISABLE=1 GPU_BENCH_PROBE_LOG=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_NO_REQD -cl-nv-verbose -cl-nv-maxrregcount=$cap" run box_cap$cap $P --benchmark_filter="$B" --build_processes=0
done
CUDA_CACHE_DISABLE=1 GPU_BENCH_PROBE_LOG=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_NO_REQD -cl-nv-verbose" run box_noreqd $P --benchmark_filter="$B" --build_processes=0
GPU_BENCH_PROBE_TILES="224x64,224x72,224x88,208x80,240x80,256x80,256x72,160x80,160x96,192x80,192x112,128x96" run box_tiles $P --benchmark_filter="$F"
# the same sweep again at the end (drift of the machine)
run box_main2 build/gpu_bench --benchmark_filter="$B"
cd $OUT && tar czf r.tgz r && cd - > /dev/null
/usr/bin/python3 .probe/s19/table.py $R
