#!/usr/bin/env bash
# The proxy's soak: at least 1,000,000 requests through each of
#   L4 (copy), L7 --l7-mode aggregate, L7 --l7-mode stream, L7 aggregate --backend-pool per-loop
# driven by loopbench's own load generator (`load --requests N`), with the proxy under Netty's paranoid leak detection
# (every buffer tracked, a leak reported with where it was last touched). For each proxy it checks:
#   1. no error: the generator exits 0 (every response complete and 2xx) and reached N requests;
#   2. no leak: no "LEAK:" in the proxy's stderr, after a forced GC and a few more requests (the detector reports
#      leaked buffers when it next tracks one) and a graceful stop;
#   3. memory flat after warm-up: the proxy's resident memory (VmRSS of /proc/PID/status) is sampled every second;
#      the first third of the samples is the warm-up; the rule is max(last third) <= 1.10 x max(middle third).
#      The heap (1 GiB, as the suite's servers) is pre-touched (-XX:+AlwaysPreTouch), so growth in RSS is memory
#      outside the heap (direct buffers, Netty's pools, thread stacks), where a leak would show.
# Everything binds 127.0.0.1; every run is bounded (--max-seconds per proxy); whatever it starts is stopped on exit.
# Writes DIR/soak.tsv (one line per proxy), DIR/rss-<name>.tsv (the samples), DIR/<name>.load.json (the generator's
# result) and the logs; prints a table. Exit 0 when every check passed, 1 when one failed, 2 on bad usage.
#
# Needs target/loopbench.jar (./mvnw -B -q package -DskipTests).
# Usage: profiles/soak.sh [--requests N] [--connections C] [--body-size B] [--max-seconds S] [--only REGEX]
#          [--out DIR]
set -euo pipefail
lb_name=soak.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

requests=1000000 connections=64 body=1024 max_seconds=900 only="" out="$lb_root/target/soak"
java_bin=$lb_java
lb_options "--requests N=requests" "--connections C=connections" "--body-size B=body" "--max-seconds S=max_seconds" \
  "--only REGEX=only" "--out DIR=out" -- "$@"
lb_int --requests "$requests" 1
lb_int --connections "$connections" 1
lb_int --body-size "$body" 1
lb_int --max-seconds "$max_seconds" 1
# The proxies soaked, in order: "NAME|PROXY OPTIONS" (--only matches NAME).
proxies=("l4|--layer 4" "l7-aggregate|--layer 7 --l7-mode aggregate" "l7-stream|--layer 7 --l7-mode stream"
  "l7-aggregate-per-loop|--layer 7 --l7-mode aggregate --backend-pool per-loop")
names=$(printf '%s\n' "${proxies[@]%%|*}")
if [ -n "$only" ] && ! grep -qE -- "$only" <<<"$names"; then
  lb_fail 2 "--only '$only' matches no proxy; the proxies: $(paste -sd, - <<<"$names" | sed 's/,/, /g')"
fi
jar=$lb_jar
lb_require_loopbench

# The suite's server flags; the proxy's with leak detection paranoid instead of off, and its heap pre-touched.
mapfile -t server_flags < <(lb_server_flags "$java_bin")
proxy_flags=("${server_flags[@]/-Dio.netty.leakDetection.level=disabled/-Dio.netty.leakDetection.level=paranoid}"
  -XX:+AlwaysPreTouch)

lb_cleanup_on_exit
mkdir -p "$out"

lb_start "$out/origin" "$java_bin" "${server_flags[@]}" -jar "$jar" origin --listen 127.0.0.1:0 --transport epoll \
  --io-threads 1 --body-size "$body"
origin_pid=$lb_started_pid origin_port=$lb_started_port

printf 'proxy\trequests\terrors\treq_per_s\tgenerator_exit\tleak_reports\trss_warm_mib\trss_middle_max_mib' \
  >"$out/soak.tsv"
printf '\trss_last_max_mib\trss_samples\tverdict\n' >>"$out/soak.tsv"
failed=0

