#!/usr/bin/env bash
# Compares loopbench's proxy with established proxies, measured the same way in the same run, in front of
# the same loopbench origin, each with one event-loop thread / worker, driven by `wrk -t1 -cC -dDs`:
#   L4: loopbench --layer 4 vs HAProxy mode tcp vs nginx stream
#   L7: loopbench --layer 7 (--l7-mode aggregate and stream) vs nginx (proxy_pass, upstream keepalive) vs
#       HAProxy mode http
# for a small page (--body-size, 1 KiB) and a large one (--large-body-size, 64 KiB; L4 adds HAProxy with
# option splice-auto there). L7 also measures loopbench with --backend-pool per-loop (a keep-alive pool per event
# loop, as nginx's upstream keepalive). For every target: requests/s (wrk) and, measured by `loopbench cost` (the
# project's own /proc reader, loopbench.metrics.ProcStat, as the end-to-end benchmarks measure theirs), CPU per
# request = CPU time of the proxy's process tree (user + system; nginx: master and workers) / requests completed, split
# into user and sys, and context switches per request; and the whole machine's busy CPU per request (proxy, origin,
# wrk, kernel threads and anything else running, the measuring JVM left out), which catches work a proxy moves out of
# its own processes. With --before REV|JAR,
# loopbench's rows are measured for that git revision (built in a temporary worktree) or jar too, in the same rounds:
# the before/after table in one command. With
# --jvm-variant 'FLAGS', loopbench's L4, L7 aggregate and L7 per-loop rows are measured a second time, same jar,
# with FLAGS added to the proxy JVM's options (e.g. -XX:+UseSerialGC), labelled "(FLAGS)": a JVM option's
# effect in the same rounds. With --proxy-variant 'ARGS' (proxy options as "--name value" pairs, e.g.
# '--transport io_uring'), the same three rows are measured a second time with those options replacing the ones
# every loopbench proxy here gets (--transport epoll --io-threads 1 --thread-model reuse-server-thread), labelled
# "(ARGS)": a knob's effect on the proxy's cost, in the same rounds. With --java-variant JAVA (a java binary, e.g.
# /usr/lib/jvm/temurin-25-jdk-amd64/bin/java), the same three rows are measured a second time, same jar, on that
# JDK (with the suite's server flags for its release), labelled "(JDK N)": what a JDK upgrade does to the proxy's
# cost, in the same rounds. The origin and every other loopbench row run on $JAVA (default: java on the PATH).
# Every loopbench JVM (origin and proxies, now and before) runs as the suite runs its servers (JvmFlags): a 1 GiB
# heap, Netty's leak detection off (set explicitly: jars built before the servers turned it off by themselves kept
# Netty's default, SIMPLE, which samples buffers with a stack trace: a cost nginx does not pay), Unsafe on.
# The load generators side by side, every round, against the small page's nginx L7 proxy: `wrk -t1 -cC` and
# loopbench's own `load --io-threads 1 --transport epoll` (with a 10 s warm-up of its own JVM), each one's
# CPU-µs per request (wrk: its rusage; loopbench: the JSON's generator figures, measured period only), user and
# sys, and their ratio loopbench/wrk per round (--no-generators skips them).
#
# Needs: wrk, haproxy, nginx with the stream module (Debian: apt-get install wrk haproxy nginx-light
# libnginx-mod-stream) and target/loopbench.jar (./mvnw -B -q package -DskipTests).
# Usage: profiles/reference-proxies/compare.sh [--rounds N] [--duration S] [--connections C] [--body-size B]
#          [--large-body-size B] [--pages small|large|both] [--warmup S] [--before REV|JAR]
#          [--jvm-variant 'FLAGS'] [--proxy-variant 'ARGS'] [--java-variant JAVA] [--only REGEX] [--no-generators]
#          [--out DIR]
# --only REGEX measures only the targets whose name matches (grep -E), e.g. --only 'L4 65536B'.
# JIT warm-up: every loopbench proxy is first driven for --warmup seconds (default 60: C2 was still compiling
# the L7 path after 20 s of load); the reference proxies for 5 s. Then every round measures all targets one
# after another (interleaved, so a drift in the machine's speed hits all of them alike), each after a 2 s
# settle run. Every measured run is appended to DIR/runs.tsv as soon as it ends; the table (medians over
# rounds, and each loopbench row's CPU per request as a ratio to the best reference proxy of the same layer
# and page in the same round) goes to stdout and DIR/table.md. Everything binds 127.0.0.1; every run is bounded.
# Syscalls per request (in all; reads, writes, epoll waits, epoll_ctl): `perf stat` counts the target's
# system calls on the kernel's syscall tracepoints over each settle run (the measured run is not traced), divided by
# that run's requests; without perf or tracepoint access those columns stay empty and the run says why.
# Whatever it starts (servers, proxies, the temporary worktree) is stopped or removed when it ends, also on Ctrl-C.
set -euo pipefail
lb_name=compare.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

