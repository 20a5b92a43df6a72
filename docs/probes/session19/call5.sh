#!/bin/sh
# Session 19, call 5: whichever GPU comes: the peers table, and the RGBA8 tiled_slide's parts.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
t0=$(date +%s)
timeout 300 build/gpu_bench --device=gpu --size=3 --all_sweeps --benchmark_filter="$(/usr/bin/python3 tools/peers filter)" --benchmark_out=$R/suite.json --benchmark_out_format=json > $R/suite.txt 2>$R/suite.err
echo "suite exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
timeout 200 python3 tools/peers measure $R/peers.json > $R/peers.txt 2>&1
python3 tools/peers table $R/suite.json $R/peers.json --json $R/table.json > $R/table.txt 2>&1
B='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15/tile:224x80/|15/tile:192x64/|31/tile:192x96/|31/tile:192x64/wg)'
P=.probe/bin/gpu_bench_probe
run() { name=$1; shift; timeout 100 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
run box_0_full build/gpu_bench --benchmark_filter="$B"
export GPU_BENCH_PROBE_NOCHECK=1
GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" run box_a_all $P --benchmark_filter="$B"
GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY -DPROBE_NO_ROWS -DPROBE_NO_SEGMENTS" run box_d_walk $P --benchmark_filter="$B"
GPU_BENCH_PROBE_OPTIONS="-DPROBE_NO_ROWS -DPROBE_NO_SEGMENTS" run box_e_walk_dram $P --benchmark_filter="$B"
cd $OUT && tar czf r.tgz r && cd - > /dev/null
cat $R/gpu.txt; grep -E "rgba8|histogram|rows:" $R/table.txt
/usr/bin/python3 .probe/s19/table.py $R | grep -A200 "== box_0_full" | grep -v float
