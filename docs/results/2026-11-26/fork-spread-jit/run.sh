#!/bin/bash
# proxy-64's L7 reuse-server-thread arm, its servers with the default JIT (tiered, C2) and with C1 only, in blocks of
# 4 forks: C2, C1, C1, C2 (8 forks each). Run from the repository after ./mvnw -Pjmh package; writes here.
set -euo pipefail
jar="$(pwd)/target/benchmarks.jar"
cd "$(dirname "$0")"
line=(-p layer=7 -p threadModel=reuse-server-thread -p transport=nio -p epollMode=default -p allocator=adaptive
      -p connections=64 -p bodySize=1024 -p maxContentLength=2000 -p l7Mode=aggregate -p backendPool=per-client
      -p ioThreads=2 -p originIoThreads=1 -p rate=0 -p clientTransport=epoll -p clientIoThreads=1
      -p connection=keep-alive -p topology=local -p link=none -p placement=pinned
      -wi 5 -w 4 -i 4 -r 2 -prof loopbench.bench.EndToEndProfiler)
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
