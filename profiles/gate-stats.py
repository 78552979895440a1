#!/usr/bin/env python3
"""Statistics over the gate's own outputs (DIR/gate.json, DIR/forks/ of `loopbench gate`, as profiles/gate-proof.sh
keeps them) and over JMH JSON files: what the gate's proof reports beyond its tally. Markdown or plain lines on stdout.

  pool DIR [--per-gate]      the gates DIR/*/gate.json pooled: per benchmark and metric, the change per gate (range),
                             the median 95% half-width, the sd of the paired fork log ratios and the verdicts;
                             --per-gate adds a row per gate with the calibration's score and B/op (power gates)
  calibration-noise GATE...  per gate (a directory with forks/), the sd of the calibration line's paired fork log
                             ratio beside the sd of log(iteration i+1 / iteration i) within its forks: alike means the
                             noise is second to second, and more measured iterations per fork shrink it
  spread JSON...             per JMH JSON file, the spread over its forks of the score and of a secondary metric
                             (--metric, default e2e.proxy.cpu): median, range, sd of log, sd of a pair's log ratio
  order GATE...              the effect of running second in a pair: per line and metric, log(second / first fork)
                             over every pair (which fork ran first from the fork files' times), mean, t and sd

Exit 2 for bad usage or input that is not what the command reads.
"""
import argparse
import glob
import json
import math
import os
import re
import statistics as st
import sys


class BadInput(Exception):
    pass


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput(f'{path}: {e}')


def short_name(benchmark):
    """'PipelineCostBenchmark.exchange avgt {..., layer=4, ...}' -> 'PipelineCostBenchmark.exchange L4'."""
    name = benchmark.split(' {')[0].split(' ')[0]
    if 'layer=4' in benchmark:
        name += ' L4'
    elif 'layer=7' in benchmark and 'PipelineCost' in name:
        name += ' L7'
    return name


def metric_name(metric):
    return 'score' if metric == 'primary' else metric


def pool(args):
    gates = []
    for path in sorted(glob.glob(os.path.join(args.dir, '*', 'gate.json'))):
        gate = load(path)
        if gate.get('verdict') != 'RUNNING':
            gates.append((os.path.basename(os.path.dirname(path)), gate))
    if not gates:
        raise BadInput(f'{args.dir}: no finished gate (no */gate.json)')
    kinds = {re.sub(r'-?\d+$', '', name) for name, _ in gates}
    label = {'aa': ' A/A', 'power': ' power', 'flag': ' flag'}.get(kinds.pop(), '') if len(kinds) == 1 else ''
    alarms = sum(1 for _, g in gates if any(r['verdict'] == 'REGRESSION' for r in g['results']))
    seconds = [g['seconds'] for _, g in gates]
    print(f'{len(gates)}{label} gates; any alarm in {alarms}; seconds per gate {min(seconds):.0f}-{max(seconds):.0f}')
    if args.per_gate:
        print('| gate | seconds | calibration score: change (95% interval), Holm p, verdict | calibration B/op '
              '| any other alarm |')
        print('| --- | --- | --- | --- | --- |')
        for name, g in gates:
            cal = {metric_name(r['metric']): r for r in g['results']
                   if r['benchmark'].startswith('CalibrationBenchmark')}
            if 'score' not in cal or 'gc.alloc.rate.norm' not in cal:
                raise BadInput(f'{args.dir}/{name}: no CalibrationBenchmark score and B/op in gate.json')
            others = sum(1 for r in g['results']
                         if r['verdict'] == 'REGRESSION' and not r['benchmark'].startswith('CalibrationBenchmark'))
            s, b = cal['score'], cal['gc.alloc.rate.norm']
            print(f"| {name} | {g['seconds']:.0f} | {100 * (s['ratio'] - 1):+.2f}% ({100 * (s['lower'] - 1):+.2f}% "
                  f".. {100 * (s['upper'] - 1):+.2f}%), p {s['pWorseHolm']:.2g}, {s['verdict']} "
                  f"| {100 * (b['ratio'] - 1):+.2f}%, {b['verdict']} | {others} |")
        print()
    rows = {}
    for _, g in gates:
        for r in g['results']:
            d = rows.setdefault((short_name(r['benchmark']), metric_name(r['metric'])),
                                {'logs': [], 'ratios': [], 'halfw': [], 'verdicts': []})
            d['logs'] += [math.log(c / b) for b, c in zip(r['baselineForks'], r['candidateForks'])]
            d['ratios'].append(r['ratio'])
            d['verdicts'].append(r['verdict'])
            d['halfw'].append((r['upper'] - r['lower']) / 2)
    print('| benchmark | metric | change per gate, range | 95% half-width, median | sd of paired fork log ratios '
          '| verdicts |')
    print('| --- | --- | --- | --- | --- | --- |')
    for (n, m), d in sorted(rows.items()):
        lo, hi = min(d['ratios']) - 1, max(d['ratios']) - 1
        v = {x: d['verdicts'].count(x) for x in set(d['verdicts'])}
        sd = f"{100 * st.stdev(d['logs']):.2f}%" if len(d['logs']) > 1 else '-'
        print(f"| {n} | {m} | {100 * lo:+.2f}% .. {100 * hi:+.2f}% | ±{100 * st.median(d['halfw']):.2f}% | {sd} "
              f"| {', '.join(f'{k} {c}' for k, c in sorted(v.items()))} |")


