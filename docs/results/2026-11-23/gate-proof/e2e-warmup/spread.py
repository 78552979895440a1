#!/usr/bin/env python3
"""Spread over forks of the end-to-end line's req/s and proxy CPU per request, from JMH JSON files given as args."""
import json, math, statistics as st, sys

for path in sys.argv[1:]:
    result = json.load(open(path))[0]
    metrics = (("req/s", result["primaryMetric"]), ("proxy CPU-µs/req", result["secondaryMetrics"]["e2e.proxy.cpu"]))
    for name, metric in metrics:
        values = [v for fork in metric["rawData"] for v in fork]
        logs = [math.log(v) for v in values]
        # A gate pairs one fork of each side: the sd of a pair's log ratio is sqrt(2) times that of one fork.
        print(f"{path}: {name}: {len(values)} forks, median {st.median(values):.1f}, range {min(values):.1f}..{max(values):.1f}, "
              f"sd of log {st.stdev(logs):.3f}, of a pair's log ratio {st.stdev(logs) * math.sqrt(2):.3f}")
