#!/usr/bin/env bash
# Compares loopbench's proxy with established proxies, measured the same way in the same run:
#   L4: loopbench --layer 4 vs HAProxy (mode tcp)
#   L7: loopbench --layer 7 vs nginx (proxy_pass, upstream keepalive) vs HAProxy (mode http)
# all in front of the same loopbench origin, each driven by `wrk -t1 -cC -dDs`, with one event-loop thread /
# worker each. For every proxy: requests/s (wrk) and CPU per request = (utime+stime of the proxy's
# processes, from /proc/PID/stat) / requests completed, plus context switches per request.
#
# Needs: wrk, haproxy, nginx (Debian: apt-get install wrk haproxy nginx-light) and target/loopbench.jar.
# Usage: profiles/reference-proxies/compare.sh [--rounds N] [--duration S] [--connections C] [--body-size B]
#                                              [--warmup S] [--out DIR]
# Each target is first warmed up for --warmup seconds (the JVM's JIT needs ~20 s on this path), then every
# round measures all targets one after another (interleaved, so a drift in the machine's speed hits all of
# them alike) after a 2 s settle run. Every measured run is appended to DIR/runs.tsv as soon as it ends;
# the table (medians over rounds, and loopbench's CPU per request as a ratio to the best reference proxy of
# the same round) goes to stdout and DIR/table.md. Everything binds 127.0.0.1; every load run is bounded.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=5 duration=10 connections=64 body=1024 warmup=20 settle=2 out="$root/target/reference-proxies"
java_bin=${JAVA:-java}

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --body-size) body=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "compare.sh: unknown option '$1'; valid: --rounds N --duration S --connections C --body-size B --warmup S --out DIR" >&2; exit 2 ;;
  esac
done
for n in "$rounds" "$duration" "$connections" "$body" "$warmup"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "compare.sh: '$n' is not a non-negative integer" >&2; exit 2; }
done
for tool in wrk haproxy nginx; do
  command -v "$tool" >/dev/null || { echo "compare.sh: '$tool' not found; install it: apt-get install wrk haproxy nginx-light" >&2; exit 2; }
done
jar="$root/target/loopbench.jar"
[ -f "$jar" ] || { echo "compare.sh: $jar missing; build it: ./mvnw -B -q package -DskipTests" >&2; exit 2; }

hz=$(getconf CLK_TCK)
work=$(mktemp -d)
mkdir -p "$out"
pids=()
cleanup() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

