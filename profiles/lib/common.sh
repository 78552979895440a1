# shellcheck shell=bash disable=SC2034 # (variables for the scripts that source this file)
# What the scripts under profiles/ share (sourced, never run): error messages and option checks, finding java and
# the jars, the JVM flags the suite gives its servers, starting a loopbench server and waiting for its port, measuring
# what a wrk run cost a server (loopbench cost), and stopping every child when the script ends.
#
# A script sets lb_name (the name its messages start with; default: its file name), sources this file and calls
# lb_cleanup_on_exit once. From then on, whatever it starts with lb_start, lb_run or lb_track is stopped when it
# exits, however it exits (at its end, on an error, on Ctrl-C or SIGTERM): SIGTERM first (a loopbench server then
# shuts down gracefully), SIGKILL for what is still there 30 s later. Functions and variables all start with lb_.

lb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lb_name=${lb_name:-$(basename "$0")}
lb_java=${JAVA:-java}
lb_jar=$lb_root/target/loopbench.jar
lb_build_jar="./mvnw -B -q package -DskipTests"
lb_build_jmh="./mvnw -B -q -Pjmh package -DskipTests"
lb_pids=()
lb_exit_hooks=()

# ---- messages and options ----

# lb_fail CODE MESSAGE...: the message on stderr, after the script's name, then exit CODE (2: bad usage; 1: a failure).
lb_fail() {
  local code=$1; shift
  printf '%s: %s\n' "$lb_name" "$*" >&2
  exit "$code"
}

# lb_usage: the script's header comment (every comment line after the #! line, up to the first other line).
lb_usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

