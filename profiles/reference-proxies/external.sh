#!/usr/bin/env bash
# loopbench's L7 proxy beside nginx, HAProxy and Zuul 2 in ProxyEndToEndBenchmark: the same origin, generator and
# parameters for every target, loopbench's as -p layer=7, the others as -p layer=external with
# -Dloopbench.external.proxy (a command template: nginx and HAProxy from this directory's configurations, one worker or
# thread each; Zuul 2 from target/peers/zuul.jar, one worker event loop). Each target is one JMH run (a system
# property cannot vary within one): req/s, e2e.proxy.cpu and .ctxsw per request, latency, in DIR/NAME.json, side
# files in DIR/e2e/, and the tables of all of them on stdout at the end (loopbench table). With --warmup-curve, also
# ProxyWarmupBenchmark for loopbench's L7 proxy and for Zuul: a cold gateway's first 30 s (req/s, errors and p99 per
# second in the side files; e2e.warmup.firstSecond and .secondsTo90).
#
# Needs: target/benchmarks.jar (./mvnw -B -q -Pjmh package -DskipTests), target/peers/zuul.jar (built by every build
# unless -DskipPeers), nginx and haproxy (apt-get install nginx-light haproxy).
# Usage: profiles/reference-proxies/external.sh [--forks N] [--warmup-iterations N] [--iterations N]
#          [--connections C] [--body-size B] [--connection-close] [--only REGEX] [--warmup-curve]
#          [--curve-seconds S] [--out DIR]
# Iterations are 2 s; the warm-up (default 30 iterations, 60 s) is long because Zuul's JIT takes tens of seconds to
# settle (measured here pinned to one CPU of a busy machine: ~250 req/s in its first 5 s, ~3,000 after 30 s), as
# loopbench's own L7 path takes 20 s and more (compare.sh warms it up for 60 s).
# --only REGEX runs only the targets whose name matches (loopbench-l7, nginx, haproxy, zuul, and direct: no gateway, the
# generator straight to the origin, the reference a gateway's cost is a fraction of; direct runs only when named),
# e.g. --only 'nginx|zuul'. --connection-close opens a new connection per request (ab without -k, as the Zuul article's
# runs), connect time counted in the latency; the default is keep-alive.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
forks=3 warmup_iterations=30 iterations=5 connections=64 body=1024 only="" curve=0 curve_seconds=60
connection=keep-alive
out="$root/target/external"

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
need() { [ $# -ge 2 ] || { echo "external.sh: option '$1' needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --forks) need "$@"; forks=$2; shift 2 ;;
    --warmup-iterations) need "$@"; warmup_iterations=$2; shift 2 ;;
    --iterations) need "$@"; iterations=$2; shift 2 ;;
    --curve-seconds) need "$@"; curve_seconds=$2; shift 2 ;;
    --connections) need "$@"; connections=$2; shift 2 ;;
    --body-size) need "$@"; body=$2; shift 2 ;;
    --only) need "$@"; only=$2; shift 2 ;;
    --connection-close) connection=close; shift ;;
    --warmup-curve) curve=1; shift ;;
    --out) need "$@"; out=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "external.sh: unknown option '$1'; valid: --forks N --warmup-iterations N --iterations N" \
         "--connections C --body-size B --connection-close --only REGEX --warmup-curve --curve-seconds S" \
         "--out DIR" >&2; exit 2 ;;
  esac
done
for pair in "--forks=$forks" "--warmup-iterations=$warmup_iterations" "--iterations=$iterations" \
  "--connections=$connections" "--body-size=$body" "--curve-seconds=$curve_seconds"; do
  n=${pair#*=}
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "external.sh: ${pair%%=*} '$n' is not a positive integer" >&2; exit 2; }
done
jar="$root/target/benchmarks.jar" zuul="$root/target/peers/zuul.jar"

