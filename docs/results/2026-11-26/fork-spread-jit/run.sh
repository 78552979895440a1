#!/bin/bash
# proxy-64's L7 reuse-server-thread arm, its servers with the default JIT (tiered, C2) and with C1 only, in blocks of
# 4 forks: C2, C1, C1, C2 (8 forks each). Run from the repository after ./mvnw -Pjmh package; writes here.
set -euo pipefail
source "$(dirname "$0")/line.sh"
jar="$(pwd)/target/benchmarks.jar"
cd "$(dirname "$0")"
i=0
for jit in c2 c1 c1 c2; do
    i=$((i + 1))
    extra=()
    if [ "$jit" = c1 ]; then
        extra=(-jvmArgsAppend -Dloopbench.server.jvmArgs=-XX:TieredStopAtLevel=1)
    fi
    java -jar "$jar" ProxyEndToEndBenchmark.requests "${line[@]}" -f 4 "${extra[@]}" \
        -rf json -rff "$jit-block$i.json" > "$jit-block$i.log" 2>&1
done
