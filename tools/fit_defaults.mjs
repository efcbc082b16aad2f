#!/usr/bin/env node
// Writes the numbers of src/llm/engine/vllm_fit.cpp, the engine cells' default step model (step_model = fitted), from
// llm/validation's fit at its defaults: node tools/fit_defaults.mjs [SERVING_LAB_BIN]
// (default build/native/serving-lab; rebuild after, then the refit test, tests/unit/llm/calibration/
// vllm_fit_test.cpp, checks that the file is the fit). The offered fit is the first source's, inference-sim's vLLM
// runs on H100: its knobs (the `knobs` table's `fitted` column; times shown in ms) and its held-out median errors
// (the `sources` table). The client's first-text lag (knob 9) is how inference-perf timed those runs, not a term
// of the server's steps, so the engine cells leave it out.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.argv[2] ?? join(root, 'build/native/serving-lab');
const result = JSON.parse(execFileSync(bin, ['run', 'llm/validation', '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const { knobs, sources } = result.tables;
const SOURCE = 0;  // inference-sim (vLLM): the fit the page offers (validation_cell.cpp: fits.front())
const row = sources.source.indexOf(SOURCE);
if (row !== 0) throw new Error(`llm/validation's first source is ${sources.source[0]}, not ${SOURCE}: update this tool`);
const fitted = (knob) => {
  const i = knobs.source.findIndex((s, k) => s === SOURCE && knobs.knob[k] === knob);
  if (i < 0) throw new Error(`no knob ${knob} for source ${SOURCE}`);
  return knobs.fitted[i];
};
const MS = [2, 3, 4, 5];  // shown in ms, stored in seconds
const value = (knob) => (MS.includes(knob) ? fitted(knob) / 1000 : fitted(knob));
const err = (column) => `${sources[column][row]}`;
const names = ['compute_efficiency', 'bandwidth_efficiency', 'layer_tax_s', 'dispatch_tax_s', 'step_host_s',
  'request_overhead_s', 'half_efficiency_tokens', 'low_precision_efficiency', 'expert_efficiency'];
// The values go between the file's two marker lines; the code around them is the file's own, edited by hand.
const values = [
  `    f.runs = ${sources.points[row]};`,
  `    f.ttft_err_pct = ${err('ttft_median_err_pct')};`,
  `    f.itl_err_pct = ${err('itl_median_err_pct')};`,
  `    f.e2e_err_pct = ${err('e2e_median_err_pct')};`,
  `    f.e2e_p99_err_pct = ${err('e2e_p99_median_err_pct')};`,
  `    f.throughput_err_pct = ${err('throughput_median_err_pct')};`,
  ...names.map((name, knob) => `    f.knobs.${name} = ${value(knob)};`),
];
const out = join(root, 'src/llm/engine/vllm_fit.cpp');
const BEGIN = '    // fit_defaults.mjs: begin\n', END = '    // fit_defaults.mjs: end\n';
const before = readFileSync(out, 'utf8');
const from = before.indexOf(BEGIN), to = before.indexOf(END);
if (from < 0 || to < from) throw new Error(`${out} has lost its marker lines: restore them from git`);
writeFileSync(out, before.slice(0, from + BEGIN.length) + values.join('\n') + '\n' + before.slice(to));
console.log(`wrote ${out}: ${sources.points[row]} runs, efficiency ${value(0)}, bandwidth ${value(1)}`);
