#!/usr/bin/python3
"""Summarizes tools/measure-harness's output folder: per run, the benchmarks, how many converged,
the reported noise (median, 95th percentile, share above 1%); between fft_a and fft_b, the
per-unit time differences against the reported noise; for fft_reps, the cv across repetitions.
Usage: harness_stats.py OUTDIR"""
import json
import math
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def iterations(data):
    return [b for b in data["benchmarks"] if b.get("run_type", "iteration") == "iteration"
            and not b.get("error_occurred")]


def pct(values, q):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(math.ceil(q * len(v))) - 1)]


def describe(label, values):
    if not values:
        return "%s: none" % label
    above = sum(1 for v in values if v > 0.01)
    return "%s: n=%d median %.3f%% p95 %.3f%% max %.3f%% above 1%%: %d (%.1f%%)" % (
        label, len(values), 100 * pct(values, 0.5), 100 * pct(values, 0.95), 100 * max(values), above,
        100.0 * above / len(values))


def timeline(path):
    """(wall seconds, first result seconds, [(seconds, benchmark)] per benchmark, exit) from a stamped stderr."""
    starts, end, code = [], None, None
    with open(path) as f:
        for line in f:
            t, _, text = line.rstrip("\n").partition(" ")
            if text.startswith("[") and "] " in text:
                starts.append((float(t), text.split("] ", 1)[1].split(", ETA")[0]))
            elif text == "end":
                end = float(t)
            elif text.startswith("exit "):
                code = text[5:]
    if end is None:
        return None
    spans = [(b[0] - a[0], a[1]) for a, b in zip(starts, starts[1:] + [(end, "")])]
    first = starts[1][0] if len(starts) > 1 else end
    return end, first, spans, code


def main():
    out = sys.argv[1]
    for name in ("fft_a", "fft_b", "full", "fft_reps"):
        path = os.path.join(out, name + ".err")
        if not os.path.exists(path):
            continue
        t = timeline(path)
        if not t:
            continue
        wall, first, spans, code = t
        print("%s: exit %s, wall %.1f s, first result after %.1f s, %d benchmarks" % (name, code, wall, first, len(spans)))
        for s, n in sorted(spans, reverse=True)[:8]:
            print("  %6.2f s  %s" % (s, n))
    for name in ("fft_a", "fft_b", "full", "fft_reps"):
        path = os.path.join(out, name + ".json")
        if not os.path.exists(path):
            continue
        data = load(path)
        runs = iterations(data)
        errors = [b for b in data["benchmarks"] if b.get("error_occurred")]
        noise = [b["noise"] for b in runs if "noise" in b]
        unconverged = [b["name"] for b in runs if b.get("converged") == 0]
        print("%s: %d runs, %d errored, %d not converged" % (name, len(runs), len(errors), len(unconverged)))
        print("  " + describe("reported noise", noise))
        for n in unconverged[:10]:
            print("  not converged:", n)
        if name == "fft_reps":
            cv = [b["real_time"] for b in data["benchmarks"] if b.get("aggregate_name") == "cv"]
            print("  " + describe("cv across 5 repetitions", cv))
    a, b = os.path.join(out, "fft_a.json"), os.path.join(out, "fft_b.json")
    if os.path.exists(a) and os.path.exists(b):
        ra = {x["name"]: x for x in iterations(load(a))}
        rb = {x["name"]: x for x in iterations(load(b))}
        diffs, beyond = [], []
        for name in sorted(set(ra) & set(rb)):
            x, y = ra[name], rb[name]
            d = abs(y["real_time"] / x["real_time"] - 1)
            diffs.append(d)
            # Beyond the reported noise: further apart than the larger of the two runs' noise.
            se = max(x.get("noise", 0), y.get("noise", 0))
            if d > se:
                beyond.append((name, d, se, x.get("batch"), y.get("batch")))
        same_batch = sum(1 for n in set(ra) & set(rb) if ra[n].get("batch") == rb[n].get("batch"))
        print("fft_a vs fft_b: %d common, batch equal in %d" % (len(diffs), same_batch))
        print("  " + describe("|time b / time a - 1|", diffs))
        print("  further apart than the reported noise: %d" % len(beyond))
        for name, d, se, ka, kb in sorted(beyond, key=lambda t: -t[1])[:10]:
            print("    %s: %.2f%% vs noise %.2f%% (batch %s, %s)" % (name, 100 * d, 100 * se, ka, kb))


if __name__ == "__main__":
    main()
