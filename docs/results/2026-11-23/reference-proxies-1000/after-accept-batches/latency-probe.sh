#!/bin/bash
# The latency probe behind latency-probe.txt, run from the project's root: one loopbench origin (epoll, one loop,
# 1 KiB page), loopbench's L4 proxy on epoll and on NIO and nginx stream in front of it (one thread each), and the
# origin direct; each driven by wrk -t1 -c1000 for 20 s (warm-up, fresh connections), then twice for 10 s with
# --latency (fresh connections each time: the accept burst is inside every run), with nstat's listen overflows and
# retransmissions per run. Needs wrk, nginx and its stream module, nstat; target/loopbench.jar.
mkdir -p ${TMPDIR:-/tmp}/latency-probe
J=target/loopbench.jar
F="-Xms1g -Xmx1g -Dio.netty.leakDetection.level=disabled"
java $F -jar $J origin --listen 127.0.0.1:0 --transport epoll --io-threads 1 --body-size 1024 >${TMPDIR:-/tmp}/latency-probe/o.out 2>${TMPDIR:-/tmp}/latency-probe/o.err & O=$!
sleep 2; op=$(sed -n 's/.*:\([0-9]*\)$/\1/p' ${TMPDIR:-/tmp}/latency-probe/o.out)
java $F -jar $J proxy --listen 127.0.0.1:0 --backend 127.0.0.1:$op --io-threads 1 --transport epoll --layer 4 >${TMPDIR:-/tmp}/latency-probe/p.out 2>${TMPDIR:-/tmp}/latency-probe/p.err & P=$!
java $F -jar $J proxy --listen 127.0.0.1:0 --backend 127.0.0.1:$op --io-threads 1 --transport nio --layer 4 >${TMPDIR:-/tmp}/latency-probe/pn.out 2>${TMPDIR:-/tmp}/latency-probe/pn.err & PN=$!
mkdir -p /tmp/ngs/logs
sed -e "s/@LISTEN@/127.0.0.1:18080/" -e "s/@BACKEND@/127.0.0.1:$op/" -e "s#@PREFIX@#/tmp/ngs#g" -e "s#@STREAM_MODULE@#/usr/lib/nginx/modules/ngx_stream_module.so#" profiles/reference-proxies/nginx-stream.conf > /tmp/ngs/nginx.conf
nginx -p /tmp/ngs -c /tmp/ngs/nginx.conf -g 'daemon off;' & N=$!
sleep 2; pp=$(sed -n 's/.*:\([0-9]*\)$/\1/p' ${TMPDIR:-/tmp}/latency-probe/p.out); ppn=$(sed -n 's/.*:\([0-9]*\)$/\1/p' ${TMPDIR:-/tmp}/latency-probe/pn.out)
for t in "origin-direct $op" "loopbench-L4-epoll $pp" "loopbench-L4-nio $ppn" "nginx-stream 18080"; do set -- $t
  wrk -t1 -c1000 -d20s http://127.0.0.1:$2/ | grep -E "timeout" | sed "s/^/$1 warm-up: /"
  for i in 1 2; do nstat -n >/dev/null
    r=$(wrk -t1 -c1000 -d10s --latency http://127.0.0.1:$2/)
    echo "$1 run $i: $(echo "$r" | grep Requests/sec | awk '{print $2}') req/s; avg/stdev/max $(echo "$r" | grep 'Latency  ' | awk '{print $2, $3, $4}'); p50 $(echo "$r" | grep ' 50%' | awk '{print $2}') p99 $(echo "$r" | grep ' 99%' | awk '{print $2}'); $(echo "$r" | grep -o 'timeout [0-9]*' || echo 'timeout 0'); nstat: $(nstat | grep -E 'ListenOverflows|Retrans' | awk '{printf "%s=%s ", $1, $2}')"
  done
done
kill $P $PN $N $O; wait
