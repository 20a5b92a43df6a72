#!/bin/sh
# Session 20, call 8: the harness checklist for the support/ changes since 1c7a1fa (GB_SET_ARGS,
# the batch lead's arguments), final binary: the FFT filter twice (cold, warm), tools/gate both
# ways on the two runs, and one full default run.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R/h $R/f
t0=$(date +%s)
GPU_BENCH=build/gpu_bench GPU_BENCH_PHASES=1 tools/measure-harness fft $R/h > $R/h/table.txt 2>&1
/usr/bin/python3 tools/gate $R/h/fft_a.json $R/h/fft_b.json > $R/h/gate_ab.txt 2>&1; echo "gate A->B exit $?" >> $R/h/table.txt
/usr/bin/python3 tools/gate $R/h/fft_b.json $R/h/fft_a.json > $R/h/gate_ba.txt 2>&1; echo "gate B->A exit $?" >> $R/h/table.txt
echo "fft checklist done at $(( $(date +%s) - t0 )) s" >> $R/h/table.txt
GPU_BENCH=build/gpu_bench FULL_LIMIT=330 tools/measure-harness full $R/f > $R/f/table.txt 2>&1
echo "full done at $(( $(date +%s) - t0 )) s" >> $R/f/table.txt
cd $OUT && tar czf r.tgz r && cd - > /dev/null
cat $R/h/table.txt; tail -3 $R/h/gate_ab.txt $R/h/gate_ba.txt; head -40 $R/f/table.txt
