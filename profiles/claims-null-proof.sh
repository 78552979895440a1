#!/usr/bin/env bash
# The rounds engine's null proof: N null families of profiles/claims-null.jmh (twin forks of one configuration, run
# with the claims' own rounds, pairing and rules), each run by the Suite through the rounds engine and judged by
# `loopbench claims --null`; then the tally "families with any decisive check: k of N" (target: 0 of 20).
#
#   profiles/claims-null-proof.sh [--families N] [--profile FILE] [--out DIR] [--seed S] [--family-timeout MINUTES]
#                                 [--from I] [--benchmarks-jar JAR] [--loopbench-jar JAR] [-- SUITE OPTIONS]
#
# Defaults: 20 families, profiles/claims-null.jmh (--profile profiles/claims-null-side-by-side.jmh: the side-by-side
# rule's family; profiles/claims-null-aggregator-side-by-side.jmh: C000-7's side-by-side rule's;
# profiles/claims-null-epoll41-side-by-side.jmh: C004-1's, on Netty 4.1), out
# target/claims-null-proof, a random schedule per family (--seed S: family i gets seed S+i),
# at most 180 minutes per family (then it is stopped, its forks with it, and counted failed).
# Needs target/benchmarks.jar and target/loopbench.jar (./mvnw -B -q -Pjmh package -DskipTests), and for a profile
# with [jar=netty-4.1] lines target/netty-4.1/benchmarks.jar (the same with -Dnetty.version=4.1.136.Final); $JAVA
# (default: java).
# Family i goes to DIR/family-NN/ (the Suite's results.json, forks/, e2e/, suite.log, and null.txt: the judging); after
# every family DIR/families.txt gets its line and DIR/summary.md is rewritten, so a killed proof keeps its tally.
# Run it on a quiet machine: ~10 minutes per family (595-597 s measured, docs/results/2026-11-25/claims-null-proof),
# 20 families ~3.3 hours.
# --from I resumes a stopped proof in the same DIR (give the same --seed): families 1..I-1 keep their lines in
# DIR/families.txt and are counted in the tally as they stand; families I..N are run (again).
# Ctrl-C or SIGTERM stops the running family (the suite and its forks) too.
set -euo pipefail
lb_name=claims-null-proof.sh
# shellcheck source=profiles/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
cd "$lb_root"

families=20
profile=profiles/claims-null.jmh
out=target/claims-null-proof
seed=
family_timeout=180
from=1
benchmarks_jar=target/benchmarks.jar
loopbench_jar=target/loopbench.jar
java=$lb_java
lb_options "--families N=families" "--profile FILE=profile" "--out DIR=out" "--seed S=seed" \
  "--family-timeout MINUTES=family_timeout" "--from I=from" "--benchmarks-jar JAR=benchmarks_jar" \
  "--loopbench-jar JAR=loopbench_jar" "-- SUITE OPTIONS" -- "$@"
extra=("${lb_rest[@]}")
[[ "$families" =~ ^[0-9]+$ ]] && [ "$families" -ge 1 ] && [ "$families" -le 1000 ] \
  || lb_fail 2 "--families '$families' is not a whole number from 1 to 1000"
[ -z "$seed" ] || [[ "$seed" =~ ^[0-9]{1,15}$ ]] || lb_fail 2 "--seed '$seed' is not a non-negative whole number"
[[ "$family_timeout" =~ ^[0-9]+$ ]] && [ "$family_timeout" -ge 1 ] \
  || lb_fail 2 "--family-timeout '$family_timeout' is not a positive number of minutes"
[[ "$from" =~ ^[0-9]+$ ]] && [ "$from" -ge 1 ] && [ "$from" -le "$families" ] \
  || lb_fail 2 "--from '$from' is not a family number from 1 to --families ($families)"
[ -f "$profile" ] || lb_fail 2 "--profile '$profile': no such file; the project's: $(echo profiles/*.jmh)"
grep -qE '^[^#]*(\[twins\]|/twin-[a-z0-9]+|smallLimit=([0-9]+) -p largeLimit=\2( |$))' "$profile" \
  || lb_fail 2 "--profile '$profile' has no [twins] line, twin arm nor equal limits, so no null comparison" \
    "(see profiles/claims-null.jmh, profiles/claims-null-side-by-side.jmh," \
    "profiles/claims-null-aggregator-side-by-side.jmh, profiles/claims-null-epoll41-side-by-side.jmh)"
