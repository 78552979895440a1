#!/usr/bin/env python3
"""Pooled over every fork of a side-by-side null proof (DIR/family-NN/results.json[.gz]): the per-fork log ratio
twin B / twin A (each fork's mean of its cycles' ratios, as the rule reads it) of requests/s and of each process's CPU per
request: its mean with a 95% t interval (an interval without 0: a bias between the two arms of one fork), the sd
between forks against the within-fork sd of the cycles' log ratios / sqrt(cycles), and the excess kurtosis. Where the
results record each proxy's place in the start order (e2e.arm.ARM.proxy.startPosition, random per fork), also the
forks split by which twin started first: B / A where B started second over B / A where B started first (Welch).

    python3 analyse.py DIR
"""
import glob
import gzip
import json
import math
import sys
from statistics import mean, stdev



def t975(df):
    """Student's t 0.975 quantile (Cornish-Fisher expansion: within 0.001 from 10 degrees of freedom on)."""
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)

root = sys.argv[1] if len(sys.argv) > 1 else '.'
a = 'e2e.arm.7/reuse-server-thread/adaptive'
b = a + '/twin-b'


def results(fam):
    for name in ('results.json', 'results.json.gz'):
        path = fam + '/' + name
        try:
            with (gzip.open(path, 'rt') if name.endswith('.gz') else open(path)) as f:
                return json.load(f)
        except FileNotFoundError:
            pass
    return []


for met in ['rps', 'proxy.cpu', 'origin.cpu', 'client.cpu']:
    forks, within, by_order = [], [], {0: [], 1: []}
    for fam in sorted(glob.glob(root + '/family-*')):
        for r in results(fam):
            sm = r['secondaryMetrics']
            position = sm.get(b + '.proxy.startPosition', {}).get('rawData')
            for i, (xa, xb) in enumerate(zip(sm[a + '.' + met]['rawData'], sm[b + '.' + met]['rawData'])):
                rat = [y / x for x, y in zip(xa, xb)]
                forks.append(math.log(mean(rat)))
                within.append(stdev([math.log(v) for v in rat]) / math.sqrt(len(rat)))
                if position:
                    by_order[int(position[i][0])].append(forks[-1])
    n = len(forks)
    m, s = mean(forks), stdev(forks)
    h = t975(n - 1) * s / math.sqrt(n)
    k = sum((x - m) ** 4 for x in forks) / n / (sum((x - m) ** 2 for x in forks) / n) ** 2 - 3
    w = math.sqrt(mean([v * v for v in within]))
    print(f"{met:10s} {n} forks: B / A {math.exp(m):.4f} [{math.exp(m - h):.4f}, {math.exp(m + h):.4f}];"
          f" sd of the fork log ratios {s:.4f}, of the cycles' / sqrt(cycles) {w:.4f} (x{s / w:.2f}); excess kurtosis {k:+.2f}")
    if by_order[0] and by_order[1]:
        second, first = by_order[1], by_order[0]
        d = mean(second) - mean(first)
        va, vb = stdev(second) ** 2 / len(second), stdev(first) ** 2 / len(first)
        se = math.sqrt(va + vb)
        df = (va + vb) ** 2 / (va * va / (len(second) - 1) + vb * vb / (len(first) - 1))
        print(f"{'':10s} B started second ({len(second)} forks) {math.exp(mean(second)):.4f}, first ({len(first)})"
              f" {math.exp(mean(first)):.4f}: second / first {math.exp(d):.4f}"
              f" [{math.exp(d - t975(df) * se):.4f}, {math.exp(d + t975(df) * se):.4f}]")
