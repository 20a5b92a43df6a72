#!/bin/sh
# Session 19, call 2: the #16 peers table with the session's binary; the RGBA8 / float box filter
# with its global traffic served from L1 (SM-side time) over every tile.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
t0=$(date +%s)
F='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15|31)/'
P=.probe/bin/gpu_bench_probe
run() { name=$1; shift; timeout 200 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" run box_arith $P --benchmark_filter="$F"
timeout 300 build/gpu_bench --device=gpu --size=3 --all_sweeps --benchmark_filter="$(/usr/bin/python3 tools/peers filter)" --benchmark_out=$R/suite.json --benchmark_out_format=json > $R/suite.txt 2>$R/suite.err
echo "suite exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
timeout 200 python3 tools/peers measure $R/peers.json > $R/peers.txt 2>&1
echo "peers exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
python3 tools/peers table $R/suite.json $R/peers.json --json $R/table.json > $R/table.txt 2>&1
cd $OUT && tar czf r.tgz r && cd - > /dev/null
cat $R/gpu.txt; cat $R/table.txt
/usr/bin/python3 .probe/s19/table.py $R | grep -A200 "== box_arith" | head -80
