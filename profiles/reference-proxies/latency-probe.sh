#!/usr/bin/env bash
# Tail latency at many fresh connections, loopbench's L4 proxy against nginx stream: one loopbench origin (epoll, one
# event loop, 1 KiB page) and, in front of it, loopbench's L4 proxy on epoll and on NIO and nginx stream (one thread
# or worker each), plus the origin direct. Each target is driven by `wrk -t1 -cCONNECTIONS` for --warmup seconds,
# then --runs times for --duration seconds with --latency, each run with fresh connections, so that the burst of
# connects is inside every run. Per run: req/s, latency (avg, stdev, max, p50, p99), wrk's timeouts and the kernel's
# listen overflows and retransmissions during the run (nstat; none printed means none counted).
#
# Needs wrk, nginx with its stream module (apt-get install wrk nginx-light libnginx-mod-stream), nstat (iproute2) and
# target/loopbench.jar (./mvnw -B -q package -DskipTests).
# Usage: profiles/reference-proxies/latency-probe.sh [--connections C] [--warmup S] [--duration S] [--runs N]
#          [--out DIR]
# Defaults: --connections 1000 --warmup 20 --duration 10 --runs 2 --out target/latency-probe; prints and writes
# DIR/latency-probe.txt. Everything binds 127.0.0.1; every server stops when it ends, also on Ctrl-C.
set -euo pipefail
lb_name=latency-probe.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

here=$(cd "$(dirname "$0")" && pwd)
connections=1000 warmup=20 duration=10 runs=2 out=$lb_root/target/latency-probe
lb_options "--connections C=connections" "--warmup S=warmup" "--duration S=duration" "--runs N=runs" "--out DIR=out" \
  -- "$@"
lb_int --connections "$connections" 1
lb_int --warmup "$warmup" 0
lb_int --duration "$duration" 1
lb_int --runs "$runs" 1
lb_require_tools "apt-get install wrk nginx-light libnginx-mod-stream iproute2" wrk nginx nstat
[ -n "$(lb_nginx_stream_module)" ] || lb_fail 2 "nginx's stream module" \
  "(/usr/lib/nginx/modules/ngx_stream_module.so) not found; install it: apt-get install libnginx-mod-stream"
lb_require_loopbench

mkdir -p "$out"
out=$(cd "$out" && pwd)
lb_cleanup_on_exit
lb_start_origin "$out/origin"
targets=("origin-direct $lb_origin_port")
for transport in epoll nio; do
  lb_start_proxy "$out/l4-$transport" 4 "$transport"
  targets+=("loopbench-L4-$transport $lb_started_port")
done
lb_start_nginx "$out/nginx-stream" "$here/nginx-stream.conf" "$lb_origin_port" "$connections"
targets+=("nginx-stream $lb_started_port")

: >"$out/latency-probe.txt"
for t in "${targets[@]}"; do
  read -r name port <<<"$t"
  if [ "$warmup" -gt 0 ]; then
    wrk -t1 -c"$connections" -d"$warmup"s "http://127.0.0.1:$port/" | { grep -E 'timeout' || true; } \
      | sed "s/^/$name warm-up: /" | tee -a "$out/latency-probe.txt"
  fi
  for ((i = 1; i <= runs; i++)); do
    nstat -n >/dev/null
    r=$(wrk -t1 -c"$connections" -d"$duration"s --latency "http://127.0.0.1:$port/")
    field() { grep -E "$1" <<<"$r" | awk "{ print $2 }" || true; } # PATTERN FIELDS: FIELDS of wrk's line
    kernel=$(nstat | awk '/ListenOverflows|Retrans/ { printf "%s=%s ", $1, $2 }')
    # shellcheck disable=SC2016 # awk's fields, for field()
    echo "$name run $i: $(field 'Requests/sec' '$2') req/s; avg/stdev/max $(field 'Latency  ' '$2, $3, $4');" \
      "p50 $(field ' 50%' '$2') p99 $(field ' 99%' '$2'); $(grep -o 'timeout [0-9]*' <<<"$r" || echo 'timeout 0');" \
      "nstat: $kernel" | tee -a "$out/latency-probe.txt"
  done
done
