#!/bin/sh
# Session 19, call 4: the full default run (harness checklist, third item).
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
GPU_BENCH=build/gpu_bench FULL_LIMIT=330 tools/measure-harness full $R > $R/table.txt 2>&1
cd $OUT && tar czf r.tgz r && cd - > /dev/null
head -40 $R/table.txt
