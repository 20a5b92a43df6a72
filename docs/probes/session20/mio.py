#!/usr/bin/python3
"""Bytes that box_filter.cl's tiled_slide moves through each SM's L1 / local-memory datapath
(global loads and stores, local loads and stores), per phase, over an 8192^2 image, and the
time they take at L0/LocalMemory's rate (33.0 TB/s on the H200, run 9: 128 B a clock per SM at
1980 MHz, the H100's SMs the same). Assumes conflict-free, full-width accesses: a floor, not a
prediction of the whole kernel. Compared with the probes' phase times of runs 150 and 152
(PROBE_ARITH_ONLY: global loads from L1, no global stores)."""
import math

RATE = 33.0e12  # B/s, L0/LocalMemory/read/type:float/stride:1

def count(radius, tw, th, band, rgba8, w=8192, h=8192):
    span, d = 2 * band, 2 * radius + 1
    pad = (radius + 1) // 2 * 2
    off = pad - radius
    items = tw // 2 + pad
    segs = tw // span
    mseg = (d + span - 1) // span
    tsegs = segs + mseg - 1
    v2 = 16 if rgba8 else 8     # a pair's vertical sums
    hsum = 16 if rgba8 else 4   # a segment sum
    pix2 = 8                    # two pixels (uchar4 or float)
    per_band = {
        'walk loads': 2 * band * items * pix2,
        'walk vsum stores': band * items * v2,
        'phase one (segment sums)': band * tsegs * (((span - 1 + off) // 2 - off // 2 + 1) * v2 + hsum),
        'phase two (slides)': band * segs * (mseg * hsum
                                              + (((d + span - 2 + off) // 2) - (d + off) // 2 + 1) * v2
                                              + (((span - 2 + off) // 2) - off // 2 + 1) * v2
                                              + span // 2 * pix2),
        'store: local read': band * tw // 2 * pix2,
        'store: global write': band * tw // 2 * pix2,
    }
    groups = math.ceil(w / tw) * math.ceil(h / th)
    bands = math.ceil(th / band)
    out = {k: v * bands * groups for k, v in per_band.items()}
    out['first window loads'] = d * items * pix2 * groups
    return out

# (label, radius, tw, th, band, rgba8, SM side, without segments, walk only): runs 150, 152, us
PROBES = [
    ('rgba8 r15 224x80', 15, 224, 80, 8, True, 149.5, 132.6, 97.2),
    ('rgba8 r15 192x64', 15, 192, 64, 8, True, 164.5, 146.1, 101.2),
    ('rgba8 r31 192x96', 31, 192, 96, 8, True, 183.3, 153.0, 106.5),
    ('rgba8 r31 192x96 band 16', 31, 192, 96, 16, True, 174.4, 150.5, 105.4),
    ('float r15 192x64 band 16', 15, 192, 64, 16, False, 79.5, 69.6, 60.5),
    ('float r31 192x96 band 16', 31, 192, 96, 16, False, 96.2, 73.6, 69.5),
]

if __name__ == '__main__':
    us = lambda b: b / RATE * 1e6
    print('| tile | phase one: bytes / rate, measured | phase two | walk + store + first window | all phases, measured SM side |')
    print('|---|---|---|---|---|')
    for label, r, tw, th, band, rgba8, sm, noseg, walk in PROBES:
        c = count(r, tw, th, band, rgba8)
        del c['store: global write']  # PROBE_ARITH_ONLY stores nothing
        one, two = c['phase one (segment sums)'], c['phase two (slides)']
        rest = sum(c.values()) - one - two
        print('| %s | %.1f, %.1f | %.1f, %.1f | %.1f, %.1f | %.1f (%.2f GB), %.1f |' % (
            label, us(one), sm - noseg, us(two), noseg - walk, us(rest), walk,
            us(sum(c.values())), sum(c.values()) / 1e9, sm))