for f in "$benchmarks_jar" "$loopbench_jar"; do lb_require_file "$f" "$lb_build_jmh"; done
# Lines tagged [jar=netty-4.1] run from the benchmarks jar built against Netty 4.1, as `./mvnw -Pjmh verify` runs them.
jars=()
if grep -qE '^[^#]*\[jar=netty-4\.1\]' "$profile"; then
  lb_require_file target/netty-4.1/benchmarks.jar "$lb_build_jmh -Dnetty.version=4.1.136.Final"
  jars=(--jar "netty-4.1=$lb_root/target/netty-4.1/benchmarks.jar")
fi
lb_require_java
lb_cleanup_on_exit

# The judging's answer: `loopbench claims --null` prints a line "decisive checks: K of M" (K of the family's M twin
# checks decisive in either direction). Prints "K M", or nothing if there is no such line.
# A family counts only when every twin check was measured ("(0 not measured)"); anything else is a failed family.
decisive_of() {
  sed -n 's/^decisive checks: \([0-9][0-9]*\) of \([0-9][0-9]*\) (0 not measured)$/\1 \2/p' "$1" | tail -n 1
}

mkdir -p "$out"
lines="$out/families.txt"
judged=0
with_decisive=0
failed=0
# Resuming: keep the lines of families 1..from-1 and count them as they stand.
kept=""
if [ "$from" -gt 1 ]; then
  for ((n = 1; n < from; n++)); do
    line=$(grep "^family $(printf %02d "$n"): " "$lines" 2>/dev/null | tail -n 1) \
      || lb_fail 2 "--from $from: family $n has no line in $lines to keep; resume from $n or earlier"
    kept+="$line"$'\n'
    case "$line" in
      *": decisive checks "*)
        judged=$((judged + 1))
        k=${line#*decisive checks }
        [ "${k%% *}" -gt 0 ] && with_decisive=$((with_decisive + 1)) ;;
      *) failed=$((failed + 1)) ;;
    esac
  done
fi
printf %s "$kept" > "$lines"
summary() {
  {
    echo "# Null proof of the rounds engine: $(date -u +%FT%TZ), $(nproc) cores, profile $profile"
    echo
    echo "- families with any decisive check: $with_decisive of $judged (target: 0 of 20)"
    echo "- families run: $((judged + failed)) of $families ($failed failed to run or to be judged:" \
      "no verdict from them)"
    echo "- per family: $out/family-NN/ (results.json, forks/, suite.log, null.txt)"
    echo
    echo '```'
    cat "$lines"
    echo '```'
  } > "$out/summary.md.tmp"
  mv "$out/summary.md.tmp" "$out/summary.md"
}
summary

for n in $(seq "$from" "$families"); do
  i=$(printf %02d "$n")
  dir="$out/family-$i"
  rm -rf "$dir"
  mkdir -p "$dir"
  seedopt=()
  [ -n "$seed" ] && seedopt=(--seed "$((seed + n))")
  echo "=== claims-null-proof: family $i of $families -> $dir" >&2
  start=$(date +%s)
  rc=0
  lb_run timeout --kill-after=60 "${family_timeout}m" "$java" -cp "$benchmarks_jar" loopbench.suite.Suite \
    --profile "$profile" --out "$dir" "${seedopt[@]}" "${jars[@]}" -- "${extra[@]}" > "$dir/suite.log" 2>&1 || rc=$?
  secs=$(( $(date +%s) - start ))
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    failed=$((failed + 1))
    echo "family $i: FAILED: stopped after --family-timeout $family_timeout minutes (not judged; see $dir/suite.log)" \
      | tee -a "$lines" >&2
    summary
    continue
  fi
  if [ ! -s "$dir/results.json" ]; then
    failed=$((failed + 1))
    echo "family $i: FAILED to run (suite exit $rc, ${secs} s, no results; see $dir/suite.log)" | tee -a "$lines" >&2
    tail -n 20 "$dir/suite.log" >&2 || true
    summary
    continue
  fi
  jrc=0
  lb_run "$java" -jar "$loopbench_jar" claims --null "$dir/results.json" > "$dir/null.txt" 2>&1 || jrc=$?
  answer=$(decisive_of "$dir/null.txt")
  if [ "$jrc" != 0 ] || [ -z "$answer" ]; then
    failed=$((failed + 1))
    why="claims --null exit $jrc$([ -n "$answer" ] || echo ", no 'decisive checks: K of M' line")"
    echo "family $i: judging FAILED ($why; see $dir/null.txt)" | tee -a "$lines" >&2
    summary
    echo "claims-null-proof: the judging failed; the tally so far is in $out/summary.md" >&2
    exit 1
  fi
  read -r k m <<< "$answer"
  judged=$((judged + 1))
  [ "$k" -gt 0 ] && with_decisive=$((with_decisive + 1))
  echo "family $i: decisive checks $k of $m (suite exit $rc, ${secs} s)" | tee -a "$lines"
  summary
done
cat "$out/summary.md"
