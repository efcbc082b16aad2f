#!/bin/sh
# The ablation table of llm/validation (docs/fidelity.md): the leave-one-out median errors with every mechanism on,
# then with each switched off in turn (every source's knobs refitted without it). One native run a row, ~3 s each.
# Usage: tools/ablation.sh [path to serving-lab]   (default: build/native/serving-lab)
set -eu
cli=${1:-build/native/serving-lab}
printf '%-26s %8s %8s %8s %8s %8s\n' switch_off ttft itl e2e e2e_p99 tok/s
for m in none layer_tax_every_step host_time request_overhead short_step_efficiency cuda_graph_padding collectives \
         low_precision_efficiency lm_head_and_embedding attention_roofline; do
  "$cli" run llm/validation --switch_off "$m" --json 2>/dev/null | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const o = JSON.parse(s).outputs;
      const f = (k) => (o[k] === undefined ? "-" : o[k].toFixed(1)).padStart(8);
      console.log(process.argv[1].padEnd(26), f("ttft_median_err_pct"), f("itl_median_err_pct"), f("e2e_median_err_pct"),
                  f("e2e_p99_median_err_pct"), f("throughput_median_err_pct"));
    });' "$m"
done
