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
  components JSON...         where the spread over forks lives, for JMH JSON files (.json or .json.xz) whose forks
                             measured several iterations (--metric, default e2e.proxy.cpu; --from N, the first
                             iteration read, default 1): the sd of log per iteration within a fork, the sd of the
                             fork means and the part of it the within-fork noise cannot explain (between forks),
                             pooled over every result of the files. A large between-fork part means more forks, not
                             longer ones, narrow an interval. --with METRIC: how a second metric moves with it (the
                             correlation of their fork means, and of their iterations within a fork)

Exit 2 for bad usage or input that is not what the command reads.
"""
import argparse
import glob
import json
import lzma
import math
import os
import re
import statistics as st
import sys


class BadInput(Exception):
    pass


def load(path):
    try:
        with (lzma.open(path, 'rt') if path.endswith('.xz') else open(path)) as f:
            return json.load(f)
    except (OSError, ValueError, lzma.LZMAError) as e:
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


def log_forks(result, metric_name, start):
    """The logs of a metric's iterations from `start` on, per fork; None if the result lacks the metric."""
    metric = (result['primaryMetric'] if metric_name == 'primary'
              else result.get('secondaryMetrics', {}).get(metric_name))
    if metric is None:
        return None
    return [[math.log(v) for v in fork[start - 1:] if v > 0] for fork in metric['rawData']]


def components(args):
    if args.start < 1:
        raise BadInput(f'--from {args.start}: iterations count from 1')
    within_ss, within_df, between_ss, between_df, iterations, results = 0.0, 0, 0.0, 0, set(), 0
    fork_devs, iteration_devs = [], []  # (metric, --with) deviations: of fork means, of iterations in their fork
    for path in args.files:
        for result in load(path):
            forks = log_forks(result, args.metric, args.start)
            if forks is None or sum(1 for f in forks if len(f) >= 2) < 2 or any(len(f) < 2 for f in forks):
                continue
            results += 1
            means = [st.mean(f) for f in forks]
            for f, m in zip(forks, means):
                within_ss += sum((x - m) ** 2 for x in f)
                within_df += len(f) - 1
                iterations.add(len(f))
            grand = st.mean(means)
            between_ss += sum((m - grand) ** 2 for m in means)
            between_df += len(means) - 1
            other = log_forks(result, args.against, args.start) if args.against else None
            if other is not None and [len(f) for f in other] == [len(f) for f in forks]:
                other_means = [st.mean(f) for f in other]
                other_grand = st.mean(other_means)
                fork_devs += [(m - grand, o - other_grand) for m, o in zip(means, other_means)]
                for f, m, g, o in zip(forks, means, other, other_means):
                    iteration_devs += [(x - m, y - o) for x, y in zip(f, g)]
    if results == 0:
        raise BadInput(f'no result with 2 or more forks of 2 or more iterations of {args.metric!r} from iteration '
                       f'{args.start} in {", ".join(args.files)}')
    n = min(iterations)
    within = math.sqrt(within_ss / within_df)
    of_means = math.sqrt(between_ss / between_df)
    between = math.sqrt(max(0.0, of_means ** 2 - within ** 2 / n))
    print(f'{args.metric}, iterations {args.start} on ({n}+ per fork), {results} results pooled: within a fork, sd of '
          f'log per iteration {within:.3f} ({within_df} df); sd of the fork means {of_means:.3f} ({between_df} df), '
          f'of which the within-fork noise explains {within / math.sqrt(n):.3f}; between forks {between:.3f}')
    if args.against:
        if len(fork_devs) < 3:
            raise BadInput(f'--with {args.against}: no such metric with the same forks and iterations as {args.metric}')
        print(f'with {args.against}: correlation of the fork means (each from its result\'s mean) '
              f'{correlation(fork_devs):.2f} over {len(fork_devs)} forks; of the iterations within their fork '
              f'{correlation(iteration_devs):.2f} over {len(iteration_devs)}')


def correlation(pairs):
    """Pearson's r of deviations that already have mean 0 within each group."""
    sxy = sum(x * y for x, y in pairs)
    sxx = sum(x * x for x, _ in pairs)
    syy = sum(y * y for _, y in pairs)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float('nan')


def main(argv):
    parser = argparse.ArgumentParser(prog='gate-stats.py', description=__doc__.split('\n\n')[0],
                                     epilog=__doc__.split('\n\n', 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest='command', required=True, metavar='COMMAND',
                                     help='pool, calibration-noise, spread, order or components')
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
    p = commands.add_parser('components', help='within- and between-fork noise of JMH JSON files')
    p.add_argument('files', nargs='+', metavar='JSON')
    p.add_argument('--metric', default='e2e.proxy.cpu', help='primary or a secondary metric (default e2e.proxy.cpu)')
    p.add_argument('--from', dest='start', type=int, default=1, help='the first iteration read (default 1)')
    p.add_argument('--with', dest='against', metavar='METRIC',
                   help='a second metric: how its fork means and iterations move with the first')
    p.set_defaults(run=components)
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except (BadInput, KeyError, IndexError, TypeError) as e:
        print(f'gate-stats.py {args.command}: {e}', file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