# nginx's and HAProxy's files (configuration, nginx's logs and temp dirs), one directory per fork, all under one
# scratch directory removed when this script ends (the gateway execs in place of its shell, which cannot clean up).
scratch=$(mktemp -d "${TMPDIR:-/tmp}/external.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The command templates (run by /bin/sh -c; {listenPort}, {backendHost}, {backendPort} are filled in by the benchmark).
subst='-e "s/@LISTEN@/127.0.0.1:{listenPort}/" -e "s/@BACKEND@/{backendHost}:{backendPort}/"'
declare -A template
template[nginx]="d=\$(mktemp -d -p $scratch) && mkdir \$d/logs && sed $subst -e \"s#@PREFIX@#\$d#g\""
template[nginx]+=" -e \"s/@KEEPALIVE@/$connections/\" $here/nginx.conf > \$d/nginx.conf"
template[nginx]+=" && exec nginx -p \$d -c \$d/nginx.conf -g \"daemon off;\""
template[haproxy]="d=\$(mktemp -d -p $scratch) && sed $subst -e \"s/@MODE@/http/\" $here/haproxy.cfg > \$d/h.cfg"
template[haproxy]+=" && printf \"    option http-keep-alive\\n    option forwardfor\\n    http-reuse always\\n\""
template[haproxy]+=" >> \$d/h.cfg && exec haproxy -db -f \$d/h.cfg"
template[zuul]="exec java -Xms1g -Xmx1g -jar $zuul --listen 127.0.0.1:{listenPort}"
template[zuul]+=" --backend {backendHost}:{backendPort} --transport epoll --io-threads 1"
targets=(direct loopbench-l7 nginx haproxy zuul)
selected=()
for t in "${targets[@]}"; do
  if [ -z "$only" ]; then
    [ "$t" = direct ] || selected+=("$t")
  elif [[ "$t" =~ $only ]]; then
    selected+=("$t")
  fi
done
[ ${#selected[@]} -gt 0 ] \
  || { echo "external.sh: --only '$only' matches no target; targets: ${targets[*]}" >&2; exit 2; }
[ -f "$jar" ] || { echo "external.sh: no $jar; build it: ./mvnw -B -q -Pjmh package -DskipTests" >&2; exit 2; }
for t in "${selected[@]}"; do
  case "$t" in
    nginx|haproxy) command -v "$t" >/dev/null \
      || { echo "external.sh: '$t' not found; apt-get install nginx-light haproxy, or --only without it" >&2
           exit 2; } ;;
    zuul) [ -f "$zuul" ] \
      || { echo "external.sh: no $zuul; ./mvnw -B -q package -DskipTests builds it" >&2; exit 2; } ;;
  esac
done
mkdir -p "$out/e2e"
common=(-p transport=epoll -p ioThreads=1 -p connections="$connections" -p bodySize="$body"
  -p connection="$connection" -f "$forks"
  -wi "$warmup_iterations" -w 2
  -i "$iterations" -r 2 -prof loopbench.bench.EndToEndProfiler -rf json)

# run NAME BENCHMARK ARGS...: one JMH run of NAME (loopbench's proxy at layer 7, direct without one, the others
# external).
run() {
  local name=$1 bench=$2; shift 2
  local props=(-Dloopbench.e2e.dir="$out/e2e")
  local layer
  case "$name" in
    loopbench-l7) layer=(-p layer=7) ;;
    direct) layer=(-p layer=direct) ;;
    *) props+=("-Dloopbench.external.proxy=${template[$name]}"); layer=(-p layer=external) ;;
  esac
  echo "== $name: $bench" >&2
  java "${props[@]}" -jar "$jar" "$bench" "${layer[@]}" "$@" -rff "$out/$name-$bench.json"
}

for t in "${selected[@]}"; do
  run "$t" ProxyEndToEndBenchmark.requests "${common[@]}"
done
if [ "$curve" = 1 ]; then
  for t in "${selected[@]}"; do
    case "$t" in loopbench-l7|zuul)
      run "$t" ProxyWarmupBenchmark -p transport=epoll -p ioThreads=1 -p connections="$connections" \
        -p bodySize="$body" -p seconds="$curve_seconds" -f "$forks" -prof loopbench.bench.EndToEndProfiler -rf json ;;
    esac
  done
fi
java -cp "$jar" loopbench.cli.Main table "$out"/*.json
