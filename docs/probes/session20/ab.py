#!/usr/bin/python3
"""Session 20 call 3's table: every benchmark's time (us) and copy fraction per JSON file."""
import json, sys, glob, os
R = sys.argv[1]
print(open(os.path.join(R, 'gpu.txt')).read())
cols, rows = [], {}
for f in sorted(glob.glob(os.path.join(R, '*.json'))):
    key = os.path.basename(f)[:-5]
    try: d = json.load(open(f))
    except Exception as e: print(key, e); continue
    cols.append(key)
    for b in d['benchmarks']:
        n = b['name'].replace('L1/BoxFilter/tiled_slide/type:', '').replace('/size:3/manual_time', '')
        if b.get('run_type') == 'aggregate':  # repetitions: the median stands for the name
            if b.get('aggregate_name') != 'median': continue
            n = n.replace('_median', '')
        if 'error_message' in b: v = 'ERR'
        else:
            t = b['real_time'] * {'ns': 1e-3, 'us': 1, 'ms': 1e3, 's': 1e6}[b['time_unit']]
            v = '%.1f/%.3f' % (t, b.get('copy_fraction', 0))
        rows.setdefault(n, {})[key] = v
print('%-44s ' % 'us/copy_fraction' + ' '.join('%-13s' % c[:13] for c in cols))
for n in rows:
    print('%-44s ' % n[:44] + ' '.join('%-13s' % rows[n].get(c, '') for c in cols))
for f in glob.glob(os.path.join(R, 'cap128.err')):
    for line in open(f):
        if 'registers' in line or 'spill' in line or 'PROBE build' in line: print('  ', line.strip()[:150])
