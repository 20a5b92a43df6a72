#!/bin/sh
# Session 19, call 3: where the RGBA8 tiled_slide's SM-side time goes (global traffic from L1; phases left out).
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
t0=$(date +%s)
B='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15/tile:224x80/|15/tile:192x64/|31/tile:192x96/|31/tile:192x64/wg)'
P=.probe/bin/gpu_bench_probe
run() { name=$1; shift; timeout 100 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
export GPU_BENCH_PROBE_NOCHECK=1
GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" run box_a_all $P --benchmark_filter="$B"
GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY -DPROBE_NO_ROWS" run box_b_norows $P --benchmark_filter="$B"
GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY -DPROBE_NO_SEGMENTS" run box_c_nosegs $P --benchmark_filter="$B"
GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY -DPROBE_NO_ROWS -DPROBE_NO_SEGMENTS" run box_d_walk $P --benchmark_filter="$B"
GPU_BENCH_PROBE_OPTIONS="-DPROBE_NO_ROWS -DPROBE_NO_SEGMENTS" run box_e_walk_dram $P --benchmark_filter="$B"
cd $OUT && tar czf r.tgz r && cd - > /dev/null
cat $R/gpu.txt
/usr/bin/python3 .probe/s19/table.py $R | grep -A200 "== box_a_all"
