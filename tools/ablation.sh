#!/bin/sh
# The ablation table of llm/validation (docs/fidelity.md): the leave-one-out median errors with every mechanism on,
# then with each switched off in turn (every source's knobs refitted without it), and last with the expert layers'
# own efficiency fitted as well (off in the cell's default run). One native run a row, ~5 s each.
# Usage: tools/ablation.sh [path to serving-lab] [--seed N]   (default: build/native/serving-lab, seed 1)
set -eu
cli=${1:-build/native/serving-lab}
shift 2>/dev/null || true
printf '%-26s %8s %8s %8s %8s %8s\n' switch_off ttft itl e2e e2e_p99 tok/s
for m in none layer_tax_every_step host_time request_overhead short_step_efficiency cuda_graph_padding collectives \
         low_precision_efficiency lm_head_and_embedding attention_roofline first_text_lag +expert_efficiency; do
  case "$m" in
    +expert_efficiency) args="--expert_efficiency fitted" ;;
    *) args="--switch_off $m" ;;
  esac
  # shellcheck disable=SC2086
  "$cli" run llm/validation $args "$@" --json 2>/dev/null | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const o = JSON.parse(s).outputs;
      const f = (k) => (o[k] === undefined ? "-" : o[k].toFixed(1)).padStart(8);
      console.log(process.argv[1].padEnd(26), f("ttft_median_err_pct"), f("itl_median_err_pct"), f("e2e_median_err_pct"),
                  f("e2e_p99_median_err_pct"), f("throughput_median_err_pct"));
    });' "$m"
done