# soak NAME PROXY_ARGS...
soak() {
  local name=$1; shift
  if [ -n "$only" ] && ! grep -qE -- "$only" <<<"$name"; then return 0; fi
  echo "soak: $name: $requests requests, $connections connections, paranoid leak detection"
  lb_start "$out/$name" "$java_bin" "${proxy_flags[@]}" -jar "$jar" proxy --listen 127.0.0.1:0 \
    --backend "127.0.0.1:$origin_port" --transport epoll --io-threads 1 "$@"
  local proxy_pid=$lb_started_pid port=$lb_started_port
  local rss="$out/rss-$name.tsv"
  printf 'second\tvmrss_kib\n' >"$rss"
  ( s=0; while kill -0 "$proxy_pid" 2>/dev/null; do
      v=$(awk '/^VmRSS:/ { print $2 }' "/proc/$proxy_pid/status" 2>/dev/null || true)
      [ -n "$v" ] && printf '%s\t%s\n' "$s" "$v" >>"$rss"
      s=$((s + 1)); sleep 1
    done ) &
  local sampler=$!
  lb_track "$sampler"
  local gen_exit=0
  lb_run timeout "$((max_seconds + 60))" "$java_bin" "${server_flags[@]}" -jar "$jar" load \
    "http://127.0.0.1:$port/" --connections "$connections" --io-threads 1 --transport epoll --requests "$requests" \
    --duration "${max_seconds}s" --json "$out/$name.load.json" >"$out/$name.load.out" 2>"$out/$name.load.err" \
    || gen_exit=$?
  lb_stop "$sampler"
  lb_untrack "$sampler"
  # Let the leak detector see what the run left: a full GC, then a few more tracked buffers, then a graceful stop.
  if command -v jcmd >/dev/null; then jcmd "$proxy_pid" GC.run >/dev/null 2>&1 || true; fi
  lb_run "$java_bin" "${server_flags[@]}" -jar "$jar" load "http://127.0.0.1:$port/" --connections 4 \
    --io-threads 1 --requests 2000 --duration 30s >/dev/null 2>&1 || true
  lb_stop "$proxy_pid"
  lb_untrack "$proxy_pid"
  local leaks
  leaks=$(grep -c 'LEAK:' "$out/$name.err" || true)
  python3 - "$out/$name.load.json" "$rss" "$name" "$gen_exit" "$leaks" "$requests" >>"$out/soak.tsv" <<'PY'
import json, os, sys
path, rss_path, name, gen_exit, leaks, wanted = sys.argv[1:7]
gen_exit, leaks, wanted = int(gen_exit), int(leaks), int(wanted)
r = json.load(open(path)) if os.path.exists(path) else {'requests': 0, 'errors': {'total': -1}, 'requestsPerSecond': 0}
kib = [int(l.split('\t')[1]) for l in open(rss_path).read().splitlines()[1:] if '\t' in l]
third = len(kib) // 3
warm, middle, last = kib[:third], kib[third:2 * third], kib[2 * third:]
flat = bool(middle) and bool(last) and max(last) <= 1.10 * max(middle)
ok = gen_exit == 0 and r['errors']['total'] == 0 and r['requests'] >= wanted and leaks == 0 and flat
mib = lambda xs: f"{max(xs) / 1024:.0f}" if xs else '-'
print(f"{name}\t{r['requests']}\t{r['errors']['total']}\t{r['requestsPerSecond']:.0f}\t{gen_exit}\t{leaks}\t"
      f"{mib(warm)}\t{mib(middle)}\t{mib(last)}\t{len(kib)}\t{'pass' if ok else 'FAIL'}")
PY
  if tail -n 1 "$out/soak.tsv" | grep -q 'FAIL$'; then
    failed=1
    echo "soak: $name FAILED (see $out/$name.err, $out/$name.load.out)" >&2
  fi
}

for p in "${proxies[@]}"; do
  read -r -a args <<<"${p#*|}"
  soak "${p%%|*}" "${args[@]}"
done
lb_stop "$origin_pid"
lb_untrack "$origin_pid"

echo
echo "Soak: $requests requests per proxy, $connections connections, ${body}-byte GETs, leak detection paranoid;"
echo "RSS rule: max of the last third of the 1 s samples <= 1.10 x max of the middle third" \
  "(the first third is warm-up)."
echo
python3 - "$out/soak.tsv" <<'PY' | tee "$out/soak.md"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
print('| proxy | requests | errors | req/s | generator exit | leak reports | RSS MiB: warm-up max | middle-third max '
      '| last-third max | samples | verdict |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for r in rows:
    print(f"| {r['proxy']} | {int(r['requests']):,} | {r['errors']} | {int(r['req_per_s']):,} | "
          f"{r['generator_exit']} | "
          f"{r['leak_reports']} | {r['rss_warm_mib']} | {r['rss_middle_max_mib']} | {r['rss_last_max_mib']} | "
          f"{r['rss_samples']} | {r['verdict']} |")
PY
exit "$failed"
