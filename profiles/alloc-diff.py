#!/usr/bin/env python3
"""Which allocations one build makes that another does not: two async-profiler allocation profiles in collapsed form
(JMH's `-prof "async:libPath=LIB;event=alloc;output=collapsed;dir=DIR"`, file collapsed-alloc.csv, or gzipped), each
sample attributed to (allocated type, nearest frame of a loopbench package), each side's samples scaled to the bytes per
operation JMH's gc profiler measured for it (--before-bytes, --after-bytes). A Markdown table on stdout of the largest
differences, in bytes per operation.

  python3 profiles/alloc-diff.py BEFORE.csv AFTER.csv --before-bytes B --after-bytes B [--package P] [--top N]

Defaults: --package loopbench/proxy (the frames that name the site; a stack without one is '?'), --top 20.
The profiles are samples (one per TLAB or so), so a site's share moves by several bytes between two runs of the same
build: read a row as a lead (an object new in one build, an iterator no longer scalar-replaced), and check it with
the gc profiler's exact B/op, which is what the scaling rests on. Exit 2 for a missing or malformed file or value.
"""
import argparse
import collections
import gzip
import sys


def load(path, bytes_per_op, package):
    by_site = collections.Counter()
    total = 0
    try:
        with (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)) as f:
            for line in f:
                stack, _, count = line.rstrip('\n').rpartition(' ')
                if not stack or not count.isdigit():
                    print(f"alloc-diff.py: {path}: not a collapsed-stack line: {line[:80]!r}", file=sys.stderr)
                    sys.exit(2)
                frames = stack.split(';')
                ours = [fr.split('/')[-1] for fr in frames if fr.startswith(package)]
                by_site[(frames[-1], ours[-1] if ours else '?')] += int(count)
                total += int(count)
    except OSError as e:
        print(f"alloc-diff.py: {e}", file=sys.stderr)
        sys.exit(2)
    if total == 0:
        print(f"alloc-diff.py: {path}: no samples", file=sys.stderr)
        sys.exit(2)
    return {site: n / total * bytes_per_op for site, n in by_site.items()}


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('before')
    p.add_argument('after')
    p.add_argument('--before-bytes', type=float, required=True, help="B/op of the before build (JMH -prof gc)")
    p.add_argument('--after-bytes', type=float, required=True, help="B/op of the after build (JMH -prof gc)")
    p.add_argument('--package', default='loopbench/proxy', help="frames that name a site (default: %(default)s)")
    p.add_argument('--top', type=int, default=20, help="rows (default: %(default)s)")
    a = p.parse_args()
    if a.before_bytes <= 0 or a.after_bytes <= 0 or a.top < 1:
        p.error(f"--before-bytes {a.before_bytes} and --after-bytes {a.after_bytes} must be > 0, --top {a.top} >= 1")
    before = load(a.before, a.before_bytes, a.package)
    after = load(a.after, a.after_bytes, a.package)
    sites = sorted(set(before) | set(after), key=lambda s: -abs(after.get(s, 0) - before.get(s, 0)))
    print(f"| type | allocated in | before B/op | after B/op | change |")
    print("| --- | --- | ---: | ---: | ---: |")
    for s in sites[:a.top]:
        b, c = before.get(s, 0.0), after.get(s, 0.0)
        print(f"| {s[0].removesuffix('_[i]')} | {s[1]} | {b:.1f} | {c:.1f} | {c - b:+.1f} |")


if __name__ == '__main__':
    main()