# lb_need "$@": inside an option loop, fails unless the option in $1 has a value after it.
lb_need() { [ $# -ge 2 ] || lb_fail 2 "option '$1' needs a value"; }

# lb_options SPEC... -- "$@": the script's options. A SPEC is "--name METAVAR=var" (an option with a value, stored in
# $var), "--name=var=VALUE" (an option alone: sets $var to VALUE) or "-- WHAT" (what follows a "--" goes to the array
# lb_rest). -h and --help print the usage and exit 0; an unknown option fails (2) naming the valid ones.
lb_options() {
  local specs=() spec name var valid="" found
  while [ $# -gt 0 ] && [ "$1" != -- ]; do specs+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  for spec in "${specs[@]}"; do valid+="${valid:+ }${spec%%=*}"; done
  lb_rest=()
  while [ $# -gt 0 ]; do
    case "$1" in -h|--help) lb_usage; exit 0 ;; esac
    found=0
    for spec in "${specs[@]}"; do
      name=${spec%%[ =]*}
      [ "$1" = "$name" ] || continue
      found=1
      if [ "$name" = -- ]; then shift; lb_rest=("$@"); return 0; fi
      var=${spec#*=}
      if [[ "${spec%%=*}" == *" "* ]]; then lb_need "$@"; printf -v "$var" '%s' "$2"; shift 2
      else printf -v "${var%%=*}" '%s' "${var#*=}"; shift; fi
      break
    done
    [ "$found" = 1 ] || lb_fail 2 "unknown option '$1'; valid: $valid"
  done
}

# lb_int OPTION VALUE MIN: fails unless VALUE is a whole number >= MIN (0 or 1).
lb_int() {
  local what="a positive integer"
  [ "$3" = 0 ] && what="a non-negative integer"
  if ! [[ "$2" =~ ^[0-9]{1,9}$ ]] || [ "$((10#$2))" -lt "$3" ]; then lb_fail 2 "$1 '$2' is not $what"; fi
}

# lb_one_of OPTION VALUE VALID...: fails unless VALUE is one of VALID, naming them.
lb_one_of() {
  local option=$1 value=$2 v valid=""; shift 2
  for v in "$@"; do [ "$value" = "$v" ] && return 0; valid+="${valid:+, }$v"; done
  lb_fail 2 "$option '$value'; valid: $valid"
}

# ---- what the scripts need ----

# lb_require_file FILE BUILD_COMMAND: fails (2) unless FILE exists, saying how to build it.
lb_require_file() { [ -f "$1" ] || lb_fail 2 "no $1 (build it: $2)"; }

# lb_require_java: fails (2) unless $lb_java ($JAVA, default java) runs.
lb_require_java() { command -v "$lb_java" >/dev/null || lb_fail 2 "no java executable '$lb_java' (set JAVA or PATH)"; }

# lb_require_loopbench: fails (2) unless java runs and target/loopbench.jar exists (saying how to build it).
lb_require_loopbench() { lb_require_java; lb_require_file "$lb_jar" "$lb_build_jar"; }

# lb_require_tools HINT TOOL...: fails (2) naming the first TOOL not on the PATH, with HINT (how to install them).
lb_require_tools() {
  local hint=$1 t; shift
  for t in "$@"; do command -v "$t" >/dev/null || lb_fail 2 "'$t' not found; install it: $hint"; done
}

# lb_java_release JAVA: the JDK's feature release (17, 25, ...).
lb_java_release() {
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}

# lb_server_flags [JAVA]: the JVM flags the suite gives its server processes (loopbench.process.JvmFlags
# .serverDefaults), one a line, for JAVA's release (default $lb_java): a 1 GiB heap, Netty's leak detection off,
# Unsafe on. No collector by name, unlike JvmFlags: a caller's -XX:+UseSerialGC must not meet a second collector.
lb_server_flags() {
  local feature; feature=$(lb_java_release "${1:-$lb_java}")
  printf '%s\n' -Xms1g -Xmx1g -Dio.netty.leakDetection.level=disabled -Dio.netty.noUnsafe=false
  [ "${feature:-17}" -ge 21 ] && echo -XX:+EnableDynamicAgentLoading
  [ "${feature:-17}" -ge 22 ] && echo --enable-native-access=ALL-UNNAMED
  [ "${feature:-17}" -ge 23 ] && echo --sun-misc-unsafe-memory-access=allow
  return 0
}

# lb_jcmd: the jcmd of $lb_java's JDK (it attaches to that JDK's processes), else the one on the PATH.
lb_jcmd() {
  local java_path; java_path=$(readlink -f "$(command -v "$lb_java")" 2>/dev/null || true)
  if [ -n "$java_path" ] && [ -x "$(dirname "$java_path")/jcmd" ]; then echo "$(dirname "$java_path")/jcmd"
  else command -v jcmd || true; fi
}

# ---- children ----

# lb_track PID...: PIDs are stopped at exit.
lb_track() { lb_pids+=("$@"); }

# lb_untrack PID: PID is no longer stopped at exit (it has ended).
lb_untrack() {
  local kept=() p
  for p in "${lb_pids[@]}"; do [ "$p" = "$1" ] || kept+=("$p"); done
  lb_pids=("${kept[@]}")
}

# lb_at_exit COMMAND: COMMAND (a string, eval'd) runs at exit, after the children are stopped; the last added first.
lb_at_exit() { lb_exit_hooks=("$1" "${lb_exit_hooks[@]}"); }

# lb_alive PID: PID runs (a zombie, which has ended but is not yet reaped, does not).
lb_alive() {
  local state; state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "${state%% *}" != Z ]
}

# lb_stop PID...: SIGTERM, then at most 30 s for them to end, then SIGKILL; reaps the ones that are children.
lb_stop() {
  local p left i
  for p in "$@"; do kill "$p" 2>/dev/null || true; done
  for ((i = 0; i < 300; i++)); do
    left=0
    for p in "$@"; do lb_alive "$p" && left=1; done
    [ "$left" = 0 ] && break
    sleep 0.1
  done
  for p in "$@"; do
    if lb_alive "$p"; then kill -9 "$p" 2>/dev/null || true; fi
    wait "$p" 2>/dev/null || true
  done
}

# lb_cleanup: stops every tracked child, then runs the exit hooks. The EXIT trap of lb_cleanup_on_exit.
lb_cleanup() {
  local rc=$? hook
  trap - EXIT INT TERM
  [ "${#lb_pids[@]}" -gt 0 ] && lb_stop "${lb_pids[@]}"
  lb_pids=()
  for hook in "${lb_exit_hooks[@]}"; do eval "$hook" || true; done
  return "$rc"
}

# lb_cleanup_on_exit: lb_cleanup at exit; Ctrl-C and SIGTERM exit (130, 143), which runs it.
lb_cleanup_on_exit() {
  trap lb_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# lb_run COMMAND...: runs COMMAND as a tracked child and waits for it; returns its exit status. A foreground command
# would hold off the script's own SIGTERM until it ended; while the script waits for a child, the signal stops both.
lb_run() {
  "$@" &
  local p=$! rc=0
  lb_track "$p"
  wait "$p" || rc=$?
  lb_untrack "$p"
  return "$rc"
}

# lb_tmpdir VAR: makes a temporary directory, removed at exit, and sets VAR to its path. (Not "$(lb_tmpdir)": a
# command substitution is a subshell, whose exit hook would be lost and the directory left behind.)
lb_tmpdir() {
  local d; d=$(mktemp -d "${TMPDIR:-/tmp}/${lb_name%.*}.XXXXXX")
  lb_at_exit "rm -rf '$d'"
  printf -v "$1" '%s' "$d"
}

# ---- servers ----

# lb_start LOGBASE COMMAND...: starts COMMAND (a loopbench server, e.g. "$lb_java" FLAGS -jar JAR proxy ...) as a
# tracked child, stdout to LOGBASE.out and stderr to LOGBASE.err, and waits (at most 30 s) for its one stdout line
# "listening on ADDRESS:PORT" (then, from newer servers, a space and what they run on); sets lb_started_pid and
# lb_started_port. Fails (1) with the tail of its log if it
# exits first or stays silent.
lb_start() {
  local log=$1 i; shift
  : >"$log.out"  # before the child opens it, so that reading it never finds it missing
  "$@" >>"$log.out" 2>"$log.err" &
  lb_started_pid=$!
  lb_track "$lb_started_pid"
  for ((i = 0; i < 300; i++)); do
    lb_started_port=$(sed -n 's/^listening on [^ ]*:\([0-9][0-9]*\)\( .*\)\{0,1\}$/\1/p' "$log.out")
    [ -n "$lb_started_port" ] && return 0
    if ! lb_alive "$lb_started_pid"; then
      tail -n 20 "$log.err" >&2
      lb_fail 1 "$(basename "$log") exited before it listened (its log: $log.err)"
    fi
    sleep 0.1
  done
  lb_fail 1 "$(basename "$log") did not listen within 30 s (its log: $log.err)"
}

# lb_start_loopbench LOGBASE [JVM_FLAG...] -- ARGS...: lb_start of target/loopbench.jar ARGS on $lb_java, with the
# suite's server flags and then JVM_FLAGs (e.g. -XX:+UseSerialGC).
lb_start_loopbench() {
  local log=$1 flags; shift
  mapfile -t flags < <(lb_server_flags "$lb_java")
  while [ $# -gt 0 ] && [ "$1" != -- ]; do flags+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  lb_start "$log" "$lb_java" "${flags[@]}" -jar "$lb_jar" "$@"
}

# lb_start_origin LOGBASE [BODY]: a loopbench origin on epoll with one event loop, serving a BODY-byte page (default
# 1024); sets lb_origin_port.
lb_start_origin() {
  lb_start_loopbench "$1" -- origin --listen 127.0.0.1:0 --transport epoll --io-threads 1 --body-size "${2:-1024}"
  lb_origin_port=$lb_started_port
}

# lb_start_proxy LOGBASE LAYER TRANSPORT [JVM_FLAG...]: a loopbench proxy in front of lb_start_origin's origin, one
# event loop, reuse-server-thread; sets lb_started_pid and lb_started_port.
lb_start_proxy() {
  local log=$1 layer=$2 transport=$3; shift 3
  lb_start_loopbench "$log" "$@" -- proxy --listen 127.0.0.1:0 --backend "127.0.0.1:$lb_origin_port" \
    --transport "$transport" --io-threads 1 --thread-model reuse-server-thread --layer "$layer"
}

# lb_free_port: a TCP port free on 127.0.0.1 right now.
lb_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# lb_wait_port PORT: waits (at most 20 s) until 127.0.0.1:PORT accepts; fails (1) otherwise.
lb_wait_port() {
  local i
  for ((i = 0; i < 200; i++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  lb_fail 1 "nothing listens on 127.0.0.1:$1 after 20 s"
}

# lb_nginx_stream_module: the path of nginx's stream module, or nothing.
lb_nginx_stream_module() { ls /usr/lib/nginx/modules/ngx_stream_module.so 2>/dev/null || true; }

# lb_start_nginx DIR CONF BACKEND_PORT KEEPALIVE: nginx (master and one worker) from CONF, a template of
# profiles/reference-proxies/, in front of 127.0.0.1:BACKEND_PORT, its files under DIR; tracked like any child.
# Sets lb_started_port and lb_started_pids (the master, then its workers).
lb_start_nginx() {
  local dir=$1 conf=$2 backend=$3 keepalive=$4 port
  port=$(lb_free_port)
  mkdir -p "$dir/logs"
  sed -e "s/@LISTEN@/127.0.0.1:$port/" -e "s/@BACKEND@/127.0.0.1:$backend/" -e "s#@PREFIX@#$dir#g" \
    -e "s#@STREAM_MODULE@#$(lb_nginx_stream_module)#" -e "s/@KEEPALIVE@/$keepalive/" "$conf" >"$dir/nginx.conf"
  nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' >"$dir/stdout.log" 2>&1 &
  local master=$!
  lb_track "$master"
  lb_wait_port "$port"
  lb_started_port=$port
  # shellcheck disable=SC2207 # pids are words
  lb_started_pids=("$master" $(pgrep -P "$master"))
}

# ---- what a run cost a server: loopbench cost (loopbench.metrics.ProcStat) ----

# The request count in wrk's output, for loopbench cost --requests-from.
lb_wrk_requests='([0-9]+) requests in'

# lb_cost FILE PID COMMAND...: runs COMMAND (a wrk run) under `loopbench cost`, which reads from /proc, just before
# COMMAND starts and just after it ends, the CPU time (user, system) and context switches of PID and every process
# descending from it, and the whole machine's busy CPU time, as the end-to-end benchmarks read theirs
# (loopbench.metrics.ProcStat); FILE gets them per request (wrk's count) as one line "cost key=value ...", which
# lb_cost_field reads. COMMAND's output passes through. The measuring JVM (C1 only, a small heap) starts before the
# first reading and ends after the last; its own CPU time in between is left out of the machine's.
lb_cost() {
  local file=$1 pid=$2; shift 2
  "$lb_java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx64m -jar "$lb_jar" cost --pid "$pid" \
    --requests-from "$lb_wrk_requests" --out "$file" -- "$@"
}

# lb_cost_field FILE KEY: the value of KEY (e.g. cpuMicrosPerRequest, userMicrosPerRequest, systemMicrosPerRequest,
# contextSwitchesPerRequest, machineCpuMicrosPerRequest) in the line lb_cost wrote to FILE.
lb_cost_field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1"; }

# lb_wrk_counts: wrk's output on stdin -> "requests req_per_s".
lb_wrk_counts() { awk '/requests in/ { n = $1 } /Requests\/sec/ { r = $2 } END { print n + 0, r + 0 }'; }
