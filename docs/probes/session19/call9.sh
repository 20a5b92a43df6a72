#!/bin/sh
# Session 19, call 9: the histogram's copies per lane at equal occupancy: register caps (no reqd_work_group_size).
set -u
for f in .device-debs/*.deb; do dpkg -x $f /; done; ldconfig
export GPU_BENCH_IMAGE_DIR=$PWD/.probe/photos
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
F='^L1/Histogram/local_lanes.*/input:noise/|^L0/Atomics/local/type:int/method:native/contention:1/|^L0/GlobalBandwidth/read/type:float16/access:persistent/groups_per_cu:16/passes:4/'
P=.probe/bin/gpu_bench_probe
export GPU_BENCH_PROBE_MATCH=histogram CUDA_CACHE_DISABLE=1 GPU_BENCH_PROBE_LOG=1
run() { name=$1; opts=$2; GPU_BENCH_PROBE_OPTIONS="$opts -cl-nv-verbose" timeout 100 $P --device=gpu --size=3 --build_processes=0 --benchmark_filter="$F" --benchmark_out=$R/$name.json --benchmark_out_format=json > $R/$name.txt 2>$R/$name.err; echo "$name exit $?: $(grep -A3 'PROBE build' $R/$name.err | grep -o 'LANES=[0-9]*\|Used [0-9]* registers\|[0-9]* bytes spill stores' | tr '\n' ' ')" >> $R/gpu.txt; }
for round in 1 2; do
  run base$round ""
  run noreqd$round "-DPROBE_NO_REQD"
  run cap32_$round "-DPROBE_NO_REQD -cl-nv-maxrregcount=32"
  run cap40_$round "-DPROBE_NO_REQD -cl-nv-maxrregcount=40"
  run pf1cap32_$round "-DPROBE_NO_REQD -DPROBE_PF1 -cl-nv-maxrregcount=32"
  run pfcap40_$round "-DPROBE_NO_REQD -DPROBE_PF -cl-nv-maxrregcount=40"
done
cat $R/gpu.txt
/usr/bin/python3 - $R <<'PY'
import json, sys, os
R = sys.argv[1]
names = [n + s for n in ['base', 'noreqd', 'cap32_', 'cap40_', 'pf1cap32_', 'pfcap40_'] for s in '12']
rows = {}
for name in names:
    try: d = json.load(open(os.path.join(R, name + '.json')))
    except Exception as e: print(name, e); continue
    for b in d['benchmarks']:
        rows.setdefault(b['name'].replace('/size:3/manual_time', '')[-40:], {})[name] = (b.get('bytes_per_second') or b.get('items_per_second') or 0, 'error_message' in b)
print('%-40s ' % '' + ' '.join('%9s' % n[:9] for n in names))
for n, v in rows.items():
    print('%-40s ' % n + ' '.join('%9.4g%s' % (v[k][0] / 1e12, '!' if v[k][1] else ' ') if k in v else '%10s' % '-' for k in names))
PY
