"""C000-7 side by side, pilot: per fork the mean over iterations of largeLimitNanos / smallLimitNanos (equal request
counts), the sd of the fork log ratios, the one-sample 95% interval over forks, and the adoption rule and rounds
written before the pilot (README.md). Usage: analyse.py results.json FORK_SECONDS"""
import json, math, statistics as st, sys

# t quantiles (two-sided 95%: t(0.975, df); 80% power: t(0.80, df)), df 1..30
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
T80 = [1.376, 1.061, 0.978, 0.941, 0.920, 0.906, 0.896, 0.889, 0.883, 0.879, 0.876, 0.873, 0.870, 0.868, 0.866,
       0.865, 0.863, 0.862, 0.861, 0.860, 0.859, 0.858, 0.858, 0.857, 0.856, 0.856, 0.855, 0.855, 0.854, 0.854]

d = json.load(open(sys.argv[1]))[0]
fork_seconds = float(sys.argv[2])
sec = d['secondaryMetrics']
small, large = sec['smallLimitNanos']['rawData'], sec['largeLimitNanos']['rawData']
requests = sec['requestsPerLimit']['rawData']
forks = []
for f, (s, l) in enumerate(zip(small, large)):
    ratios = [b / a for a, b in zip(s, l)]
    forks.append(math.log(st.mean(ratios)))
    print(f'fork {f}: large/small by iteration {" ".join("%.4f" % r for r in ratios)}; mean {st.mean(ratios):.4f}; '
          f'ns/request small {sum(s) / sum(requests[f]):.1f}, large {sum(l) / sum(requests[f]):.1f}')
n = len(forks)
mean, sd = st.mean(forks), st.stdev(forks)
hw = T975[n - 2] * sd / math.sqrt(n)
print(f'{n} forks: large/small {math.exp(mean):.4f} [{math.exp(mean - hw):.4f}, {math.exp(mean + hw):.4f}], '
      f'sd of fork log ratios {sd:.4f}')

CURRENT_LINE_SECONDS = 24 * 7.0   # aggregator: 12 rounds x 2 arms, 7 s a fork (claims run 11's fork logs)
CURRENT_HALF_WIDTH = 2.201 * 0.052 / math.sqrt(12)  # t(0.975, 11) x runs 10-11's paired sd / sqrt(12) = 0.0330
cap = int(CURRENT_LINE_SECONDS // fork_seconds)
cap_hw = T975[cap - 2] * sd / math.sqrt(cap)
print(f'rounds that fit the current line\'s {CURRENT_LINE_SECONDS:.0f} s at {fork_seconds:.1f} s a fork: {cap}; '
      f'expected half-width there {cap_hw:.4f} against the current line\'s {CURRENT_HALF_WIDTH:.4f}: '
      + ('ADOPT' if cap_hw < CURRENT_HALF_WIDTH else 'DO NOT ADOPT'))
dist = math.log(1.01) - abs(mean)
need = next((r for r in range(3, 31) if (T975[r - 2] + T80[r - 2]) * sd / math.sqrt(r) < dist), None)
print(f'distance ln(1.01) - |mean log| = {dist:.4f}; rounds for 80% power: {need if need else "over 30"}; '
      f'rounds for the line: {min(need, cap) if need else cap}')
