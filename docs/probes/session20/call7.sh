#!/bin/sh
# Session 20, call 7 on: on an H200 only (an H100 stops at once), the #16 peers table with the
# session's binary (f16e46f), and the RGBA8 box rows of the old (6a377f3) and new binaries in turn
# with 3 repetitions.
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
grep -q H200 $R/gpu.txt || { cat $R/gpu.txt; exit 0; }
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
t0=$(date +%s)
run() { name=$1; shift; timeout 120 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
B='^L1/BoxFilter/tiled_slide/type:rgba8/radius:(15/tile:224x80/|15/tile:192x64/|15/tile:192x96/band:16/|31/tile:192x96/band:16/|31/tile:192x64/band:16/)'
run old1 .probe/bin/gpu_bench_old --benchmark_filter="$B" --benchmark_repetitions=3
run new1 build/gpu_bench --benchmark_filter="$B" --benchmark_repetitions=3
mkdir -p $R/p
timeout 300 build/gpu_bench --device=gpu --size=3 --all_sweeps --benchmark_filter="$(/usr/bin/python3 tools/peers filter)" --benchmark_out=$R/p/suite.json --benchmark_out_format=json > $R/p/suite.txt 2>$R/p/suite.err
timeout 200 python3 tools/peers measure $R/p/peers.json > $R/p/peers.txt 2>&1
python3 tools/peers table $R/p/suite.json $R/p/peers.json --json $R/p/table.json > $R/p/table.txt 2>&1
run old2 .probe/bin/gpu_bench_old --benchmark_filter="$B" --benchmark_repetitions=3
run new2 build/gpu_bench --benchmark_filter="$B" --benchmark_repetitions=3
cd $OUT && tar czf r.tgz r && cd - > /dev/null
/usr/bin/python3 .probe/s20/ab.py $R | grep -v "_mean\|_median\|_stddev\|_cv"
cut -d'|' -f2,7,8,9,10 $R/p/table.txt | cut -c1-120
