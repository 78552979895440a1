#!/bin/bash
# GC probe: one loopbench origin (epoll, one loop, 1 KiB), loopbench proxies (one loop) with different GC flags,
# interleaved wrk -t1 -cC -d10s rounds; proxy CPU per request (utime/stime from /proc, 100 Hz ticks).
# usage: gc-probe.sh LAYER CONNECTIONS ROUNDS WARMUP_S  (variants: g1 parallel serial)
cd "$(dirname "$0")/../../../.."
layer=${1:-4} C=${2:-1000} rounds=${3:-4} warm=${4:-40}
W=${TMPDIR:-/tmp}/gc-probe-$layer-$C; mkdir -p $W
J=target/loopbench.jar
F="-Xms1g -Xmx1g -Dio.netty.leakDetection.level=disabled -Dio.netty.noUnsafe=false"
pids=()
trap 'kill ${pids[@]} 2>/dev/null; wait' EXIT
port() { for _ in $(seq 100); do p=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' $1); [ -n "$p" ] && { echo $p; return; }; sleep 0.1; done; }
java $F -jar $J origin --listen 127.0.0.1:0 --transport epoll --io-threads 1 --body-size 1024 >$W/o.out 2>$W/o.err & pids+=($!)
op=$(port $W/o.out)
declare -A PID PORT
for v in g1 parallel serial; do
  case $v in g1) g=-XX:+UseG1GC ;; parallel) g=-XX:+UseParallelGC ;; serial) g=-XX:+UseSerialGC ;; esac
  java $F $g -jar $J proxy --listen 127.0.0.1:0 --backend 127.0.0.1:$op --io-threads 1 --transport epoll --layer $layer >$W/$v.out 2>$W/$v.err & PID[$v]=$!; pids+=($!)
  PORT[$v]=$(port $W/$v.out)
done
for v in g1 parallel serial; do wrk -t1 -c$C -d${warm}s http://127.0.0.1:${PORT[$v]}/ >/dev/null; done
for v in g1 parallel serial; do for i in 1 2 3; do wrk -t1 -c$C -d4s http://127.0.0.1:${PORT[$v]}/ >/dev/null; done; done
echo "round variant req/s cpu_us_per_req user sys errors" | tee $W/runs.txt
for r in $(seq $rounds); do
  for v in $(echo g1 parallel serial | tr ' ' '\n' | shuf); do
    p=${PID[$v]}
    wrk -t1 -c$C -d2s http://127.0.0.1:${PORT[$v]}/ >/dev/null
    read u0 s0 < <(awk '{sub(/.*\) /,""); print $12, $13}' /proc/$p/stat)
    out=$(wrk -t1 -c$C -d10s http://127.0.0.1:${PORT[$v]}/)
    read u1 s1 < <(awk '{sub(/.*\) /,""); print $12, $13}' /proc/$p/stat)
    n=$(echo "$out" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    rps=$(echo "$out" | sed -n 's/^Requests\/sec: *\([0-9.]*\)/\1/p')
    err=$(echo "$out" | grep -o 'Socket errors.*\|Non-2xx.*' | tr '\n' ' ')
    awk -v r=$r -v v=$v -v n=$n -v rps=$rps -v du=$((u1-u0)) -v ds=$((s1-s0)) -v e="$err" \
      'BEGIN{printf "%d %s %.0f %.2f %.2f %.2f %s\n", r, v, rps, (du+ds)*1e4/n, du*1e4/n, ds*1e4/n, (e==""?"0":e)}' | tee -a $W/runs.txt
  done
done
