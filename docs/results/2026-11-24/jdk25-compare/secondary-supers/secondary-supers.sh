#!/bin/bash
# PipelineCostBenchmark, L7 GET 1 KiB, on JDK 25 with its hashed secondary-supers table (JDK-8180450, the "type
# pollution" fix of JDK 23) on and off: 3 rounds, one fork per side per round, the sides alternating. Off is how
# JDK 17 checks an interface instanceof (a one-entry cache, then a linear scan). Results: OUT/{on,off}-N.json.
# usage: secondary-supers.sh OUT_DIR [JAVA]   (after ./mvnw -B -q -Pjmh package -DskipTests)
set -eu
out=$(mkdir -p "${1:?usage: secondary-supers.sh OUT_DIR [JAVA]}" && cd "$1" && pwd)
java=${2:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
cd "$(dirname "$0")/../../../.."
for r in 1 2 3; do
  for v in on off; do
    flag="-XX:+UnlockDiagnosticVMOptions -XX:$([ $v = on ] && echo + || echo -)UseSecondarySupersTable"
    "$java" -jar target/benchmarks.jar PipelineCostBenchmark -p layer=7 -p method=GET -p bodySize=1024 -f 1 -prof gc \
      -jvm "$java" -jvmArgsAppend "$flag" -rf json -rff "$out/$v-$r.json" >"$out/$v-$r.log" 2>&1
    grep -E "^PipelineCostBenchmark.exchange +|gc.alloc.rate.norm +" "$out/$v-$r.log" | sed "s/^/$v $r /"
  done
done