here=$(cd "$(dirname "$0")" && pwd)
root=$lb_root
rounds=5 duration=10 connections=64 body=1024 large_body=65536 pages=both warmup=60 ref_warmup=5 settle=2
out="$root/target/reference-proxies" before="" only="" generators=1 variant="" proxy_variant="" java_variant=""
java_bin=$lb_java

lb_options "--rounds N=rounds" "--duration S=duration" "--connections C=connections" "--body-size B=body" \
  "--large-body-size B=large_body" "--pages small|large|both=pages" "--warmup S=warmup" "--before REV|JAR=before" \
  "--jvm-variant 'FLAGS'=variant" "--proxy-variant 'ARGS'=proxy_variant" "--java-variant JAVA=java_variant" \
  "--only REGEX=only" "--no-generators=generators=0" "--out DIR=out" -- "$@"
lb_int --rounds "$rounds" 0
lb_int --duration "$duration" 0
lb_int --connections "$connections" 0
lb_int --body-size "$body" 0
lb_int --large-body-size "$large_body" 0
lb_int --warmup "$warmup" 0
if [ -n "$variant" ]; then
  for f in $variant; do
    [[ "$f" == -* ]] || lb_fail 2 "--jvm-variant '$variant': '$f' is not a JVM option (they start with '-')"
  done
