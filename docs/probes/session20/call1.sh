#!/bin/sh
# Session 20, call 1 (run 160): whichever GPU comes, the #16 peers table (binary 6a377f3); on an
# H200 also the RGBA8 box rows with 5 repetitions, the SM-side probe and the walk from DRAM, and
# the harness checklist (FFT filter cold / warm, gate both ways) for GB_SET_ARGS.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R/h
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u >> $R/gpu.txt
t0=$(date +%s)
timeout 300 build/gpu_bench --device=gpu --size=3 --all_sweeps --benchmark_filter="$(/usr/bin/python3 tools/peers filter)" --benchmark_out=$R/suite.json --benchmark_out_format=json > $R/suite.txt 2>$R/suite.err
echo "suite exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
timeout 200 python3 tools/peers measure $R/peers.json > $R/peers.txt 2>&1
python3 tools/peers table $R/suite.json $R/peers.json --json $R/table.json > $R/table.txt 2>&1
echo "peers done at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
if grep -q H200 $R/gpu.txt; then
  B='^L1/BoxFilter/tiled_slide/type:rgba8/radius:(15/tile:224x80/|15/tile:192x64/|31/tile:192x96/band:16/|31/tile:192x64/band:16/)'
  P=.probe/bin/gpu_bench_probe
  run() { name=$1; shift; timeout 200 "$@" --device=gpu --size=3 --all_sweeps --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt; }
  run box_reps build/gpu_bench --benchmark_filter="$B" --benchmark_repetitions=5
  GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_ARITH_ONLY" run box_arith $P --benchmark_filter="$B"
  GPU_BENCH_PROBE_NOCHECK=1 GPU_BENCH_PROBE_OPTIONS="-DPROBE_NO_ROWS -DPROBE_NO_SEGMENTS" run box_walk_dram $P --benchmark_filter="$B"
  GPU_BENCH=build/gpu_bench GPU_BENCH_PHASES=1 timeout 200 tools/measure-harness fft $R/h > $R/h/table.txt 2>&1
  /usr/bin/python3 tools/gate $R/h/fft_a.json $R/h/fft_b.json > $R/h/gate_ab.txt 2>&1; echo "gate A->B exit $?" >> $R/h/table.txt
  /usr/bin/python3 tools/gate $R/h/fft_b.json $R/h/fft_a.json > $R/h/gate_ba.txt 2>&1; echo "gate B->A exit $?" >> $R/h/table.txt
  echo "checklist done at $(( $(date +%s) - t0 )) s" >> $R/gpu.txt
fi
cd $OUT && tar czf r.tgz r && cd - > /dev/null
cut -c1-150 $R/table.txt | tail -45
if [ -f $R/box_reps.json ]; then /usr/bin/python3 .probe/s20/table.py $R | grep -v "_mean\|_median\|_stddev"; else cat $R/gpu.txt; fi
