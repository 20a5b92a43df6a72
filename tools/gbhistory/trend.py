# trend.py: each benchmark's series per device from the store, and its change points: steps larger
# than the noise that persist, found by a two-sample test over a sliding window.
"""Series and change points.

A series is a benchmark's primary metric on one device fingerprint, one value per run (the median
of its repetitions) in date order; errored values are left out, and values the run flagged (host
busy, device below its steady rate, not converged) are kept for display but not used to find steps.

A change point at run i: the WINDOW runs before i and the runs from i on (at least PERSIST, at
most WINDOW) differ by a Welch t-test on the logs with p below ALPHA, their medians differ by more
than THRESHOLD, and no stronger such split lies within WINDOW runs.  Requiring PERSIST runs after
the split keeps a single outlier from counting (the median of the runs after it is unmoved), and
means a step is found once it has held for PERSIST runs.
"""

import math
import statistics

WINDOW = 8        # runs on each side of a split, at most
PERSIST = 3       # runs a new level must hold
THRESHOLD = 0.05  # relative step of the medians, either way
ALPHA = 1e-3      # per split: a series of N runs tests about N splits
FLOOR = 0.002     # relative spread assumed per value when a window's values happen to agree exactly


class Series:
    def __init__(self, fingerprint, device, name, metric, lower_is_better):
        self.fingerprint, self.device, self.name = fingerprint, device, name
        self.metric, self.lower_is_better = metric, bool(lower_is_better)
        self.dates, self.run_ids, self.revisions, self.values, self.noise, self.flagged = [], [], [], [], [], []
        self.changes = []

    def slower(self, step):
        """A relative change of the value, as a slowdown (> 0) or a speed-up (< 0)."""
        return step if self.lower_is_better else 1.0 / (1.0 + step) - 1.0


class Change:
    def __init__(self, index, before, after, pvalue, runs_before, runs_after):
        self.index, self.before, self.after, self.pvalue = index, before, after, pvalue
        self.runs_before, self.runs_after = runs_before, runs_after

    @property
    def step(self):
        return self.after / self.before - 1.0


def load(store, fingerprint=None, names=None):
    """{(fingerprint, name): Series} for the store's runs, of one device fingerprint if given."""
    sql = ("SELECT ru.device_fingerprint, ru.device, r.name, r.metric, r.lower_is_better, ru.date, ru.id, "
           "ru.git_revision, r.value, r.noise, r.host_busy, r.device_slow, r.converged "
           "FROM results r JOIN runs ru ON ru.id = r.run_id WHERE r.error IS NULL AND r.value > 0")
    params = []
    if fingerprint:
        sql += " AND ru.device_fingerprint = ?"
        params.append(fingerprint)
    sql += " ORDER BY ru.device_fingerprint, r.name, ru.date, ru.ingested_at, r.repetition"
    out = {}
    pending = None  # (series, run id, [values], [noise], flagged): a run's repetitions, gathered
    for fp, device, name, metric, lib, date, run_id, revision, value, noise, busy, slow, converged in \
            store.query(sql, params):
        if names is not None and not names(name):
            continue
        series = out.get((fp, name))
        if series is None:
            series = out[(fp, name)] = Series(fp, device, name, metric, lib)
        if pending and (pending[0] is not series or pending[1] != run_id):
            _append(*pending)
            pending = None
        if pending is None:
            pending = (series, run_id, date, revision, [], [], [])
        pending[4].append(value)
        if noise is not None:
            pending[5].append(noise)
        pending[6].append(bool(busy or slow or converged == 0))
    if pending:
        _append(*pending)
    return out


def _append(series, run_id, date, revision, values, noise, flagged):
    series.run_ids.append(run_id)
    series.dates.append(date)
    series.revisions.append(revision)
    series.values.append(values[0] if len(values) == 1 else statistics.median(values))
    series.noise.append((noise[0] if len(noise) == 1 else statistics.median(noise)) if noise else None)
    series.flagged.append(all(flagged))


def find_changes(series, window=WINDOW, persist=PERSIST, threshold=THRESHOLD, alpha=ALPHA):
    """Set series.changes (Change, oldest first) from its unflagged values."""
    import numpy as np  # imported here: ingest and gate start faster without it
    keep = [i for i, f in enumerate(series.flagged) if not f]
    values = np.log(np.asarray([series.values[i] for i in keep], dtype=float))
    series.changes = [Change(keep[c.index], c.before, c.after, c.pvalue, c.runs_before, c.runs_after)
                      for c in changes(values, window, persist, threshold, alpha)]
    return series.changes


def changes(logs, window=WINDOW, persist=PERSIST, threshold=THRESHOLD, alpha=ALPHA):
    """Change points of a series of logs, oldest first (indices into logs)."""
    n = len(logs)
    minimum = max(persist, 2)
    if n < minimum + persist:
        return []
    import numpy as np
    from scipy.special import stdtr
    c1 = np.concatenate([[0.0], np.cumsum(logs)])
    c2 = np.concatenate([[0.0], np.cumsum(logs * logs)])
    split = np.arange(minimum, n - persist + 1)
    lo, hi = np.maximum(0, split - window), np.minimum(n, split + window)
    nb, na = split - lo, hi - split
    mean_b, mean_a = (c1[split] - c1[lo]) / nb, (c1[hi] - c1[split]) / na
    var_b = np.maximum((c2[split] - c2[lo]) - nb * mean_b ** 2, 0.0) / (nb - 1)
    var_a = np.maximum((c2[hi] - c2[split]) - na * mean_a ** 2, 0.0) / np.maximum(na - 1, 1)
    se = np.sqrt((var_b + FLOOR ** 2) / nb + (var_a + FLOOR ** 2) / na)
    d = mean_a - mean_b
    t = np.abs(d) / se
    p = 2.0 * stdtr(nb + na - 2, -t)
    candidates = np.nonzero((p < alpha) & (np.abs(np.expm1(d)) > threshold))[0]
    found = []
    for k in sorted(candidates, key=lambda k: -t[k]):
        i = int(split[k])
        if any(abs(i - j.index) < window for j in found):
            continue  # the same step seen from a neighbouring split
        before = math.exp(float(np.median(logs[lo[k]:i])))
        after = math.exp(float(np.median(logs[i:hi[k]])))
        if abs(after / before - 1.0) <= threshold:
            continue  # an outlier moved the mean, not the median: no step
        found.append(Change(i, before, after, float(p[k]), int(nb[k]), int(na[k])))
    return sorted(found, key=lambda c: c.index)
