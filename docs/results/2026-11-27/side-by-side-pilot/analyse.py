"""Per check: per-fork mean of per-cycle ratios; sd of the fork log ratios (side by side); the same arms'
fork means paired with the next fork's (as if from different forks); per-cycle sd; JIT and idle figures."""
import json,sys,math,statistics as st
d=json.load(open(sys.argv[1]))[0]; sec=d['secondaryMetrics']
skip=set(int(x) for x in sys.argv[2].split(',')) if len(sys.argv)>2 and sys.argv[2] else set()
def raw(arm,m):
    k=f'e2e.arm.{arm}.{m}'
    return [r for i,r in enumerate(sec[k]['rawData']) if i not in skip] if k in sec else None
A={'d':'direct','l4':'4/reuse-server-thread/adaptive','l4g':'4/reuse-server-group/adaptive','l4i':'4/individual-group/adaptive',
   'l7':'7/reuse-server-thread/adaptive','l7g':'7/reuse-server-group/adaptive','l7i':'7/individual-group/adaptive',
   'pool':'7/reuse-server-thread/pooled','unp':'7/reuse-server-thread/unpooled'}
checks=[('C000-1 rps L4/direct','rps','l4','d'),('C000-2 cpu L7/L4','proxy.cpu','l7','l4'),
 ('C000-3 rps L4 rst/rsg','rps','l4','l4g'),('C000-3 rps L4 rsg/ig','rps','l4g','l4i'),('C000-3 rps L7 rst/rsg','rps','l7','l7g'),('C000-3 rps L7 rsg/ig','rps','l7g','l7i'),
 ('C000-4 cpu L4 rsg/rst','proxy.cpu','l4g','l4'),('C000-4 cpu L4 ig/rst','proxy.cpu','l4i','l4'),('C000-4 cpu L7 rsg/rst','proxy.cpu','l7g','l7'),('C000-4 cpu L7 ig/rst','proxy.cpu','l7i','l7'),
 ('C000-5 cs L4 ig/rst','proxy.ctxsw','l4i','l4'),('C000-5 cs L7 ig/rst','proxy.ctxsw','l7i','l7'),('C000-6 cpu unp/pool','proxy.cpu','unp','pool'),
 ('N-1 direct held adaptive/pooled','proxy.mem.allocator.direct.reserved','l7','pool')]
sq=[]
for name,m,a,b in checks:
    x=raw(A[a],m); y=raw(A[b],m)
    if x is None or y is None: print(name,'missing'); continue
    forks=[];within=[]
    for fx,fy in zip(x,y):
        r=[p/q for p,q in zip(fx,fy)]
        forks.append(math.log(st.mean(r))); within.append(st.stdev([math.log(v) for v in r]))
    sd=st.stdev(forks)
    mx=[math.log(st.mean(f)) for f in x]; my=[math.log(st.mean(f)) for f in y]
    shifted=[mx[i]-my[(i+1)%len(my)] for i in range(len(mx))]
    sds=st.stdev(shifted)
    if not name.startswith('N-1'): sq.append(sd*sd)
    n=len(forks); t={2:4.303,3:3.182,4:2.776,5:2.571}[n-1]; m_=st.mean(forks); hw=t*sd/math.sqrt(n)
    print(f'{name:34} ratio {math.exp(m_):.3f} [{math.exp(m_-hw):.3f}, {math.exp(m_+hw):.3f}] forks {" ".join("%.3f"%math.exp(f) for f in forks)} sd {sd:.4f} | as if forks apart {sds:.4f} | cycle sd {st.mean(within):.3f}')
print('pooled (RMS) sd of fork log ratios over the 13 proxy-article checks: %.4f' % math.sqrt(sum(sq)/len(sq)))
for k in ('e2e.arms.idleCpus',):
    print(k, [round(st.mean(f),3) for i,f in enumerate(sec[k]['rawData']) if i not in skip])
for arm in ('l7','l7g','l7i','l4'):
    j=raw(A[arm],'proxy.jit')
    if j: print('jit', arm, [round(st.mean(f),3) for f in j], 'first/last cycle', [(round(f[0],2), round(f[-1],2)) for f in j])