def fork_files(gate_dir, line=None):
    """{(round, line): {side: path}} of a gate directory's forks/rNN-lLL-SIDE.json."""
    found = {}
    for path in glob.glob(os.path.join(gate_dir, 'forks', 'r*-l*-*.json')):
        m = re.fullmatch(r'r(\d+)-l(\d+)-(baseline|candidate)\.json', os.path.basename(path))
        if m and (line is None or int(m.group(2)) == line):
            found.setdefault((int(m.group(1)), int(m.group(2))), {})[m.group(3)] = path
    pairs = {k: v for k, v in found.items() if len(v) == 2}
    if not pairs:
        raise BadInput(f'{gate_dir}: no pair of forks/rNN-lLL-baseline.json and -candidate.json'
                       + (f' for line {line}' if line else ''))
    return pairs


def calibration_noise(args):
    for g in args.gates:
        pairs, within = [], []
        for (_, _), sides in sorted(fork_files(g, args.line).items()):
            mean = {}
            for side, path in sides.items():
                raw = load(path)[0]['primaryMetric']['rawData'][0]
                mean[side] = st.mean(raw)
                within += [math.log(raw[i + 1] / raw[i]) for i in range(len(raw) - 1)]
            pairs.append(math.log(mean['candidate'] / mean['baseline']))
        if len(pairs) < 2 or len(within) < 2:
            raise BadInput(f'{g}: fewer than 2 fork pairs or iterations on line {args.line}')
        print(f'{g}: fork pairs {len(pairs)}, paired log ratio mean {100 * st.mean(pairs):+.2f}% '
              f'sd {100 * st.stdev(pairs):.2f}%; successive iterations within a fork: sd {100 * st.stdev(within):.2f}% '
              f'({len(within)} steps)')


def spread(args):
    for path in args.files:
        result = load(path)[0]
        secondary = result.get('secondaryMetrics', {})
        if args.metric not in secondary:
            raise BadInput(f'{path}: no secondary metric {args.metric!r}; it has: {", ".join(sorted(secondary))}')
        for name, metric in ((result['primaryMetric']['scoreUnit'], result['primaryMetric']),
                             (args.metric, secondary[args.metric])):
            values = [v for fork in metric['rawData'] for v in fork]
            if len(values) < 2:
                raise BadInput(f'{path}: {name}: fewer than 2 values')
            logs = [math.log(v) for v in values]
            # A gate pairs one fork of each side: the sd of a pair's log ratio is sqrt(2) times that of one fork.
            print(f'{path}: {name}: {len(values)} forks, median {st.median(values):.1f}, '
                  f'range {min(values):.1f}..{max(values):.1f}, sd of log {st.stdev(logs):.3f}, '
                  f'of a pair\'s log ratio {st.stdev(logs) * math.sqrt(2):.3f}')


def order(args):
    data = {}
    for g in args.gates:
        judged = {'primary', 'gc.alloc.rate.norm'}
        if os.path.exists(os.path.join(g, 'gate.json')):
            judged = {r['metric'] for r in load(os.path.join(g, 'gate.json'))['results']}
        for (_, line), sides in sorted(fork_files(g).items()):
            first, second = sorted(sides, key=lambda side: os.stat(sides[side]).st_mtime)
            a, b = load(sides[first]), load(sides[second])
            for ra, rb in zip(a, b):
                for m in sorted(judged):
                    if m == 'primary':
                        va, vb = ra['primaryMetric']['score'], rb['primaryMetric']['score']
                    elif m in ra.get('secondaryMetrics', {}) and m in rb.get('secondaryMetrics', {}):
                        va, vb = ra['secondaryMetrics'][m]['score'], rb['secondaryMetrics'][m]['score']
                    else:
                        continue
                    if va > 0 and vb > 0:
                        data.setdefault((line, metric_name(m)), []).append(math.log(vb / va))
    for (line, m), xs in sorted(data.items()):
        if len(xs) < 2 or st.pstdev(xs) == 0:
            continue
        mean, se = st.mean(xs), st.stdev(xs) / math.sqrt(len(xs))
        print(f'line {line} {m:22s} n={len(xs)} second/first mean {100 * (math.exp(mean) - 1):+.2f}%  '
              f't={mean / se:+.2f}  sd {100 * st.stdev(xs):.2f}%')


def main(argv):
    parser = argparse.ArgumentParser(prog='gate-stats.py', description=__doc__.split('\n\n')[0],
                                     epilog=__doc__.split('\n\n', 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest='command', required=True, metavar='COMMAND',
                                     help='pool, calibration-noise, spread or order')
    p = commands.add_parser('pool', help='pool the gates of a directory')
    p.add_argument('dir', metavar='DIR')
    p.add_argument('--per-gate', action='store_true', help="a row per gate with the calibration's verdicts")
    p.set_defaults(run=pool)
    p = commands.add_parser('calibration-noise', help="where the calibration line's noise lives")
    p.add_argument('gates', nargs='+', metavar='GATE')
    p.add_argument('--line', type=int, default=1, help="the calibration's line in the profile (default 1)")
    p.set_defaults(run=calibration_noise)
    p = commands.add_parser('spread', help='the spread over forks of JMH JSON files')
    p.add_argument('files', nargs='+', metavar='JSON')
    p.add_argument('--metric', default='e2e.proxy.cpu', help='the secondary metric (default e2e.proxy.cpu)')
    p.set_defaults(run=spread)
    p = commands.add_parser('order', help='the effect of running second in a pair')
    p.add_argument('gates', nargs='+', metavar='GATE')
    p.set_defaults(run=order)
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except (BadInput, KeyError, IndexError, TypeError) as e:
        print(f'gate-stats.py {args.command}: {e}', file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
