#!/bin/bash
# A fresh loopbench L4 (or L7) proxy under wrk -t1 -c1000, alone on the machine: CPU per request (/proc) of each
# consecutive 10 s run. Is the spread of compare.sh's rounds at 1,000 connections a warm-up still under way, or the
# machine? usage: noise-c1000.sh [LAYER [RUNS]] (4, 15); needs wrk and target/loopbench.jar.
set -u
layer=${1:-4} runs=${2:-15}
[[ "$layer" =~ ^[47]$ ]] || { echo "noise-c1000.sh: LAYER '$layer'; valid: 4, 7" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "noise-c1000.sh: RUNS '$runs' is not a positive integer" >&2; exit 2; }
cd "$(dirname "$0")/../../../.."
[ -f target/loopbench.jar ] || { echo "noise-c1000.sh: build first: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
O=$(mktemp -d)
F="-Xms1g -Xmx1g -Dio.netty.leakDetection.level=disabled -Dio.netty.noUnsafe=false"
port() { for _ in $(seq 100); do p=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$1"); [ -n "$p" ] && { echo "$p"; return; }; sleep 0.1; done; }
ticks() { awk '{ sub(/.*\) /, ""); print $12, $13 }' /proc/$1/stat; }
java $F -jar target/loopbench.jar origin --listen 127.0.0.1:0 --transport epoll --io-threads 1 --body-size 1024 > $O/origin.out 2>&1 & OP=$!
sleep 1; op=$(port $O/origin.out)
java $F -jar target/loopbench.jar proxy --listen 127.0.0.1:0 --backend 127.0.0.1:$op --transport epoll --io-threads 1 --thread-model reuse-server-thread --layer $layer > $O/proxy.out 2>&1 & PP=$!
trap 'kill $OP $PP 2>/dev/null; wait; rm -rf "$O"' EXIT
sleep 1; pp=$(port $O/proxy.out)
hz=$(getconf CLK_TCK)
for i in $(seq 1 "$runs"); do
  read -r u0 s0 < <(ticks $PP)
  wrk -t1 -c1000 -d10s http://127.0.0.1:$pp/ > $O/wrk.out 2>&1
  read -r u1 s1 < <(ticks $PP)
  n=$(awk '/requests in/ {print $1}' $O/wrk.out)
  awk -v i=$i -v n=$n -v u=$((u1 - u0)) -v s=$((s1 - s0)) -v hz=$hz 'BEGIN { printf "%d\t%ds\t%.0f req/s\t%.2f CPU-us/req\tuser %.2f\tsys %.2f\n", i, i * 10, n / 10, (u + s) * 1e6 / hz / n, u * 1e6 / hz / n, s * 1e6 / hz / n }'
done
