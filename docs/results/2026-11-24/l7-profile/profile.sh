#!/bin/bash
# CPU profile (async-profiler, event cpu, 1 ms, per thread) of the proxy (L7 aggregate by default, or L4; epoll, one
# loop, reuse-server-thread, the suite's server JVM flags) in front of a loopbench origin (1 KiB page), under
# wrk -t1 -cCONNECTIONS (64 by default): 30 s of warm-up, then 20 s profiled. async-profiler is attached through jcmd
# (JVMTI.agent_load), so the warm-up is not in the profile.
# Needs wrk and target/loopbench.jar plus the library the jmh build unpacks (./mvnw -B -q -Pjmh package -DskipTests).
# usage: profile.sh OUT_DIR [LAYER [CONNECTIONS]]   -> OUT_DIR/l<LAYER>.collapsed (then: python3 breakdown.py FILE)
set -eu
out=$(mkdir -p "${1:?usage: profile.sh OUT_DIR [LAYER [CONNECTIONS]]}" && cd "$1" && pwd)
layer=${2:-7} conns=${3:-64}
[[ "$layer" =~ ^[47]$ ]] || { echo "profile.sh: LAYER '$layer'; valid: 4, 7" >&2; exit 2; }
[[ "$conns" =~ ^[1-9][0-9]*$ ]] || { echo "profile.sh: CONNECTIONS '$conns' is not a positive integer" >&2; exit 2; }
cd "$(dirname "$0")/../../../.."
F="-Xms1g -Xmx1g -Dio.netty.leakDetection.level=disabled -Dio.netty.noUnsafe=false"
LIB=$PWD/target/async-profiler/linux-x64/libasyncProfiler.so
[ -f "$LIB" ] && [ -f target/loopbench.jar ] || { echo "profile.sh: build first: ./mvnw -B -q -Pjmh package -DskipTests" >&2; exit 2; }
port() { for _ in $(seq 100); do p=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$1"); [ -n "$p" ] && { echo "$p"; return; }; sleep 0.1; done; exit 1; }
java $F -jar target/loopbench.jar origin --listen 127.0.0.1:0 --transport epoll --io-threads 1 --body-size 1024 >"$out/origin.out" 2>&1 & OP=$!
trap 'kill $OP ${PP:-} 2>/dev/null; wait' EXIT
op=$(port "$out/origin.out")
java $F -jar target/loopbench.jar proxy --listen 127.0.0.1:0 --backend "127.0.0.1:$op" --transport epoll --io-threads 1 \
  --thread-model reuse-server-thread --layer "$layer" >"$out/proxy.out" 2>&1 & PP=$!
pp=$(port "$out/proxy.out")
wrk -t1 -c"$conns" -d30s "http://127.0.0.1:$pp/" | grep Requests
# jcmd reads key=value as its own options: the agent's option string goes in double quotes.
jcmd $PP JVMTI.agent_load "$LIB" '"start,event=cpu,interval=1000000,threads"' >"$out/jcmd.log" 2>&1
wrk -t1 -c"$conns" -d20s "http://127.0.0.1:$pp/" | grep -E 'Requests|requests in'
jcmd $PP JVMTI.agent_load "$LIB" "\"stop,file=$out/l$layer.collapsed,collapsed\"" >>"$out/jcmd.log" 2>&1
