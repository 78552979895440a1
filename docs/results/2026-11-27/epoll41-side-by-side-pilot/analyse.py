"""C004-1 side by side (pilot): per fork, the mean over measured cycles of the per-cycle ratio of two arms; the
sd of the fork log ratios; the 95% t interval over forks; the adoption rule and the rounds rule written before."""
import json, sys, math, statistics as st
d = json.load(open(sys.argv[1]))[0]; sec = d['secondaryMetrics']
fork_seconds = float(sys.argv[2])          # the pilot's measured wall time per fork
T975 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262, 11: 2.228, 12: 2.201}
T80 = {2: 1.376, 3: 1.061, 4: 0.978, 5: 0.941, 6: 0.920, 7: 0.906, 8: 0.896, 9: 0.889, 10: 0.883, 11: 0.879, 12: 0.876}
def raw(arm, m):
    return sec[f'e2e.arm.{arm}.{m}']['rawData']
def check(name, m, a, b):
    forks = [math.log(st.mean([p / q for p, q in zip(fa, fb)])) for fa, fb in zip(raw(a, m), raw(b, m))]
    n = len(forks); mean = st.mean(forks); sd = st.stdev(forks); hw = T975[n] * sd / math.sqrt(n)
    print(f'{name:36} {math.exp(mean):.4f} [{math.exp(mean - hw):.4f}, {math.exp(mean + hw):.4f}] sd {sd:.4f} '
          f'forks {" ".join("%.4f" % math.exp(f) for f in forks)}')
    return mean, sd
ee, ll, le, el = 'direct/edge-edge', 'direct/level-level', 'direct/level-edge', 'direct/edge-level'
mean, sd = check('req/s ET+ET / LT+LT (decisive)', 'rps', ee, ll)
check('req/s LT+ET / LT+LT', 'rps', le, ll)
check('req/s ET+LT / LT+LT', 'rps', el, ll)
check('origin CPU/request ET+ET / LT+LT', 'origin.cpu', ee, ll)
check('client CPU/request ET+ET / LT+LT', 'client.cpu', ee, ll)
for arm in (ee, ll, le, el):
    print(f'{arm:20} req/s per fork {[round(st.mean(f)) for f in raw(arm, "rps")]} '
          f'connections/request {[round(st.mean(f), 4) for f in raw(arm, "connectionsPerRequest")]} '
          f'origin CPU us/req {[round(st.mean(f), 2) for f in raw(arm, "origin.cpu")]} '
          f'client CPU us/req {[round(st.mean(f), 2) for f in raw(arm, "client.cpu")]}')
budget = 324.0                             # epoll41 (12 forks) + epoll41-mixed (6 forks) x 18 s, claims.jmh's estimate
R = max(3, int(budget // fork_seconds))
hw = T975[R] * sd / math.sqrt(R)
print(f'fork {fork_seconds:.1f} s; forks in {budget:.0f} s: R = {R}; expected half-width {hw:.4f} vs 0.0884: '
      + ('ADOPT' if hw < 0.0884 else 'NOT ADOPTED'))
d_ = abs(math.log(1.05) - mean)
r = next((k for k in range(3, R + 1) if (T975[k] + T80[k]) * sd / math.sqrt(k) < d_), R)
print(f'rounds: smallest R >= 3 with 80% power at distance {d_:.4f}: {r} (cap {R})')
