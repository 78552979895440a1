#!/usr/bin/env python3
"""Spread of paired twin ratios in a rounds run (profiles with [twins]).

usage: profiles/twin-spread.py RESULTS.json [METRIC ...]

For every arm run as twins A and B, and for each metric (the primary score, and any secondary metric named, e.g.
e2e.proxy.cpu), takes each fork's mean over its measurement iterations, pairs twin B with twin A by round, and prints
n (pairs), the mean and the sample standard deviation s of d = ln(B / A), and t(0.975, n-1) * s / sqrt(n): the
half-width, in log units, that a paired ratio over n rounds of such noise has. s sizes a check's rounds:
the smallest R with t(0.975, R-1) * s / sqrt(R) below the distance the check must resolve.
"""
import json
import math
import statistics
import sys

# t(0.975, df) for df = 1..30 (two-sided 95%); beyond, 1.96 is close enough for sizing.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    return T975[df - 1] if 1 <= df <= len(T975) else 1.96


def fork_means(metric):
    return [statistics.fmean(row) if row else float("nan") for row in metric["rawData"]]


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    try:
        results = json.load(open(argv[1]))
    except (OSError, ValueError) as e:
        print(f"twin-spread: {argv[1]}: {e}", file=sys.stderr)
        return 2
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        print(f"twin-spread: {argv[1]}: not JMH results (a JSON list of results)", file=sys.stderr)
        return 2
    wanted = argv[2:]
    arms = {}
    for r in results:
        lb = r.get("loopbench", {})
        if "twin" not in lb:
            continue
        key = (lb.get("group"), lb["arm"][:-4] if lb["arm"].endswith((" [A]", " [B]")) else lb["arm"])
        metrics = {"score (" + r["primaryMetric"]["scoreUnit"] + ")": r["primaryMetric"]}
        for name in wanted:
            if name in r.get("secondaryMetrics", {}):
                metrics[name] = r["secondaryMetrics"][name]
        arms.setdefault(key, {})[lb["twin"]] = (lb["rounds"], metrics)
    if not arms:
        print("twin-spread: no twin results in " + argv[1], file=sys.stderr)
        return 2
    print(f"{'group':<18} {'arm':<34} {'metric':<26} {'n':>3} {'mean d':>8} {'s':>7} {'half-width':>10}")
    for (group, arm), twins in sorted(arms.items()):
        if set(twins) != {"A", "B"}:
            continue
        rounds_a, metrics_a = twins["A"]
        rounds_b, metrics_b = twins["B"]
        for name in metrics_a:
            if name not in metrics_b:
                continue
            a = dict(zip(rounds_a, fork_means(metrics_a[name])))
            b = dict(zip(rounds_b, fork_means(metrics_b[name])))
            d = [math.log(b[k] / a[k]) for k in sorted(set(a) & set(b)) if a[k] > 0 and b[k] > 0]
            if len(d) < 2:
                continue
            s = statistics.stdev(d)
            print(f"{group:<18} {arm:<34} {name:<26} {len(d):>3} {statistics.fmean(d):>8.4f} {s:>7.4f} "
                  f"{t975(len(d) - 1) * s / math.sqrt(len(d)):>10.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
