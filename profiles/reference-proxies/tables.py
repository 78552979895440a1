"""compare.sh's tables, from the TSV files it writes round by round.

  python3 tables.py proxies runs.tsv          # every proxy (and its syscalls), then loopbench against the best
                                              # reference
  python3 tables.py generators generators.tsv # every load generator, then loopbench's generator against wrk

Medians over rounds with [min..max]: the rounds were interleaved, so a drifting machine moves every row alike.
"""
import csv
import statistics
import sys


def span(values, fmt):
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}..{fmt.format(max(values))}]"


def has_machine_cpu(rows):
    """Whole-machine CPU per request (every process and kernel thread) is there: runs.tsv files from before it was
    recorded lack the column, and the generators' files never have it."""
    return all(r.get('machine_cpu_us_per_req') for r in rows)


def cost_table(rows, key, title):
    """One row per distinct value of `key`: req/s, CPU, user, sys and context switches per request."""
    machine = has_machine_cpu(rows)
    print(f'| {title} | req/s, median [min..max] | CPU-µs/request, median [min..max] | of which user | of which sys '
          '| context switches/request |' + (' whole machine CPU-µs/request |' if machine else '') + ' rounds |')
    print('| --- | --- | --- | --- | --- | --- |' + (' --- |' if machine else '') + ' --- |')
    for name in dict.fromkeys(r[key] for r in rows):
        rs = [r for r in rows if r[key] == name]

        def med(k):
            return f"{statistics.median(float(r[k]) for r in rs):.2f}"

        print(f"| {name} | {span([float(r['req_per_s']) for r in rs], '{:,.0f}')} | "
              f"{span([float(r['cpu_us_per_req']) for r in rs], '{:.2f}')} | {med('user_us_per_req')} | "
              f"{med('sys_us_per_req')} | {span([float(r['ctxsw_per_req']) for r in rs], '{:.3f}')} | "
              + (f"{span([float(r['machine_cpu_us_per_req']) for r in rs], '{:.2f}')} | " if machine else '')
              + f"{len(rs)} |")


# The syscall groups compare.sh counts; "other" is the rest of the total (accept, connect, close, futex, ...).
GROUPS = ('reads_per_req', 'writes_per_req', 'epoll_waits_per_req', 'epoll_ctls_per_req')


