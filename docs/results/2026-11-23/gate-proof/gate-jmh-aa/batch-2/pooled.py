import json, sys, glob, math, statistics as st
gates = sorted(glob.glob(sys.argv[1] + '/aa-*/gate.json'))
rows = {}
alarms = 0; secs = []; done = []
for g in gates:
    j = json.load(open(g))
    if j['verdict'] == 'RUNNING':
        continue
    secs.append(j['seconds']); done.append(g)
    if any(r['verdict'] == 'REGRESSION' for r in j['results']): alarms += 1
    for r in j['results']:
        name = r['benchmark'].split(' {')[0].split(' ')[0]
        params = r['benchmark']
        if 'layer=4' in params: name += ' L4'
        elif 'layer=7' in params and 'PipelineCost' in name: name += ' L7'
        key = (name, 'score' if r['metric'] == 'primary' else r['metric'])
        d = rows.setdefault(key, {'logs': [], 'ratios': [], 'halfw': [], 'verdicts': []})
        d['logs'] += [math.log(c / b) for b, c in zip(r['baselineForks'], r['candidateForks'])]
        d['ratios'].append(r['ratio']); d['verdicts'].append(r['verdict'])
        d['halfw'].append((r['upper'] - r['lower']) / 2)
print(f"{len(done)} A/A gates; any alarm in {alarms}; seconds per gate {min(secs):.0f}-{max(secs):.0f}")
print("| benchmark | metric | change per gate, range | 95% half-width, median | sd of paired fork log ratios | verdicts |")
print("| --- | --- | --- | --- | --- | --- |")
for (n, m), d in sorted(rows.items()):
    lo, hi = min(d['ratios']) - 1, max(d['ratios']) - 1
    v = {x: d['verdicts'].count(x) for x in set(d['verdicts'])}
    print(f"| {n} | {m} | {100*lo:+.2f}% .. {100*hi:+.2f}% | ±{100*st.median(d['halfw']):.2f}% | {100*st.stdev(d['logs']):.2f}% | {', '.join(f'{k} {c}' for k, c in sorted(v.items()))} |")
