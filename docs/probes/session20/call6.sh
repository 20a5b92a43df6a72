#!/bin/sh
# Session 20, call 6: the final binary (tiled_slide's phase-two form per tile) against HEAD's
# (6a377f3), in turn, twice, every tiled_slide tile at radius 15 and 31; then the #16 peers table.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
t0=$(date +%s)
run() { name=$1; shift; timeout 100 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
F='^L1/BoxFilter/tiled_slide/type:(rgba8|float)/radius:(15|31)/'
run old1 .probe/bin/gpu_bench_old --benchmark_filter="$F"
run new1 build/gpu_bench --benchmark_filter="$F"
run old2 .probe/bin/gpu_bench_old --benchmark_filter="$F"
run new2 build/gpu_bench --benchmark_filter="$F"
mkdir -p $R/p
timeout 300 build/gpu_bench --device=gpu --size=3 --all_sweeps --benchmark_filter="$(/usr/bin/python3 tools/peers filter)" --benchmark_out=$R/p/suite.json --benchmark_out_format=json > $R/p/suite.txt 2>$R/p/suite.err
echo "suite exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
timeout 200 python3 tools/peers measure $R/p/peers.json > $R/p/peers.txt 2>&1
python3 tools/peers table $R/p/suite.json $R/p/peers.json --json $R/p/table.json > $R/p/table.txt 2>&1
cd $OUT && tar czf r.tgz r && cd - > /dev/null
/usr/bin/python3 .probe/s20/ab.py $R | grep -E "NVIDIA|exit|rgba8|us/copy"
cut -d'|' -f2,7,8,9,10 $R/p/table.txt | grep -E "box|histogram|met|Suite" | cut -c1-120
