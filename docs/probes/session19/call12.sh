#!/bin/sh
# Session 19, call 12: the SM-side time (PROBE_ARITH_ONLY) of every RGBA8 tile, registered and probe tiles.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
F='^L1/BoxFilter/tiled_slide/type:rgba8/radius:(15|31)/tile:(1|2)'
GPU_BENCH_PROBE_TILES="224x64,224x72,224x88,208x80,240x80,256x80,256x72,256x64,240x64,160x80,160x96,192x80,192x112,128x96" GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" timeout 200 .probe/bin/gpu_bench_probe --device=gpu --size=3 --all_sweeps --benchmark_filter="$F" --benchmark_out=$R/box_arith_tiles.json --benchmark_out_format=json > $R/box_arith_tiles.txt 2>&1
echo "exit $?" >> $R/gpu.txt
cat $R/gpu.txt
/usr/bin/python3 .probe/s19/table.py $R | grep -A80 "== box_arith_tiles" | sort -t: -k2,2 -k4,4n | grep -v "512\|1024"
