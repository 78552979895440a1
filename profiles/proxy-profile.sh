#!/usr/bin/env bash
# Where loopbench's proxy spends its CPU under load: an async-profiler CPU profile (event cpu, 1 ms interval, per
# thread) of a running proxy, attached through jcmd after the warm-up, so that the JIT's warm-up is not in it.
# The proxy (--layer 7: L7 aggregate, or 4; epoll, one event loop, reuse-server-thread, the suite's server JVM flags)
# stands in front of a loopbench origin serving a --body-size page, driven by `wrk -t1 -cCONNECTIONS`: --warmup
# seconds, then --duration seconds profiled. Read the result with profiles/profile-breakdown.py.
#
# Needs wrk, the JDK's jcmd, target/loopbench.jar and the async-profiler library the jmh build unpacks
# (./mvnw -B -q -Pjmh package -DskipTests). Samples kernel frames only where perf events are allowed (e.g. as root).
# Usage: profiles/proxy-profile.sh [--layer 4|7] [--connections C] [--warmup S] [--duration S] [--body-size B]
#          [--out DIR]
# Defaults: --layer 7 --connections 64 --warmup 30 --duration 20 --body-size 1024 --out target/proxy-profile.
# Writes DIR/l<LAYER>.collapsed (collapsed stacks, one line per stack: the flame graph's input), the servers' logs and
# jcmd's. Everything binds 127.0.0.1, every run is bounded, and both servers stop when it ends, also on Ctrl-C.
set -euo pipefail
lb_name=proxy-profile.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

layer=7 connections=64 warmup=30 duration=20 body=1024 out=$lb_root/target/proxy-profile
lb_options "--layer 4|7=layer" "--connections C=connections" "--warmup S=warmup" "--duration S=duration" \
  "--body-size B=body" "--out DIR=out" -- "$@"
lb_one_of --layer "$layer" 4 7
lb_int --connections "$connections" 1
lb_int --warmup "$warmup" 0
lb_int --duration "$duration" 1
lb_int --body-size "$body" 0
lb_require_tools "apt-get install wrk" wrk
lib=$lb_root/target/async-profiler/linux-x64/libasyncProfiler.so
lb_require_java
lb_require_file "$lb_jar" "$lb_build_jmh"
lb_require_file "$lib" "$lb_build_jmh"
jcmd=$(lb_jcmd)
[ -n "$jcmd" ] || lb_fail 2 "no jcmd next to '$lb_java' or on the PATH (it comes with a JDK)"

mkdir -p "$out"
out=$(cd "$out" && pwd)
lb_cleanup_on_exit
lb_start_origin "$out/origin" "$body"
lb_start_proxy "$out/proxy" "$layer" epoll
proxy_pid=$lb_started_pid proxy_port=$lb_started_port

echo "warm-up: wrk -t1 -c$connections -d${warmup}s through the L$layer proxy"
[ "$warmup" -gt 0 ] && wrk -t1 -c"$connections" -d"$warmup"s "http://127.0.0.1:$proxy_port/" | grep Requests
# jcmd reads key=value as its own options: the agent's option string goes in double quotes.
"$jcmd" "$proxy_pid" JVMTI.agent_load "$lib" '"start,event=cpu,interval=1000000,threads"' >"$out/jcmd.log" 2>&1 \
  || lb_fail 1 "jcmd could not start async-profiler in the proxy (pid $proxy_pid); see $out/jcmd.log"
echo "profiled: wrk -t1 -c$connections -d${duration}s"
wrk -t1 -c"$connections" -d"$duration"s "http://127.0.0.1:$proxy_port/" | grep -E 'Requests|requests in'
"$jcmd" "$proxy_pid" JVMTI.agent_load "$lib" "\"stop,file=$out/l$layer.collapsed,collapsed\"" >>"$out/jcmd.log" 2>&1 \
  || lb_fail 1 "jcmd could not stop async-profiler in the proxy; see $out/jcmd.log"
echo "$out/l$layer.collapsed: read it with python3 profiles/profile-breakdown.py $out/l$layer.collapsed"
