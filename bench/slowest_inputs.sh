#!/usr/bin/env bash
# Benchmark (not a test): the slowest valid input found for each cell (issue 15's closing note), run once each
# through the native CLI, with its wall time and peak memory (max RSS, from /usr/bin/time). Every input here is
# accepted by the cell's validation (a budget refusal would print as "refused"); the budget says each takes at
# most ~4 s natively (10 s in the browser at 2.5x) and 1 GiB.
#   bench/slowest_inputs.sh [path/to/serving-lab] [cell-prefix]
# Prints one row per input: cell, input, seconds, MiB, outcome; then the machine's load (the timings are only
# as good as a quiet machine).
set -u
BIN=${1:-build/native/serving-lab}
ONLY=${2:-}
[ -x "$BIN" ] || { echo "no $BIN: build it first (ninja -C build/native serving-lab)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

# cell | flags  (the worst valid corner of each cell found by the corner sweep; see the report of issue 15)
INPUTS=$(cat <<'EOF'
llm/energy | --user_tokens 50000
llm/continuous-batching | --lambda 0.001 --n 5000 --output_mean 1000 --max_model_len 4096 --static_batch 8
llm/prefix-caching |
llm/cpu-decode-roofline | --weights_mib 520
queues/mm1-md1 | --n 10000000
request/cold-start | --read_mib 410
queues/routing | --points 12 --n 400000
queues/fan-out | --requests 100000 --leaves 100
batching/fixed-window | --duration_s 4000
batching/when-to-batch | --n 400000
batching/pareto | --grid_n 60000
batching/cpu-batch-measure | --mlp_hidden 700
EOF
)

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  ($(nproc) cores)"
printf '%-34s %-90s %8s %8s  %s\n' cell input seconds MiB outcome
while IFS='|' read -r cell flags; do
  cell=$(echo "$cell" | xargs)
  [ -z "$cell" ] && continue
  case "$cell" in \#*) continue ;; esac
  [ -n "$ONLY" ] && [[ "$cell" != "$ONLY"* ]] && continue
  flags=$(echo "$flags" | xargs)
  out=$(mktemp)
  # shellcheck disable=SC2086
  /usr/bin/time -f 'TIME %e %M' "$BIN" run "$cell" $flags --json >/dev/null 2>"$out"
  rc=$?
  read -r _ secs kib < <(grep '^TIME ' "$out" | tail -1)
  outcome=ok
  if [ "$rc" -ne 0 ]; then
    outcome="exit $rc: $(grep -m1 '^error:' "$out" | cut -c1-80)"
    grep -q 'too_large\|must be at most' "$out" && outcome="refused: $(grep -m1 '^error:' "$out" | cut -c8-80)"
  fi
  printf '%-34s %-90s %8s %8.0f  %s\n' "$cell" "${flags:0:90}" "$secs" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$outcome"
  rm -f "$out"
done <<< "$INPUTS"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