fi
if [ -n "$proxy_variant" ]; then
  read -r -a pv <<<"$proxy_variant"
  for ((i = 0; i < ${#pv[@]}; i += 2)); do
    [[ "${pv[i]}" == --?* && $((i + 1)) -lt ${#pv[@]} && "${pv[i + 1]}" != --* ]] \
      || lb_fail 2 "--proxy-variant '$proxy_variant': expected '--option value' pairs" \
           "(e.g. '--transport io_uring'); '${pv[i]}' is not one"
  done
fi
if [ -n "$java_variant" ]; then
  [ -x "$java_variant" ] && [ ! -d "$java_variant" ] \
    || lb_fail 2 "--java-variant '$java_variant' is not an executable java binary" \
         "(e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java)"
fi
lb_one_of --pages "$pages" small large both
lb_require_tools "apt-get install wrk haproxy nginx-light libnginx-mod-stream" wrk haproxy nginx
[ -n "$(lb_nginx_stream_module)" ] || lb_fail 2 "nginx's stream module" \
  "(/usr/lib/nginx/modules/ngx_stream_module.so) not found; install it: apt-get install libnginx-mod-stream"
jar=$lb_jar
lb_require_loopbench

# Syscalls per request: perf stat on the syscall tracepoints, which count in the kernel (no stop per call, as strace's
# ptrace has). Each group is the calls a proxy makes for it on this kernel (send/recv are sendto/recvfrom).
syscall_groups=(reads:read,recvfrom,recvmsg,readv writes:write,sendto,sendmsg,writev
  waits:epoll_wait,epoll_pwait,epoll_pwait2 ctls:epoll_ctl)
syscall_events=raw_syscalls:sys_enter
count_syscalls=0
if ! command -v perf >/dev/null; then
  echo "compare.sh: perf not found (apt-get install linux-perf): no syscalls-per-request columns" >&2
elif ! perf stat -x, -e raw_syscalls:sys_enter -o /dev/null -- true 2>/dev/null; then
  echo "compare.sh: perf cannot count the raw_syscalls tracepoint here (perf_event_paranoid, tracefs access):" \
    "no syscalls-per-request columns" >&2
else
  count_syscalls=1
  for g in "${syscall_groups[@]}"; do
    IFS=, read -r -a calls <<<"${g#*:}"
    for c in "${calls[@]}"; do # a kernel without one of them (epoll_pwait2 is 5.11+) just does not count it
      perf stat -x, -e "syscalls:sys_enter_$c" -o /dev/null -- true 2>/dev/null \
        && syscall_events+=",syscalls:sys_enter_$c"
    done
  done
fi
# The JVM flags the suite gives its server processes, for $java_bin's release.
mapfile -t jvm_flags < <(lb_server_flags "$java_bin")
lb_cleanup_on_exit
lb_tmpdir work
mkdir -p "$out"

# --before: a jar, or a git revision built in a temporary worktree.
before_jar=""
if [ -n "$before" ]; then
  if [ -f "$before" ]; then
    before_jar=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
  else
    git -C "$root" rev-parse --verify -q "$before^{commit}" >/dev/null \
      || lb_fail 2 "--before '$before' is neither a jar nor a git revision"
    before_tree="$work/before-tree"
    echo "building loopbench at $before (temporary worktree)"
    git -C "$root" worktree add -q --detach "$before_tree" "$before"
    lb_at_exit "git -C '$root' worktree remove --force '$before_tree' 2>/dev/null"
    (cd "$before_tree" && ./mvnw -B -q package -DskipTests) || lb_fail 1 "building $before failed"
    before_jar="$before_tree/target/loopbench.jar"
  fi
fi

# start_loopbench LOGNAME JAR "EXTRA JVM FLAGS" ARGS... : sets $started_pid and $started_port from its
# "listening on" line. The extra flags (space-separated, may be empty) come after the common $jvm_flags. It runs on
# $java_bin, or on $start_java with that JDK's server flags when the caller sets it (--java-variant's rows).
start_loopbench() {
  local log="$work/$1" which_jar=$2 extra=() java=${start_java:-$java_bin} flags=("${jvm_flags[@]}")
  [ -n "${start_java:-}" ] && mapfile -t flags < <(lb_server_flags "$start_java")
  read -r -a extra <<<"$3"; shift 3
  lb_start "$log" "$java" "${flags[@]}" "${extra[@]}" -jar "$which_jar" "$@"
  started_pid=$lb_started_pid started_port=$lb_started_port
}

# with_options "--name value ..." ARGS... : sets $merged to ARGS with each named option's value replaced (appended
# when ARGS lacks it): picocli refuses an option given twice.
with_options() {
  local opts=() i j found; read -r -a opts <<<"$1"; shift
  merged=("$@")
  for ((i = 0; i < ${#opts[@]}; i += 2)); do
    found=0
    for ((j = 0; j < ${#merged[@]} - 1; j++)); do
      if [ "${merged[j]}" = "${opts[i]}" ]; then merged[j + 1]=${opts[i + 1]}; found=1; fi
    done
    [ "$found" = 1 ] || merged+=("${opts[i]}" "${opts[i + 1]}")
  done
}

# run_wrk PORT SECONDS [PID]: wrk against PORT for SECONDS, prints "requests req_per_s"; fails on errors. With PID, the
# run is measured: what it cost PID and its descendants goes to $work/cost (lb_cost).
run_wrk() {
  local res wrk=(wrk -t1 -c"$connections" -d"$2"s "http://127.0.0.1:$1/")
  if [ -n "${3:-}" ]; then
    rm -f "$work/cost"
    res=$(lb_cost "$work/cost" "$3" "${wrk[@]}" 2>&1) \
      || { echo "$res" >&2; lb_fail 1 "measuring port $1 failed (above)"; }
  else
    res=$("${wrk[@]}" 2>&1)
  fi
  if grep -qE 'Non-2xx|Socket errors' <<<"$res"; then
    echo "$res" >&2; lb_fail 1 "wrk saw errors against port $1 (above)"
  fi
  lb_wrk_counts <<<"$res"
}

# Targets: "name|port|warmup seconds|pids...", measured in this order every round (those --only matches).
targets=()
add_target() {
  local name=$1 port=$2 warm=$3; shift 3
  if [ -z "$only" ] || grep -qE -- "$only" <<<"$name"; then targets+=("$name|$port|$warm|$*"); fi
}

# One proxy of each kind per page size, in front of an origin serving that page.
setup_page() {
  local label=$1 size=$2
  start_loopbench "origin-$label" "$jar" "" origin --listen 127.0.0.1:0 --transport epoll --io-threads 1 \
    --body-size "$size"
  local backend_port=$started_port
  add_target "$label direct (origin, no proxy)" "$backend_port" "$ref_warmup" "$started_pid"

  local lb=(proxy --backend "127.0.0.1:$backend_port" --transport epoll --io-threads 1
    --thread-model reuse-server-thread)
  # Each loopbench build, JVM set-up, proxy knob or JDK measured:
  # "tag|jar|extra JVM flags|proxy options|row suffix|java binary (empty: $java_bin)".
  local jars=("now|$jar|||"); [ -n "$before_jar" ] && jars+=("before|$before_jar||| (before)")
  [ -n "$variant" ] && jars+=("variant|$jar|$variant|| ($variant)")
  [ -n "$proxy_variant" ] && jars+=("pvariant|$jar||$proxy_variant| ($proxy_variant)")
  [ -n "$java_variant" ] && jars+=("jvariant|$jar||| (JDK $(java_release "$java_variant"))|$java_variant")
  local large=0; [ "$label" = "${large_body}B" ] && large=1

  add_loopbench_rows lb4 "L4 $label loopbench" all --layer 4
  if [ "$large" = 1 ]; then
    start_loopbench "lb4s-$label" "$jar" "" "${lb[@]}" --layer 4 --l4-mode splice
    add_target "L4 $label loopbench splice" "$started_port" "$warmup" "$started_pid"
  fi
  start_haproxy "tcp-$label" tcp ""
  add_target "L4 $label haproxy mode tcp" "$started_port" "$ref_warmup" "$started_pid"
  if [ "$large" = 1 ]; then
    start_haproxy "splice-$label" tcp '    option splice-auto\n'
    add_target "L4 $label haproxy mode tcp splice-auto" "$started_port" "$ref_warmup" "$started_pid"
  fi
  start_nginx "stream-$label" "$here/nginx-stream.conf" "$backend_port"
  add_target "L4 $label nginx stream" "$started_port" "$ref_warmup" "${started_pids[@]}"

  add_loopbench_rows lb7 "L7 $label loopbench aggregate" all --layer 7
  start_loopbench "lb7s-$label" "$jar" "" "${lb[@]}" --layer 7 --l7-mode stream
  add_target "L7 $label loopbench stream" "$started_port" "$warmup" "$started_pid"
  # Not for --before: a build older than --backend-pool would refuse it.
  add_loopbench_rows lb7p "L7 $label loopbench aggregate per-loop" not-before --layer 7 --backend-pool per-loop

  start_nginx "http-$label" "$here/nginx.conf" "$backend_port"
  add_target "L7 $label nginx proxy_pass keepalive" "$started_port" "$ref_warmup" "${started_pids[@]}"
  [ "$label" = "${body}B" ] && generator_port=$started_port
  start_haproxy "http-$label" http '    option http-keep-alive\n    option forwardfor\n    http-reuse always\n'
  add_target "L7 $label haproxy mode http" "$started_port" "$ref_warmup" "$started_pid"
}

# add_loopbench_rows LOGNAME ROW all|not-before ARGS... (inside setup_page, which sets $lb, $jars and $label): one
# loopbench proxy per entry of $jars (this build, --before, --jvm-variant, --proxy-variant, --java-variant), $lb plus
# ARGS with the entry's options applied, each a target named ROW plus the entry's suffix.
add_loopbench_rows() {
  local logname=$1 row=$2 which_entries=$3 entry tag which flags options suffix java; shift 3
  for entry in "${jars[@]}"; do
    IFS='|' read -r tag which flags options suffix java <<<"$entry"
    [ "$which_entries" = not-before ] && [ "$tag" = before ] && continue
    with_options "$options" "${lb[@]}"
    start_java=$java start_loopbench "$logname-$label-$tag" "$which" "$flags" "${merged[@]}" "$@"
    add_target "$row$suffix" "$started_port" "$warmup" "$started_pid"
  done
}

# start_haproxy NAME tcp|http EXTRA (inside setup_page, which sets $backend_port): HAProxy from haproxy.cfg with
# the EXTRA lines (printf format) appended (to its backend section); sets $started_port and $started_pid.
start_haproxy() {
  local cfg="$work/haproxy-$1.cfg" port
  port=$(lb_free_port)
  sed -e "s/@LISTEN@/127.0.0.1:$port/" -e "s/@BACKEND@/127.0.0.1:$backend_port/" -e "s/@MODE@/$2/" \
    "$here/haproxy.cfg" >"$cfg"
  # shellcheck disable=SC2059 # EXTRA is a printf format on purpose (its \n)
  printf "$3" >>"$cfg"
  haproxy -db -f "$cfg" >"$work/haproxy-$1.log" 2>&1 &
  started_pid=$!
  lb_track "$started_pid"
  lb_wait_port "$port"
  started_port=$port
}

# start_nginx NAME CONF BACKEND_PORT: nginx (master + one worker); sets $started_port and $started_pids.
start_nginx() {
  lb_start_nginx "$work/nginx-$1" "$2" "$3" "$connections"
  started_port=$lb_started_port started_pids=("${lb_started_pids[@]}")
}

[ "$pages" != large ] && setup_page "${body}B" "$body"
[ "$pages" != small ] && setup_page "${large_body}B" "$large_body"

{
  echo "# $(date -u +%FT%TZ) wrk -t1 -c$connections -d${duration}s per run, after ${warmup}s warm-up per loopbench" \
    "target (${ref_warmup}s per reference) and a ${settle}s settle run; $(nproc) cores; $(uname -r)"
  setup="${before:+; before = $before}${variant:+; variant = $variant}"
  setup+="${proxy_variant:+; proxy variant = $proxy_variant}"
  setup+="${java_variant:+; java variant = $("$java_variant" -version 2>&1 | head -1)}"
  echo "# $(haproxy -v | head -1); $(nginx -v 2>&1); $("$java_bin" -version 2>&1 | head -1);" \
    "loopbench $(git -C "$root" describe --always --dirty 2>/dev/null || echo '?'): epoll, 1 io thread," \
    "reuse-server-thread, adaptive allocator$setup"
  printf 'round\tproxy\trequests\treq_per_s\tcpu_us_per_req\tuser_us_per_req\tsys_us_per_req\tctxsw_per_req'
  printf '\tmachine_cpu_us_per_req'
  printf '\tsyscalls_per_req\treads_per_req\twrites_per_req\tepoll_waits_per_req\tepoll_ctls_per_req\n'
} >"$out/runs.tsv"
printf 'round\tgenerator\trequests\treq_per_s\tcpu_us_per_req\tuser_us_per_req\tsys_us_per_req\tctxsw_per_req\n' \
  >"$out/generators.tsv"

# settle_counting_syscalls PORT PIDS... : the settle run, with perf counting the pids' syscalls around it; prints
# "total reads writes waits ctls" per request ("- - - - -" when perf cannot count). perf counts from before wrk starts
# to after it ends: the idle proxy's few calls outside the run (its JVM's housekeeping) count too, as do the settle
# run's connection set-up and tear-down (accept, connect, close: a few calls per connection).
settle_counting_syscalls() {
  local port=$1; shift
  if [ "$count_syscalls" != 1 ]; then run_wrk "$port" "$settle" >/dev/null; echo "- - - - -"; return; fi
  perf stat -x, -e "$syscall_events" -p "$(IFS=,; echo "$*")" -o "$work/perf.csv" -- sleep $((settle + 1)) \
    2>/dev/null &
  local perf_pid=$! res
  lb_track "$perf_pid"
  sleep 0.3 # perf attached
  res=$(run_wrk "$port" "$settle")
  wait "$perf_pid"
  lb_untrack "$perf_pid"
  awk -F, -v n="${res%% *}" -v groups="${syscall_groups[*]}" '
    BEGIN { k = split(groups, g, " "); for (i = 1; i <= k; i++) { split(g[i], kv, ":"); m = split(kv[2], calls, ",")
            for (j = 1; j <= m; j++) group["syscalls:sys_enter_" calls[j]] = kv[1] } }
    $3 == "raw_syscalls:sys_enter" { total = $1 }
    $3 in group { sum[group[$3]] += $1 }
    END { printf "%.2f %.2f %.2f %.2f %.2f\n", total / n, sum["reads"] / n, sum["writes"] / n, sum["waits"] / n,
          sum["ctls"] / n }
  ' "$work/perf.csv"
}

# measure NAME PORT PIDS... : a short settle run (syscalls counted), then one measured wrk run, its cost that of the
# first pid's process tree (a server's own process, nginx's master with its workers); appends to runs.tsv
measure() {
  local name=$1 port=$2; shift 2
  local sc_total sc_reads sc_writes sc_waits sc_ctls
  read -r sc_total sc_reads sc_writes sc_waits sc_ctls < <(settle_counting_syscalls "$port" "$@")
  local res n rps
  res=$(run_wrk "$port" "$duration" "$1")
  read -r n rps <<<"$res"
  local cpu_us user_us sys_us ctx machine_us c=$work/cost
  cpu_us=$(lb_cost_field "$c" cpuMicrosPerRequest) user_us=$(lb_cost_field "$c" userMicrosPerRequest)
  sys_us=$(lb_cost_field "$c" systemMicrosPerRequest) ctx=$(lb_cost_field "$c" contextSwitchesPerRequest)
  machine_us=$(lb_cost_field "$c" machineCpuMicrosPerRequest)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$n" "$rps" "$cpu_us" \
    "$user_us" "$sys_us" "$ctx" "$machine_us" "$sc_total" "$sc_reads" "$sc_writes" "$sc_waits" "$sc_ctls" \
    >>"$out/runs.tsv"
  printf '  round %s %-48s %9s req/s  %7s CPU-us/req (user %s, sys %s)  %6s ctxsw/req  machine %s CPU-us/req' \
    "$round" "$name" "$rps" "$cpu_us" "$user_us" "$sys_us" "$ctx" "$machine_us"
  printf '  %s syscalls/req\n' "$sc_total"
}

# measure_generators PORT: wrk, then loopbench's load generator, against the same target; appends to generators.tsv.
# wrk's CPU is its own rusage (it has no warm-up: all of its run is measured); loopbench's comes from its JSON
# (its JVM's CPU from /proc over the measured period only, after a 10 s warm-up of its own).
measure_generators() {
  local port=$1 res
  run_wrk "$port" "$settle" >/dev/null
  res=$(python3 - "$port" "$connections" "$duration" <<'PY'
import re, resource, subprocess, sys
port, conns, dur = sys.argv[1:4]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
out = subprocess.run(['wrk', '-t1', '-c' + conns, '-d' + dur + 's', f'http://127.0.0.1:{port}/'],
                     capture_output=True, text=True).stdout
after = resource.getrusage(resource.RUSAGE_CHILDREN)
if re.search(r'Non-2xx|Socket errors', out):
    sys.exit('wrk saw errors:\n' + out)
n = int(re.search(r'(\d+) requests in', out).group(1))
rps = float(re.search(r'Requests/sec:\s+([\d.]+)', out).group(1))
user = (after.ru_utime - before.ru_utime) * 1e6 / n
sys_ = (after.ru_stime - before.ru_stime) * 1e6 / n
ctx = (after.ru_nvcsw + after.ru_nivcsw - before.ru_nvcsw - before.ru_nivcsw) / n
print(f'{n}\t{rps:.0f}\t{user + sys_:.2f}\t{user:.2f}\t{sys_:.2f}\t{ctx:.3f}')
PY
)
  printf '%s\twrk -t1 -c%s\t%s\n' "$round" "$connections" "$res" >>"$out/generators.tsv"
  lb_run "$java_bin" "${jvm_flags[@]}" -jar "$jar" load "http://127.0.0.1:$port/" --connections "$connections" \
    --io-threads 1 --transport epoll --warmup 10s --duration "${duration}s" --json "$work/load.json" \
    >"$work/load.out" 2>"$work/load.err" \
    || { cat "$work/load.out" "$work/load.err" >&2; lb_fail 1 "loopbench load failed (above)"; }
  res=$(python3 - "$work/load.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); g = r['generator']
print(f"{r['requests']}\t{r['requestsPerSecond']:.0f}\t{g['cpuMicrosPerRequest']:.2f}\t{g['userMicrosPerRequest']:.2f}"
      f"\t{g['systemMicrosPerRequest']:.2f}\t{g['contextSwitchesPerRequest']:.3f}")
PY
)
  printf '%s\tloopbench load --io-threads 1\t%s\n' "$round" "$res" >>"$out/generators.tsv"
  tail -n 2 "$out/generators.tsv" \
    | awk -F'\t' '{ printf "  round %s generator %-30s %9s req/s  %7s CPU-us/req (user %s, sys %s)\n",
                    $1, $2, $4, $5, $6, $7 }'
}

echo "warming up: ${warmup}s per loopbench proxy, ${ref_warmup}s per reference"
for t in "${targets[@]}"; do
  IFS='|' read -r name port warm _ <<<"$t"
  # A cold JVM can time a few requests out (wrk: 2 s): tolerated here, never in a measured run.
  [ "$warm" -gt 0 ] && wrk -t1 -c"$connections" -d"$warm"s "http://127.0.0.1:$port/" >/dev/null 2>&1
done

for round in $(seq 1 "$rounds"); do
  echo "round $round of $rounds"
  for t in "${targets[@]}"; do
    IFS='|' read -r name port _ tpids <<<"$t"
    # shellcheck disable=SC2086 # pids are words
    measure "$name" "$port" $tpids
  done
  if [ "$generators" = 1 ] && [ -n "${generator_port:-}" ]; then
    measure_generators "$generator_port"
  fi
done

# Medians over rounds (min..max in brackets), then loopbench vs the best reference, round by round.
python3 "$here/tables.py" proxies "$out/runs.tsv" | tee "$out/table.md"

# The load generators: CPU per request of each, and loopbench's as a ratio to wrk's in the same round.
if [ "$(wc -l <"$out/generators.tsv")" -gt 1 ]; then
  python3 "$here/tables.py" generators "$out/generators.tsv" | tee -a "$out/table.md"
fi
