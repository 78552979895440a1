import json, os, math, statistics as st, glob, sys
keys = {'Calibration': 1, 'layer=4': 2, 'layer=7': 3, 'Allocator': 4, 'Offload': 5, 'ProxyEndToEnd': 6}
def line_of(b):
    if 'ProxyEndToEnd' in b: return 6
    if 'PipelineCost' in b: return 2 if 'layer=4' in b else 3
    for k, v in keys.items():
        if k in b: return v
data = {}
for g in sorted(glob.glob(sys.argv[1] + '/aa-*/gate.json')):
    d = os.path.dirname(g); j = json.load(open(g))
    if j['verdict'] == 'RUNNING': continue
    for r in j['results']:
        l = line_of(r['benchmark']); m = 'score' if r['metric'] == 'primary' else r['metric']
        for i, (b, c) in enumerate(zip(r['baselineForks'], r['candidateForks'])):
            tb = os.stat(f"{d}/forks/r{i+1:02d}-l{l:02d}-baseline.json").st_mtime
            tc = os.stat(f"{d}/forks/r{i+1:02d}-l{l:02d}-candidate.json").st_mtime
            second_over_first = math.log(c / b) if tb < tc else math.log(b / c)
            data.setdefault((l, m), []).append(second_over_first)
for (l, m), xs in sorted(data.items()):
    if st.pstdev(xs) == 0: continue
    mean = st.mean(xs); se = st.stdev(xs) / math.sqrt(len(xs))
    print(f"line {l} {m:22s} n={len(xs)} second/first mean {100*(math.exp(mean)-1):+.2f}%  t={mean/se:+.2f}  sd {100*st.stdev(xs):.2f}%")