def syscall_table(rows):
    """Syscalls per request, by proxy, when compare.sh could count them (perf; runs.tsv files from before it did lack
    the columns)."""
    counted = [r for r in rows if r.get('syscalls_per_req') not in (None, '', '-')]
    if not counted:
        return
    print()
    print('Syscalls per request, counted by `perf stat` on the syscall tracepoints over each round\'s settle run (the '
          'measured run is not traced; its connection set-up is included):')
    print()
    print('| proxy | syscalls/request, median [min..max] | reads | writes | epoll waits | epoll_ctl | other | rounds |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for name in dict.fromkeys(r['proxy'] for r in counted):
        rs = [r for r in counted if r['proxy'] == name]

        def med(k):
            return f"{statistics.median(float(r[k]) for r in rs):.2f}"

        print(f"| {name} | {span([float(r['syscalls_per_req']) for r in rs], '{:.2f}')} | {med('reads_per_req')} | "
              f"{med('writes_per_req')} | {med('epoll_waits_per_req')} | {med('epoll_ctls_per_req')} | "
              f"{statistics.median(float(r['syscalls_per_req']) - sum(float(r[k]) for k in GROUPS) for r in rs):.2f} | "
              f"{len(rs)} |")


def proxies(path):
    rows = list(csv.DictReader((l for l in open(path) if not l.startswith('#')), delimiter='\t'))
    print('\n'.join(l[2:].strip() for l in open(path) if l.startswith('#')))
    print()
    cost_table(rows, 'proxy', 'proxy')
    syscall_table(rows)
    # The target: each loopbench row's CPU per request against the best reference proxy of the same layer and
    # page ("L4 1024B", "L7 65536B", ...), round by round.
    print()
    print('| loopbench | CPU/request as a ratio to the best reference of the same round, median [min..max] '
          '| best reference (most often) | target |')
    print('| --- | --- | --- | --- |')
    groups = dict.fromkeys(' '.join(r['proxy'].split()[:2]) for r in rows if r['proxy'][:2] in ('L4', 'L7'))
    for group in groups:
        names = [n for n in dict.fromkeys(r['proxy'] for r in rows) if n.startswith(group + ' ')]
        for ours in (n for n in names if 'loopbench' in n):
            ratios, best = [], []
            for rnd in dict.fromkeys(r['round'] for r in rows):
                cpu = {r['proxy']: float(r['cpu_us_per_req']) for r in rows
                       if r['round'] == rnd and r['proxy'] in names}
                refs = {k: v for k, v in cpu.items() if 'loopbench' not in k}
                if ours in cpu and refs:
                    b = min(refs, key=refs.get)
                    ratios.append(cpu[ours] / refs[b])
                    best.append(b[len(group) + 1:])
            if ratios:
                met = 'met' if statistics.median(ratios) <= 1.0 else 'NOT met'
                common = max(set(best), key=best.count)
                print(f"| {ours} | {span(ratios, '{:.2f}')} | {common} | <= 1.00: {met} |")
    variants(rows)


def variants(rows):
    """Each labelled row ("... (before)", "... (FLAGS)", "... (ARGS)", "... (JDK N)") against the same row without the
    label, round by round: the side-by-side ratio a drifting machine disturbs least."""
    names = list(dict.fromkeys(r['proxy'] for r in rows))
    pairs = [(n, n[:n.rindex(' (')]) for n in names if n.endswith(')') and ' (' in n and 'loopbench' in n]
    pairs = [(v, base) for v, base in pairs if base in names]
    if not pairs:
        return
    machine = has_machine_cpu(rows)
    print()
    print('| row | CPU/request as a ratio to the same row without its label, same round, median [min..max] '
          '| of which user | of which sys |' + (' whole machine CPU/request, ratio |' if machine else '') + ' rounds |')
    print('| --- | --- | --- | --- |' + (' --- |' if machine else '') + ' --- |')
    for v, base in pairs:
        by = {}
        for r in rows:
            if r['proxy'] in (v, base):
                by.setdefault(r['round'], {})[r['proxy']] = r

        def ratios(k):
            return [float(x[v][k]) / float(x[base][k]) for x in by.values()
                    if v in x and base in x and float(x[base][k]) > 0]

        cpu = ratios('cpu_us_per_req')
        if not cpu:
            continue
        print(f"| {v} | {span(cpu, '{:.2f}')} | {statistics.median(ratios('user_us_per_req')):.2f} | "
              f"{statistics.median(ratios('sys_us_per_req')):.2f} | "
              + (f"{span(ratios('machine_cpu_us_per_req'), '{:.2f}')} | " if machine else '') + f"{len(cpu)} |")


def generators(path):
    rows = list(csv.DictReader(open(path), delimiter='\t'))
    print()
    print('Load generators against the small page\'s nginx L7 proxy (the generator\'s own CPU per request):')
    print()
    cost_table(rows, 'generator', 'generator')
    by_round = {}
    for r in rows:
        by_round.setdefault(r['round'], {})['wrk' if r['generator'].startswith('wrk') else 'lb'] = r
    keys = ('cpu_us_per_req', 'user_us_per_req', 'sys_us_per_req')
    # round -> loopbench/wrk per key, for the rounds that measured both
    ratios = {rnd: [float(v['lb'][k]) / float(v['wrk'][k]) for k in keys]
              for rnd, v in by_round.items() if 'lb' in v and 'wrk' in v}
    if not ratios:
        return
    print()
    print('| loopbench / wrk, per round | CPU | user | sys |')
    print('| --- | --- | --- | --- |')
    for rnd, values in ratios.items():
        print(f"| round {rnd} | " + ' | '.join(f"{x:.2f}" for x in values) + ' |')
    medians = [statistics.median(values[i] for values in ratios.values()) for i in range(len(keys))]
    print('| median | ' + ' | '.join(f"{x:.2f}" for x in medians) + ' |')


if __name__ == '__main__':
    kinds = {'proxies': proxies, 'generators': generators}
    if len(sys.argv) != 3 or sys.argv[1] not in kinds:
        sys.exit(f"usage: tables.py {{{'|'.join(kinds)}}} FILE.tsv (got: {' '.join(sys.argv[1:]) or 'nothing'})")
    kinds[sys.argv[1]](sys.argv[2])
