#!/usr/bin/env python3
"""Where the proxy's CPU goes (L7 or L4), from an async-profiler collapsed-stack file (profiles/proxy-profile.sh):
kernel vs user space, then the user-space samples by what they were inside (a sample counts for every group one of
its frames matches, so groups overlap), the samples per thread when the profile has thread names (async-profiler's
`threads` option, which proxy-profile.sh uses), and the top user-space leaf frames. Markdown tables on stdout.

  python3 profiles/profile-breakdown.py FILE [FILE...]     (FILE: l7.collapsed, or gzipped: l7.collapsed.gz)

Exit 2 for a file that is missing or is not collapsed stacks.
"""
import argparse
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


class NotCollapsed(Exception):
    pass


def read(path):
    """(stack, samples) pairs of a collapsed-stack file: 'frame;frame;... COUNT' per line."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        for number, line in enumerate(f, 1):
            stack, _, count = line.rstrip('\n').rpartition(' ')
            if not stack or not count.isdigit():
                raise NotCollapsed(f'{path}:{number}: not "frame;frame;... COUNT": {line[:80]!r}')
            yield stack, int(count)


def breakdown(path):
    total = user = 0
    groups = collections.Counter()
    leaves = collections.Counter()
    threads = collections.Counter()
    for stack, n in read(path):
        total += n
        frames = stack.split(';')
        kernel = frames[-1].endswith('_[k]')
        if frames[0].startswith('['):
            # '[loopbench-proxy-io-1-1 tid=1234]' -> 'loopbench-proxy-io', '[C2 CompilerThread0 tid=..]' -> 'C2 ...'
            name = re.sub(r'[-\d ]*(tid=\d+)?\]$', '', frames[0][1:])
            threads[(name, 'kernel' if kernel else 'user')] += n
        if kernel:
            continue
        user += n
        leaves[frames[-1]] += n
        for name, pattern in GROUPS:
            if re.search(pattern, stack):
                groups[name] += n
    if total == 0:
        raise NotCollapsed(f'{path}: no samples')
    print(f'{total} samples (1 ms of CPU each); user space (leaf frame not in the kernel): {user}, '
          f'{100 * user / total:.1f}%; kernel: {100 * (total - user) / total:.1f}%\n')
    print('| inside | % of user-space samples | % of all samples |')
    print('| --- | --- | --- |')
    for name, _ in GROUPS:
        print(f'| {name} | {100 * groups[name] / max(user, 1):.1f}% | {100 * groups[name] / total:.1f}% |')
    if threads:
        print('\n| thread | kernel or user | % of all samples |')
        print('| --- | --- | --- |')
        for (name, where), n in threads.most_common(8):
            print(f'| {name} | {where} | {100 * n / total:.1f}% |')
    print('\n| user-space leaf frame | % of user-space samples |')
    print('| --- | --- |')
    for frame, n in leaves.most_common(15):
        print(f'| `{frame[:110]}` | {100 * n / user:.1f}% |')


def main(argv):
    parser = argparse.ArgumentParser(prog='profile-breakdown.py', description=__doc__.split('\n\n')[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('files', nargs='+', metavar='FILE', help='collapsed stacks (.collapsed or .collapsed.gz)')
    args = parser.parse_args(argv)
    for i, path in enumerate(args.files):
        if len(args.files) > 1:
            print(f'{"" if i == 0 else chr(10)}## {path}\n')
        try:
            breakdown(path)
        except (OSError, NotCollapsed, UnicodeDecodeError, EOFError) as e:
            print(f'profile-breakdown.py: {e}', file=sys.stderr)
            return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
