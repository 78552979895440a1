#!/bin/bash
# The L7 reuse-server-thread arm of proxy-64, 8 forks one after another, every server process under async-profiler
# (cpu, 1 ms, from its start to its exit, collapsed stacks in PID.collapsed), passed by loopbench.server.jvmArgs.
# Run from the repository after ./mvnw -Pjmh package; writes here.
set -euo pipefail
source "$(dirname "$0")/../line.sh"
repo="$(pwd)"
cd "$(dirname "$0")"
lib="$repo/target/async-profiler/linux-x64/libasyncProfiler.so"
agent="-agentpath:$lib=start,event=cpu,interval=1ms,ann,collapsed,file=$(pwd)/%p.collapsed"
for i in 1 2 3 4 5 6 7 8; do
    java -jar "$repo/target/benchmarks.jar" ProxyEndToEndBenchmark.requests "${line[@]}" -f 1 \
        -jvmArgsAppend "-Dloopbench.server.jvmArgs=$agent" -rf json -rff "fork$i.json" > "fork$i.log" 2>&1
done
