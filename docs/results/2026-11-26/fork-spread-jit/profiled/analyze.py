"""Per fork: the proxy's CPU per request (JMH JSON) split by its profile into time inside system calls and outside;
then the frames whose cost per request differs most between the slow forks (> 1.08 x the median) and the others.
python3 analyze.py [DIR]   (DIR: this folder; reads forkN.json.xz and forkN-proxy.collapsed.xz)"""
import collections
import json
import lzma
import re
import statistics as st
import sys
from pathlib import Path

d = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
forks = []
for i in range(1, 9):
    r = json.loads(lzma.open(d / f'fork{i}.json.xz', 'rt').read())[0]
    cpu = r['secondaryMetrics']['e2e.proxy.cpu']['score']
    total, syscalls, incl = 0, 0, collections.Counter()
    for line in lzma.open(d / f'fork{i}-proxy.collapsed.xz', 'rt'):
        stack, n = line.rstrip().rsplit(' ', 1)
        n = int(n)
        total += n
        if 'do_syscall_64' in stack:
            syscalls += n
        for frame in set(re.sub(r'_\[.\]$', '', f) for f in stack.split(';')):
            incl[frame] += n
    forks.append(dict(i=i, cpu=cpu, total=total, sys=syscalls / total * cpu, incl=incl))
print('fork  proxy µs/req  in system calls  outside  samples')
for f in sorted(forks, key=lambda f: f['cpu']):
    print(f"{f['i']:4}  {f['cpu']:12.2f}  {f['sys']:15.2f}  {f['cpu'] - f['sys']:7.2f}  {f['total']}")
median = st.median(f['cpu'] for f in forks)
slow = [f for f in forks if f['cpu'] > 1.08 * median]
fast = [f for f in forks if f['cpu'] <= 1.08 * median]
print('slow forks', [f['i'] for f in slow], 'the others', [f['i'] for f in fast])


def per_request(group, frame):
    return st.mean(f['incl'][frame] / f['total'] * f['cpu'] for f in group)


frames = set().union(*[f['incl'] for f in forks])
diffs = sorted(((per_request(slow, n) - per_request(fast, n), n) for n in frames), reverse=True)
print('µs per request, slow - others (others), frames including their callees, the 15 largest:')
for diff, frame in diffs[:15]:
    print(f'{diff:+.3f} ({per_request(fast, frame):.3f})  {frame[:100]}')
