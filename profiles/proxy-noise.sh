#!/usr/bin/env bash
# How far one loopbench proxy's CPU per request moves from one run to the next with nothing changed: a fresh proxy
# (--layer 4 or 7; epoll, one event loop, reuse-server-thread, the suite's server JVM flags) in front of a loopbench
# origin (1 KiB page), driven by --runs consecutive `wrk -t1 -cCONNECTIONS` runs of --duration seconds, and after each
# run the proxy's CPU per request (its CPU time over the run, divided by wrk's requests, as `loopbench cost` measures
# it: loopbench.metrics.ProcStat, the end-to-end benchmarks' /proc reader), user and sys. Is the spread of compare.sh's
# rounds a warm-up still under way (a trend), or the machine (no trend)?
#
# Needs wrk and target/loopbench.jar (./mvnw -B -q package -DskipTests).
# Usage: profiles/proxy-noise.sh [--layer 4|7] [--connections C] [--runs N] [--duration S] [--out DIR]
# Defaults: --layer 4 --connections 1000 --runs 15 --duration 10 --out target/proxy-noise.
# Prints one line per run and writes DIR/runs.tsv (run, seconds since the first run started, req/s, CPU-, user- and
# sys-µs per request). Everything binds 127.0.0.1; both servers stop when it ends, also on Ctrl-C.
set -euo pipefail
lb_name=proxy-noise.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

layer=4 connections=1000 runs=15 duration=10 out=$lb_root/target/proxy-noise
lb_options "--layer 4|7=layer" "--connections C=connections" "--runs N=runs" "--duration S=duration" "--out DIR=out" \
  -- "$@"
lb_one_of --layer "$layer" 4 7
lb_int --connections "$connections" 1
lb_int --runs "$runs" 1
lb_int --duration "$duration" 1
lb_require_tools "apt-get install wrk" wrk
lb_require_loopbench

mkdir -p "$out"
lb_cleanup_on_exit
lb_tmpdir work
lb_start_origin "$out/origin"
lb_start_proxy "$out/proxy" "$layer" epoll
proxy_pid=$lb_started_pid proxy_port=$lb_started_port

printf 'run\tsecond\treq_per_s\tcpu_us_per_req\tuser_us_per_req\tsys_us_per_req\n' >"$out/runs.tsv"
for ((i = 1; i <= runs; i++)); do
  lb_cost "$work/cost" "$proxy_pid" wrk -t1 -c"$connections" -d"$duration"s "http://127.0.0.1:$proxy_port/" \
    >"$work/wrk.out" || lb_fail 1 "run $i: measuring the proxy failed (above)"
  read -r n _ < <(lb_wrk_counts <"$work/wrk.out")
  rps=$(awk -v n="$n" -v d="$duration" 'BEGIN { printf "%.0f", n / d }')
  row=("$i" "$((i * duration))" "$rps" "$(lb_cost_field "$work/cost" cpuMicrosPerRequest)"
    "$(lb_cost_field "$work/cost" userMicrosPerRequest)" "$(lb_cost_field "$work/cost" systemMicrosPerRequest)")
  (IFS=$'\t'; echo "${row[*]}") >>"$out/runs.tsv"
  printf '%d\t%ds\t%d req/s\t%s CPU-us/req\tuser %s\tsys %s\n' "${row[@]}"
done
echo "$out/runs.tsv"
