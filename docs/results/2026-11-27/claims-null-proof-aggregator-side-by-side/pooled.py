"""Pooled over every fork of every family: mean log(channel B / channel A), 95% t interval (bias check)."""
import json, math, statistics as st, sys, glob
logs = []
for f in sorted(glob.glob(sys.argv[1] + '/family-*/results.json')):
    for r in json.load(open(f)):
        if not r['benchmark'].endswith('AggregatorSideBySideBenchmark.cycle'):
            continue
        sec = r['secondaryMetrics']
        for s, l in zip(sec['smallLimitNanos']['rawData'], sec['largeLimitNanos']['rawData']):
            logs.append(math.log(st.mean([b / a for a, b in zip(s, l)])))
n = len(logs); m = st.mean(logs); sd = st.stdev(logs); hw = 1.96 * sd / math.sqrt(n) if n > 30 else float('nan')
print(f'{n} forks: B/A {math.exp(m):.4f} [{math.exp(m - hw):.4f}, {math.exp(m + hw):.4f}] (normal approx.), sd of fork log ratios {sd:.4f}')
