#!/usr/bin/python3
import json, sys, glob, os
R = sys.argv[1]
print(open(os.path.join(R, 'gpu.txt')).read())
try: print(open(os.path.join(R, 'h/table.txt')).read()[-2500:])
except Exception as e: print(e)
for f in sorted(glob.glob(os.path.join(R, 'box_*.json'))):
    try: d = json.load(open(f))
    except Exception as e: print(f, e); continue
    print('==', os.path.basename(f))
    for b in d['benchmarks']:
        n = b['name'].replace('L1/BoxFilter/tiled_slide/type:rgba8/', '').replace('/size:3/manual_time', '')
        if 'error_message' in b: print('  %-40s ERROR %s' % (n, b['error_message'][:80])); continue
        print('  %-40s %8.1f us  cf %.3f  noise %.2f%%' % (n, b['real_time'] * {'ns':1e-3,'us':1,'ms':1e3,'s':1e6}[b['time_unit']], b.get('copy_fraction', 0), 100*b.get('noise', 0)))
for f in sorted(glob.glob(os.path.join(R, 'box_cap*.err')) + glob.glob(os.path.join(R, 'box_noreqd.err'))):
    print('==', os.path.basename(f))
    for line in open(f):
        if 'registers' in line or 'PROBE build' in line or 'spill' in line: print('  ', line.strip()[:160])
