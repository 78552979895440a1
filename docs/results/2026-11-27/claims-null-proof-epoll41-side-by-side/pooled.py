"""Pooled over every fork of every family: mean log(server B / server A requests/s), 95% interval (bias check); the
same split by which server started first (startPosition of A: 0 = A first)."""
import json, math, statistics as st, sys, glob
A, B = 'e2e.arm.direct/edge-edge.', 'e2e.arm.direct/edge-edge/twin-b.'
logs, by_order = [], {0: [], 1: []}
for f in sorted(glob.glob(sys.argv[1] + '/family-*/results.json')):
    for r in json.load(open(f)):
        if not r['benchmark'].endswith('ProxySideBySideBenchmark.cycle'):
            continue
        sec = r['secondaryMetrics']
        for a, b, pos in zip(sec[A + 'rps']['rawData'], sec[B + 'rps']['rawData'], sec[A + 'proxy.startPosition']['rawData']):
            x = math.log(st.mean([q / p for p, q in zip(a, b)]))
            logs.append(x); by_order[int(round(pos[0]))].append(x)
def ci(v):
    n = len(v); m = st.mean(v); hw = 1.96 * st.stdev(v) / math.sqrt(n)
    return f'{n} forks: B/A {math.exp(m):.4f} [{math.exp(m - hw):.4f}, {math.exp(m + hw):.4f}] (normal approx.), sd {st.stdev(v):.4f}'
print('all', ci(logs))
print('A started first', ci(by_order[0]))
print('B started first', ci(by_order[1]))
