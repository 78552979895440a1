# Pools the power gates of one directory: per gate the calibration's verdicts, change, interval and Holm p (the
# injected changes); over all gates, per metric, the sd of the paired fork log ratios and the verdicts.
# Usage: python3 pooled.py DIR [PREFIX]   (DIR holds PREFIX*/gate.json; PREFIX defaults to power-)
import json, sys, glob, math, statistics as st
prefix = sys.argv[2] if len(sys.argv) > 2 else 'power-'
gates = sorted(glob.glob(sys.argv[1] + '/' + prefix + '*/gate.json'))
rows = {}
print("| gate | seconds | calibration score: change (95% interval), Holm p, verdict | calibration B/op | any other alarm |")
print("| --- | --- | --- | --- | --- |")
for g in gates:
    j = json.load(open(g))
    cal = {('score' if r['metric'] == 'primary' else 'B/op'): r for r in j['results'] if r['benchmark'].startswith('CalibrationBenchmark')}
    others = sum(1 for r in j['results'] if r['verdict'] == 'REGRESSION' and not r['benchmark'].startswith('CalibrationBenchmark'))
    s, b = cal['score'], cal['B/op']
    print(f"| {g.split('/')[-2]} | {j['seconds']:.0f} | {100*(s['ratio']-1):+.2f}% ({100*(s['lower']-1):+.2f}% .. {100*(s['upper']-1):+.2f}%), "
          f"p {s['pWorseHolm']:.2g}, {s['verdict']} | {100*(b['ratio']-1):+.2f}%, {b['verdict']} | {others} |")
    for r in j['results']:
        name = r['benchmark'].split(' {')[0].split(' ')[0]
        if 'layer=4' in r['benchmark']: name += ' L4'
        elif 'layer=7' in r['benchmark'] and 'PipelineCost' in name: name += ' L7'
        d = rows.setdefault((name, 'score' if r['metric'] == 'primary' else r['metric']), {'logs': [], 'verdicts': []})
        d['logs'] += [math.log(c / bb) for bb, c in zip(r['baselineForks'], r['candidateForks'])]
        d['verdicts'].append(r['verdict'])
print()
print("| benchmark | metric | sd of paired fork log ratios | verdicts |")
print("| --- | --- | --- | --- |")
for (n, m), d in sorted(rows.items()):
    v = {x: d['verdicts'].count(x) for x in set(d['verdicts'])}
    print(f"| {n} | {m} | {100*st.stdev(d['logs']):.2f}% | {', '.join(f'{k} {c}' for k, c in sorted(v.items()))} |")
