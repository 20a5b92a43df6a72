#!/bin/sh
# Session 19, call 7: the histogram with the next pair's loads issued before counting (PROBE_PF), A/B twice.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
F='^L1/Histogram/local.*/input:(noise|photo)/|^L0/Atomics/local/type:int/method:native/contention:1/|^L0/GlobalBandwidth/read/type:float16/access:persistent/groups_per_cu:16/passes:4/'
P=.probe/bin/gpu_bench_probe
run() { name=$1; shift; timeout 100 "$@" --device=gpu --size=3 --all_sweeps --benchmark_filter="$F" --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $?" >> $R/gpu.txt; }
export GPU_BENCH_PROBE_MATCH=histogram
for round in 1 2; do
  GPU_BENCH_PROBE_OPTIONS="-DPROBE_PF1" run pfone$round $P
  GPU_BENCH_PROBE_OPTIONS="-DPROBE_U32" run u32$round $P
  run base$round build/gpu_bench

done
cat $R/gpu.txt
/usr/bin/python3 - $R <<'PY'
import json, sys, os
R = sys.argv[1]
rows = {}
for name in ["base1","pfone1","u321","base2","pfone2","u322"]:
    try: d = json.load(open(os.path.join(R, name + '.json')))
    except Exception as e: print(name, e); continue
    for b in d['benchmarks']:
        rows.setdefault(b['name'].replace('/size:3/manual_time', ''), {})[name] = (b.get('bytes_per_second') or b.get('items_per_second') or 0, 'error_message' in b)
print('base1 pfone1 u321 base2 pfone2 u322')
for n, v in rows.items():
    print('%-80s ' % n[:80] + ' '.join('%9.4g%s' % (v[k][0] / 1e12, '!' if v[k][1] else ' ') if k in v else '%10s' % '-' for k in ["base1","pfone1","u321","base2","pfone2","u322"]))
PY
T=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))" 2>/dev/null)
PTXAS=$(find $T -name ptxas -type f 2>/dev/null | head -1)
for o in "" -DPROBE_PF -DPROBE_PF1 -DPROBE_U32; do
  .probe/s19/ptx/dump .probe/s19/ptx/histogram_probe.cl "-DWG=256 -DREPLICAS=1 -DLANES=16 $o" > $R/h.ptx 2>/dev/null
  echo "lanes16 $o: $($PTXAS -arch=sm_90 -O3 -v $R/h.ptx -o $R/h.cubin 2>&1 | grep -A2 "histogram_local_lanes'" | grep -o 'Used [0-9]* registers')"
done
