"""Where the proxy's CPU goes (L7 or L4), from an async-profiler collapsed-stack file (profile.sh): kernel vs user space,
then the user-space samples by what they were inside (a sample counts for every group one of its frames matches,
so groups overlap), and the top user-space leaf frames. Profiles taken with async-profiler's `threads` option
(profile.sh since its L4 run) start each stack with the thread's name: those are also summed per thread.

  python3 breakdown.py l7.collapsed      (or l7.collapsed.gz)
"""
import collections
import gzip
import re
import sys

GROUPS = [
    ('HTTP decoding, both sides (HttpObjectDecoder.decode)', r'HttpObjectDecoder\.decode'),
    ('  of which header parsing (splitHeader, Header/LineParser)', r'(splitHeader|HeaderParser|LineParser)'),
    ('HTTP encoding, both sides (HttpObjectEncoder.encode)', r'HttpObjectEncoder\.encode'),
    ('  of which encodeHeaders', r'HttpObjectEncoder\.encodeHeaders'),
    ('  of which encodeInitialLine', r'encodeInitialLine'),
    ('aggregation (ProxyAggregator, MessageAggregator)', r'(ProxyAggregator|MessageAggregator)'),
    ('header rewriting (ProxyHeaders)', r'ProxyHeaders'),
    ('DefaultHttpHeaders (any use)', r'DefaultHttpHeaders'),
    ('L4 relay handlers and what they start (write, flush, next read)', r'L4(Frontend|Backend)Handler|L4Relay'),
    ('JIT compiler threads', r'CompileBroker'),
    ('G1 GC', r'G1'),
]


def main(path):
    opener = gzip.open if path.endswith('.gz') else open
    total = user = 0
    groups = collections.Counter()
    leaves = collections.Counter()
    threads = collections.Counter()
    with opener(path, 'rt') as f:
        for line in f:
            stack, n = line.rsplit(' ', 1)
            n = int(n)
            total += n
            frames = stack.split(';')
            kernel = frames[-1].endswith('_[k]')
            if frames[0].startswith('['):
                # '[loopbench-proxy-io-1-1 tid=1234]' -> 'loopbench-proxy-io', '[C2 CompilerThread0 tid=..]' -> 'C2 CompilerThread'
                name = re.sub(r'[-\d ]*(tid=\d+)?\]$', '', frames[0][1:])
                threads[(name, 'kernel' if kernel else 'user')] += n
            if kernel:
                continue
            user += n
            leaves[frames[-1]] += n
            for name, pattern in GROUPS:
                if re.search(pattern, stack):
                    groups[name] += n
    print(f'{total} samples (1 ms of CPU each); user space (leaf frame not in the kernel): {user}, '
          f'{100 * user / total:.1f}%; kernel: {100 * (total - user) / total:.1f}%\n')
    print('| inside | % of user-space samples | % of all samples |')
    print('| --- | --- | --- |')
    for name, _ in GROUPS:
        print(f'| {name} | {100 * groups[name] / user:.1f}% | {100 * groups[name] / total:.1f}% |')
    if threads:
        print('\n| thread | kernel or user | % of all samples |')
        print('| --- | --- | --- |')
        for (name, where), n in threads.most_common(8):
            print(f'| {name} | {where} | {100 * n / total:.1f}% |')
    print('\n| user-space leaf frame | % of user-space samples |')
    print('| --- | --- |')
    for frame, n in leaves.most_common(15):
        print(f'| `{frame[:110]}` | {100 * n / user:.1f}% |')


if __name__ == '__main__':
    main(sys.argv[1])
