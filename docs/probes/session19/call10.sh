#!/bin/sh
# Session 19, call 10: local_lanes16 with PIPELINED (the committed form) against the old binary, twice.
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
F='^L1/Histogram/local|^L0/Atomics/local/type:int/method:native/contention:1/|^L0/GlobalBandwidth/read/type:float16/access:persistent/groups_per_cu:16/passes:4/'
run() { name=$1; shift; timeout 100 "$@" --device=gpu --size=3 --benchmark_filter="$F" --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $?" >> $R/gpu.txt; }
for round in 1 2; do
  run old$round .probe/bin/gpu_bench_probe
  run new$round build/gpu_bench
done
T=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))" 2>/dev/null)
PTXAS=$(find $T -name ptxas -type f 2>/dev/null | head -1)
for o in "" -DPIPELINED; do
  .probe/s19/ptx/dump .probe/s19/ptx/histogram_main.cl "-DWG=256 -DREPLICAS=1 -DLANES=16 $o" > $R/h.ptx 2>/dev/null
  sed -i "s/^\.version .*/.version 8.7/" $R/h.ptx
  echo "lanes16 $o: $($PTXAS -arch=sm_90 -O3 -v $R/h.ptx -o $R/h.cubin 2>&1 | grep -A2 "for 'sm_90'" | grep -B2 'registers' | tr '\n' ' ' | grep -o "histogram_local_lanes.\{0,200\}" | grep -o 'Used [0-9]* registers' | head -1)" >> $R/gpu.txt
done
cat $R/gpu.txt
/usr/bin/python3 - $R <<'PY'
import json, sys, os
R = sys.argv[1]
names = ['old1', 'new1', 'old2', 'new2']
rows = {}
for name in names:
    try: d = json.load(open(os.path.join(R, name + '.json')))
    except Exception as e: print(name, e); continue
    for b in d['benchmarks']:
        rows.setdefault(b['name'].replace('/size:3/manual_time', '')[-44:], {})[name] = (b.get('bytes_per_second') or b.get('items_per_second') or 0, 'error_message' in b)
print('%-44s ' % '' + ' '.join('%9s' % n for n in names))
for n, v in rows.items():
    print('%-44s ' % n + ' '.join('%9.4g%s' % (v[k][0] / 1e12, '!' if v[k][1] else ' ') if k in v else '%10s' % '-' for k in names))
PY
