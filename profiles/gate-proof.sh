#!/usr/bin/env bash
# The gate's proof, re-runnable by anyone: N A/A gates (the same jar against itself: any alarm is a false alarm),
# N power gates (the candidate side runs CalibrationBenchmark 5% slower in throughput and with 1% more bytes per
# op, through the benchmark's own system properties: no production code changes), and N "flag" gates (the same
# jar, the candidate's forks with a Netty system property that makes the proxy's paths allocate more: a change
# that is not in the code). Then a tally.
#
#   profiles/gate-proof.sh [--runs N] [--kinds aa,power,flag] [--profile FILE] [--rounds R] [--out DIR]
#                          [-- GATE OPTIONS]
#
# Defaults: 20 runs of each kind, profiles/gate.jmh, the gate's default rounds and thresholds, out target/gate-proof.
# Needs target/loopbench.jar and target/benchmarks.jar (./mvnw -B -q -Pjmh package -DskipTests) and jq.
# Every gate's directory (forks, summary.md, gate.json) is kept under DIR/<kind>-NN; the tally goes to DIR/tally.md.
# profiles/gate-stats.py pools the gates of a directory (the sd of every metric's paired fork ratios, the verdicts).
# Run it on a quiet machine: one gate of profiles/gate.jmh took 749-834 s in the proof of 2026-11-24
# (docs/results/2026-11-23/gate-proof/), so 3 x 20 gates take about 13 hours.
# Ctrl-C or SIGTERM stops the running gate (and its fork) too.
set -euo pipefail
lb_name=gate-proof.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
cd "$lb_root"

runs=20
kinds=aa,power,flag
profile=profiles/gate.jmh
rounds=
out=target/gate-proof
# 5% less throughput: 1/0.95 = 1.0526 times the CPU work per op; 1% more bytes: byte[8000] -> byte[8080].
power_args="-Dloopbench.calibration.cpuScale=1.0526 -Dloopbench.calibration.allocScale=1.01"
# Netty's Recycler off: objects it would reuse (e.g. the entries of a channel's outbound buffer) are allocated anew.
flag_args="-Dio.netty.recycler.maxCapacityPerThread=0"
lb_options "--runs N=runs" "--kinds aa,power,flag=kinds" "--profile FILE=profile" "--rounds R=rounds" \
  "--out DIR=out" "-- GATE OPTIONS" -- "$@"
extra=("${lb_rest[@]}")
lb_int --runs "$runs" 1
[ -z "$rounds" ] || lb_int --rounds "$rounds" 1
for k in ${kinds//,/ }; do
  [[ "$k" =~ ^(aa|power|flag)$ ]] || lb_fail 2 "unknown kind '$k'; valid: aa, power, flag"
done
[ -f "$profile" ] || lb_fail 2 "--profile '$profile': no such file; the project's: $(echo profiles/*.jmh)"
lb_require_tools "apt-get install jq" jq
lb_require_java
for f in target/loopbench.jar target/benchmarks.jar; do lb_require_file "$f" "$lb_build_jmh"; done
lb_cleanup_on_exit
jar=target/benchmarks.jar
mkdir -p "$out"
roundsopt=()
[ -n "$rounds" ] && roundsopt=(--rounds "$rounds")

# verdict JSON -> one line: exit code, seconds, and the verdicts that matter for the kind
tally_line() { # kind dir exit
  local kind=$1 dir=$2 rc=$3 json=$2/gate.json
  local secs others cal_score cal_bytes proxy_bytes
  secs=$(jq -r '.seconds' "$json")
  # regressions outside the calibration benchmark (for aa: every regression is false)
  others=$(jq '[.results[] | select(.verdict == "REGRESSION")
               | select(.benchmark | startswith("CalibrationBenchmark") | not)] | length' "$json")
  verdict_of() { # BENCHMARK_PREFIX METRIC: the first such result's verdict
    jq -r --arg b "$1" --arg m "$2" \
      '[.results[] | select((.benchmark | startswith($b)) and .metric == $m)][0].verdict // "none"' "$json"
  }
  cal_score=$(verdict_of CalibrationBenchmark primary)
  cal_bytes=$(verdict_of CalibrationBenchmark gc.alloc.rate.norm)
  proxy_bytes=$(jq '[.results[] | select((.benchmark | startswith("PipelineCostBenchmark"))
                    and .metric == "gc.alloc.rate.norm" and .verdict == "REGRESSION")] | length' "$json")
  echo "$kind $(basename "$dir") exit=$rc seconds=$secs calibration.score=$cal_score calibration.B/op=$cal_bytes" \
    "pipeline.B/op.regressions=$proxy_bytes other.regressions=$others"
}

results="$out/runs.txt"
: > "$results"
for kind in ${kinds//,/ }; do
  for i in $(seq -w 1 "$runs"); do
    dir="$out/$kind-$i"
    case "$kind" in
      aa) cand=() ;;
      power) cand=(--candidate-jvm-args "$power_args") ;;
      flag) cand=(--candidate-jvm-args "$flag_args") ;;
    esac
    echo "=== gate-proof: $kind run $i of $runs -> $dir" >&2
    rc=0
    lb_run "$lb_java" -jar target/loopbench.jar gate --baseline "$jar" --candidate "$jar" --profile "$profile" \
      "${roundsopt[@]}" "${cand[@]}" --out "$dir" "${extra[@]}" > "$dir.out" 2> "$dir.err" || rc=$?
    if [ "$rc" = 2 ] || [ ! -f "$dir/gate.json" ]; then
      tail -20 "$dir.err" >&2
      lb_fail 1 "the gate failed to run (exit $rc); see $dir.err"
    fi
    tally_line "$kind" "$dir" "$rc" | tee -a "$results"
  done
done

{
  echo "# Gate proof: $(date -u +%FT%TZ), $(nproc) cores, profile $profile${rounds:+, $rounds rounds}"
  echo
  count() { grep -c "$1" "$results" || true; }
  n_aa=$(count '^aa ')
  if [ "$n_aa" -gt 0 ]; then
    echo "- A/A (same jar both sides): $(grep '^aa ' "$results" | grep -c 'exit=1' || true) of $n_aa runs" \
      "raised an alarm (target: 0)"
  fi
  n_power=$(count '^power ')
  if [ "$n_power" -gt 0 ]; then
    power() { grep '^power ' "$results" | grep "$@" || true; }
    echo "- power, CalibrationBenchmark 5% less throughput: detected in $(power -c 'calibration.score=REGRESSION')" \
      "of $n_power runs (target: >= 19 of 20)"
    echo "- power, CalibrationBenchmark +1% B/op: detected in $(power -c 'calibration.B/op=REGRESSION')" \
      "of $n_power runs (target: >= 19 of 20)"
    echo "- power runs with an alarm elsewhere (false): $(power -vc 'other.regressions=0') of $n_power"
  fi
  n_flag=$(count '^flag ')
  if [ "$n_flag" -gt 0 ]; then
    echo "- flag ($flag_args on the candidate): PipelineCostBenchmark B/op regression in" \
      "$(grep '^flag ' "$results" | grep -vc 'pipeline.B/op.regressions=0' || true) of $n_flag runs"
  fi
  echo "- seconds per gate: $(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^seconds=/) { split($i, a, "=")
      s += a[2]; n++; if (a[2] > m) m = a[2] } } END { if (n) printf "mean %.0f, max %.0f", s / n, m }' "$results")"
  echo
  echo '```'
  cat "$results"
  echo '```'
} > "$out/tally.md"
cat "$out/tally.md"