wait_port() { # wait until 127.0.0.1:$1 accepts (at most 20 s)
  for _ in $(seq 1 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "compare.sh: nothing listens on 127.0.0.1:$1 after 20 s" >&2; exit 1
}

# Starts a loopbench server; sets $started_pid and $started_port from its "listening on" line.
start_loopbench() {
  local log="$work/$1.out"; shift
  "$java_bin" -jar "$jar" "$@" >"$log" 2>"$log.err" &
  started_pid=$!
  pids+=("$started_pid")
  for _ in $(seq 1 200); do
    if grep -q '^listening on ' "$log"; then
      started_port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log"); return 0
    fi
    kill -0 "$started_pid" 2>/dev/null || { cat "$log.err" >&2; exit 1; }
    sleep 0.1
  done
  echo "compare.sh: loopbench $* did not start" >&2; exit 1
}

# CPU ticks of a set of pids, summed: "utime stime".
cpu_ticks() {
  local u=0 s=0 pu ps
  for p in "$@"; do
    read -r pu ps < <(awk '{ sub(/.*\) /, ""); print $12, $13 }' "/proc/$p/stat")
    u=$((u + pu)) s=$((s + ps))
  done
  echo "$u $s"
}
ctx_switches() {
  local c=0
  for p in "$@"; do
    c=$((c + $(cat /proc/"$p"/task/*/status 2>/dev/null | awk '/^(non)?voluntary_ctxt_switches/ { s += $2 } END { print s + 0 }')))
  done
  echo "$c"
}

# Runs wrk against port $1 for $2 seconds, prints "requests req_per_s"; fails on errors.
run_wrk() {
  local res
  res=$(wrk -t1 -c"$connections" -d"$2"s "http://127.0.0.1:$1/" 2>&1)
  if grep -qE 'Non-2xx|Socket errors' <<<"$res"; then
    echo "compare.sh: wrk saw errors against port $1:" >&2; echo "$res" >&2; exit 1
  fi
  awk '/requests in/ { n = $1 } /Requests\/sec/ { r = $2 } END { print n, r }' <<<"$res"
}

# measure NAME PORT PIDS... : a short settle run, then one measured wrk run; appends to runs.tsv
measure() {
  local name=$1 port=$2; shift 2
  run_wrk "$port" "$settle" >/dev/null
  local u0 s0 c0 u1 s1 c1 res n rps
  read -r u0 s0 < <(cpu_ticks "$@"); c0=$(ctx_switches "$@")
  res=$(run_wrk "$port" "$duration")
  read -r u1 s1 < <(cpu_ticks "$@"); c1=$(ctx_switches "$@")
  read -r n rps <<<"$res"
  local cpu_us user_us sys_us ctx
  per_req() { awk -v d="$1" -v hz="$hz" -v n="$n" 'BEGIN { printf "%.2f", d * 1e6 / hz / n }'; }
  cpu_us=$(per_req $((u1 - u0 + s1 - s0))); user_us=$(per_req $((u1 - u0))); sys_us=$(per_req $((s1 - s0)))
  ctx=$(awk -v d=$((c1 - c0)) -v n="$n" 'BEGIN { printf "%.3f", d / n }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$n" "$rps" "$cpu_us" "$user_us" "$sys_us" "$ctx" >>"$out/runs.tsv"
  printf '  round %s %-34s %9s req/s  %7s CPU-us/req (user %s, sys %s)  %6s ctxsw/req\n' \
    "$round" "$name" "$rps" "$cpu_us" "$user_us" "$sys_us" "$ctx"
}

backend_port=0
start_loopbench origin origin --listen 127.0.0.1:0 --transport epoll --io-threads 1 --body-size "$body"
backend_port=$started_port origin_pid=$started_pid

# loopbench proxies: 1 io thread, epoll, reuse-server-thread, default allocator
start_loopbench lb4 proxy --layer 4 --backend "127.0.0.1:$backend_port" --transport epoll --io-threads 1 --thread-model reuse-server-thread
lb4_port=$started_port lb4_pid=$started_pid
start_loopbench lb7 proxy --layer 7 --backend "127.0.0.1:$backend_port" --transport epoll --io-threads 1 --thread-model reuse-server-thread
lb7_port=$started_port lb7_pid=$started_pid

# HAProxy (one process, one thread)
ha4_port=$(free_port) ha7_port=$(free_port)
for mode in tcp http; do
  port=$ha4_port; [ "$mode" = http ] && port=$ha7_port
  sed -e "s/@LISTEN@/127.0.0.1:$port/" -e "s/@BACKEND@/127.0.0.1:$backend_port/" -e "s/@MODE@/$mode/" \
    "$here/haproxy.cfg" >"$work/haproxy-$mode.cfg"
  if [ "$mode" = http ]; then
    printf '    option http-keep-alive\n    option forwardfor\n    http-reuse always\n' >>"$work/haproxy-$mode.cfg"
  fi
  haproxy -db -f "$work/haproxy-$mode.cfg" >"$work/haproxy-$mode.log" 2>&1 &
  pids+=($!)
  eval "ha_${mode}_pid=$!"
  wait_port "$port"
done

# nginx (master + one worker)
ng_port=$(free_port)
mkdir -p "$work/nginx/logs"
sed -e "s/@LISTEN@/127.0.0.1:$ng_port/" -e "s/@BACKEND@/127.0.0.1:$backend_port/" -e "s#@PREFIX@#$work/nginx#g" \
  "$here/nginx.conf" >"$work/nginx/nginx.conf"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' >"$work/nginx/stdout.log" 2>&1 &
ng_master=$!
pids+=("$ng_master")
wait_port "$ng_port"
ng_pids=("$ng_master" $(pgrep -P "$ng_master"))

{
  echo "# $(date -u +%FT%TZ) wrk -t1 -c$connections -d${duration}s per run, after ${warmup}s warm-up per target and a ${settle}s settle run; body $body B; $(nproc) cores; $(uname -r)"
  echo "# $(haproxy -v | head -1); $(nginx -v 2>&1); $("$java_bin" -version 2>&1 | head -1); loopbench: epoll, 1 io thread, reuse-server-thread, adaptive allocator"
  printf 'round\tproxy\trequests\treq_per_s\tcpu_us_per_req\tuser_us_per_req\tsys_us_per_req\tctxsw_per_req\n'
} >"$out/runs.tsv"

echo "warming up every target for ${warmup}s"
for port in "$backend_port" "$lb4_port" "$ha4_port" "$lb7_port" "$ng_port" "$ha7_port"; do
  [ "$warmup" -gt 0 ] && run_wrk "$port" "$warmup" >/dev/null
done

for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds"
  measure "direct (origin, no proxy)" "$backend_port" "$origin_pid"
  measure "L4 loopbench" "$lb4_port" "$lb4_pid"
  measure "L4 haproxy mode tcp" "$ha4_port" "$ha_tcp_pid"
  measure "L7 loopbench" "$lb7_port" "$lb7_pid"
  measure "L7 nginx proxy_pass keepalive" "$ng_port" "${ng_pids[@]}"
  measure "L7 haproxy mode http" "$ha7_port" "$ha_http_pid"
done

# Medians over rounds (min..max in brackets).
python3 - "$out/runs.tsv" <<'PY' | tee "$out/table.md"
import csv, statistics, sys
path = sys.argv[1]
rows = list(csv.DictReader((l for l in open(path) if not l.startswith('#')), delimiter='\t'))
print('\n'.join(l[2:].strip() for l in open(path) if l.startswith('#'))); print()
def span(values, fmt):
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}..{fmt.format(max(values))}]"
print('| proxy | req/s, median [min..max] | CPU-µs/request, median [min..max] | of which user | of which sys | context switches/request | rounds |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for name in dict.fromkeys(r['proxy'] for r in rows):
    rs = [r for r in rows if r['proxy'] == name]
    med = lambda k: f"{statistics.median(float(r[k]) for r in rs):.2f}"
    print(f"| {name} | {span([float(r['req_per_s']) for r in rs], '{:,.0f}')} | "
          f"{span([float(r['cpu_us_per_req']) for r in rs], '{:.2f}')} | {med('user_us_per_req')} | "
          f"{med('sys_us_per_req')} | {span([float(r['ctxsw_per_req']) for r in rs], '{:.3f}')} | {len(rs)} |")
# The target: loopbench's CPU per request against the best reference proxy at the same layer, round by round.
print()
print('| layer | loopbench CPU/request as a ratio to the best reference of the same round, median [min..max] | target |')
print('| --- | --- | --- |')
for layer in ('L4', 'L7'):
    ratios = []
    for rnd in dict.fromkeys(r['round'] for r in rows):
        cpu = {r['proxy']: float(r['cpu_us_per_req']) for r in rows if r['round'] == rnd and r['proxy'].startswith(layer)}
        ours = [v for k, v in cpu.items() if 'loopbench' in k]
        refs = [v for k, v in cpu.items() if 'loopbench' not in k]
        if ours and refs:
            ratios.append(ours[0] / min(refs))
    if ratios:
        met = 'met' if statistics.median(ratios) <= 1.0 else 'NOT met'
        print(f"| {layer} | {span(ratios, '{:.2f}')} | <= 1.00: {met} |")
PY
