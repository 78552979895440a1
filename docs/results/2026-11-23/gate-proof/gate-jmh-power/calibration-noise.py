# Where the calibration line's noise lives, from a gate's raw forks (DIR/<gate>/forks/rNN-l01-<side>.json, the
# calibration being line 1): per gate, the sd of the paired log ratio of fork means (what the gate tests) and the sd
# of log(iteration 2 / iteration 1) within a fork. When the two are alike, the noise is second to second and more
# measured iterations per fork shrink it; fork-level drift would not shrink.  Usage: python3 calibration-noise.py DIR...
import json, sys, glob, math, statistics as st
for g in sys.argv[1:]:
    pairs, within = {}, []
    for f in glob.glob(g + '/forks/r*-l01-*.json'):
        raw = json.load(open(f))[0]['primaryMetric']['rawData'][0]
        rnd, side = f.split('/')[-1].split('-')[0], f.rsplit('-', 1)[1][:-5]
        pairs.setdefault(rnd, {})[side] = st.mean(raw)
        within += [math.log(raw[i + 1] / raw[i]) for i in range(len(raw) - 1)]
    lr = [math.log(p['candidate'] / p['baseline']) for p in pairs.values()]
    print(f"{g}: fork pairs {len(lr)}, paired log ratio mean {100*st.mean(lr):+.2f}% sd {100*st.stdev(lr):.2f}%; "
          f"successive iterations within a fork: sd {100*st.stdev(within):.2f}% ({len(within)} steps)")
