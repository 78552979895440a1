"""Merges one-fork JMH JSON files of the same benchmark into one file with every fork (what `loopbench compare`
reads): python3 merge.py OUT.json IN.json..."""
import json
import sys

out, first, *rest = sys.argv[1:]
merged = json.load(open(first))
for path in rest:
    for mine, theirs in zip(merged, json.load(open(path))):
        mine['primaryMetric']['rawData'] += theirs['primaryMetric']['rawData']
        for name, metric in mine['secondaryMetrics'].items():
            if 'rawData' in metric and name in theirs['secondaryMetrics']:
                metric['rawData'] += theirs['secondaryMetrics'][name]['rawData']
        mine['forks'] += theirs['forks']
json.dump(merged, open(out, 'w'), indent=1)
