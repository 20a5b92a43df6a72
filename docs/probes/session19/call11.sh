#!/bin/sh
# Session 19, call 11: whichever GPU comes: the #16 peers table with the session's final binary, and
# the RGBA8 box filter's SM-side probe (its data from L1) beside the full kernel.
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
B='^L1/BoxFilter/tiled_slide/type:rgba8/radius:(15/tile:224x80/|15/tile:192x64/|31/tile:192x96/|31/tile:192x64/wg)'
GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" timeout 100 .probe/bin/gpu_bench_probe --device=gpu --size=3 --all_sweeps --benchmark_filter="$B" --benchmark_out=$R/box_arith.json --benchmark_out_format=json > $R/box_arith.txt 2>&1
echo "arith exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
cd $OUT && tar czf r.tgz r && cd - > /dev/null
cat $R/gpu.txt; grep -E "rgba8|histogram|rows:" $R/table.txt | cut -d'|' -f2,4,7,8,9,10
/usr/bin/python3 .probe/s19/table.py $R | grep -A20 "== box_arith"
