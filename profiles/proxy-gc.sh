#!/usr/bin/env bash
# Does the proxy's garbage collector matter for its CPU per request? A quick probe: one loopbench origin (epoll, one
# event loop, 1 KiB page) and one loopbench proxy per collector (--layer 4 or 7; epoll, one event loop, the suite's
# server JVM flags), identical but for the collector, all running at once. Each proxy is warmed up (--warmup seconds
# of wrk, then 3 x 4 s of fresh connections); then every round measures each proxy once, in a random order: a 2 s
# settle run, then a 10 s `wrk -t1 -cCONNECTIONS` run with the proxy's CPU (user, sys) measured by `loopbench cost`.
# Exploratory: the proxies not being measured sit idle beside the one that is, so the absolute figures are above
# compare.sh's. For a verdict against the reference proxies: compare.sh --jvm-variant '-XX:+UseSerialGC'.
#
# Needs wrk and target/loopbench.jar (./mvnw -B -q package -DskipTests).
# Usage: profiles/proxy-gc.sh [--layer 4|7] [--connections C] [--rounds N] [--warmup S] [--collectors LIST]
#          [--out DIR]
# Defaults: --layer 4 --connections 1000 --rounds 4 --warmup 40 --collectors g1,parallel,serial --out target/proxy-gc.
# Prints and writes DIR/runs.txt: "round collector req/s cpu_us_per_req user sys errors" per measured run (errors:
# wrk's socket errors and non-2xx answers, 0 if none). Everything binds 127.0.0.1; every server stops when it ends.
set -euo pipefail
lb_name=proxy-gc.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

layer=4 connections=1000 rounds=4 warmup=40 collectors=g1,parallel,serial out=$lb_root/target/proxy-gc
lb_options "--layer 4|7=layer" "--connections C=connections" "--rounds N=rounds" "--warmup S=warmup" \
  "--collectors g1,parallel,serial=collectors" "--out DIR=out" -- "$@"
lb_one_of --layer "$layer" 4 7
lb_int --connections "$connections" 1
lb_int --rounds "$rounds" 1
lb_int --warmup "$warmup" 0
IFS=, read -r -a names <<<"$collectors"
[ "${#names[@]}" -gt 0 ] || lb_fail 2 "--collectors '$collectors' names no collector; valid: g1, parallel, serial"
declare -A flag=([g1]=-XX:+UseG1GC [parallel]=-XX:+UseParallelGC [serial]=-XX:+UseSerialGC) pid port
for c in "${names[@]}"; do lb_one_of "--collectors: collector" "$c" g1 parallel serial; done
lb_require_tools "apt-get install wrk" wrk
lb_require_loopbench

mkdir -p "$out"
lb_cleanup_on_exit
lb_tmpdir work
lb_start_origin "$out/origin"
for c in "${names[@]}"; do
  lb_start_proxy "$out/proxy-$c" "$layer" epoll "${flag[$c]}"
  pid[$c]=$lb_started_pid port[$c]=$lb_started_port
done

wrk_run() { wrk -t1 -c"$connections" -d"$1"s "http://127.0.0.1:${port[$2]}/"; } # SECONDS COLLECTOR
echo "warm-up: ${warmup}s per proxy, then 3 x 4 s of fresh connections"
for c in "${names[@]}"; do [ "$warmup" -gt 0 ] && wrk_run "$warmup" "$c" >/dev/null; done
for c in "${names[@]}"; do for _ in 1 2 3; do wrk_run 4 "$c" >/dev/null; done; done

echo "round collector req/s cpu_us_per_req user sys errors" | tee "$out/runs.txt"
for ((r = 1; r <= rounds; r++)); do
  for c in $(printf '%s\n' "${names[@]}" | shuf); do
    wrk_run 2 "$c" >/dev/null
    res=$(lb_cost "$work/cost" "${pid[$c]}" wrk -t1 -c"$connections" -d10s "http://127.0.0.1:${port[$c]}/") \
      || lb_fail 1 "round $r: measuring the $c proxy failed (above)"
    read -r _ rps < <(lb_wrk_counts <<<"$res")
    errors=$(grep -oE 'Socket errors.*|Non-2xx.*' <<<"$res" | tr '\n' ' ' || true)
    printf '%d %s %.0f %s %s %s %s\n' "$r" "$c" "$rps" "$(lb_cost_field "$work/cost" cpuMicrosPerRequest)" \
      "$(lb_cost_field "$work/cost" userMicrosPerRequest)" "$(lb_cost_field "$work/cost" systemMicrosPerRequest)" \
      "${errors:-0}" | tee -a "$out/runs.txt"
  done
done
