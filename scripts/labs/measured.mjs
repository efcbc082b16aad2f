// The published serving measurements (labs/llm/measured/*.json): each file checked against
// labs/schema/measured.schema.json (ajv; an error names the file and the line), and all of them written as the C++
// table src/llm/measured_points.h declares, so llm/validation reads the same points natively and in wasm without
// parsing JSON at run time. Unknown values (null) become -1 or "", as the header says.
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import { LABS_DIR, ROOT, SCHEMA_DIR_NAME, json_names } from './paths.mjs';
import { line_of } from './load.mjs';

export const MEASURED_DIR = join(LABS_DIR, 'llm', 'measured');

/** Every measured file, checked: [{file, source, points}] in file-name order. Throws listing every problem. */
export async function load_measured(dir = MEASURED_DIR) {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  const validate = ajv.compile(JSON.parse(await readFile(join(LABS_DIR, SCHEMA_DIR_NAME, 'measured.schema.json'), 'utf8')));
  const errors = [];
  const files = [];
  const ids = new Map();
  for (const name of await json_names(dir)) {
    const path = join(dir, name);
    const where = relative(ROOT, path);
    const text = await readFile(path, 'utf8');
    let value;
    try { value = JSON.parse(text); } catch (error) { errors.push(`${where}: ${error.message}`); continue; }
    if (!validate(value)) {
      for (const e of validate.errors) errors.push(`${where}:${line_of(text, e.instancePath)}: ${e.instancePath || '/'} ${e.message}`);
      continue;
    }
    for (const [i, point] of value.points.entries()) {
      if (ids.has(point.id)) errors.push(`${where}:${line_of(text, `/points/${i}/id`)}: point id "${point.id}" also in ${ids.get(point.id)}`);
      ids.set(point.id, where);
    }
    files.push({ file: name, source: value.source, points: value.points });
  }
  if (errors.length) throw new Error(`the measured files have ${errors.length} problem(s):\n  ${errors.join('\n  ')}`);
  return files;
}

function cpp_string(text) {
  if (text.includes(')sl"')) throw new Error(`text contains the raw-literal delimiter: ${text}`);
  return `R"sl(${text})sl"`;
}

/** A number for C++ (null: -1), written so that it reads back to the same double. */
function num(value) {
  if (value === null || value === undefined) return '-1.0';
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? `${value}.0` : String(value);
}

function int(value) { return value === null || value === undefined ? '-1' : String(value); }
function tri(value) { return value === null || value === undefined ? '-1' : value ? '1' : '0'; }
function text(value) { return cpp_string(value ?? ''); }

function point_cpp(source, p) {
  const { model: m, gpu: g, server: s, workload: w } = p;
  const reuse = w.prompt_reuse ?? { distinct_prompts: 0, groups: 0, system_prompt_tokens: 0 };
  const shared = w.shared_prefix === null ? -1 : w.shared_prefix === false ? 0 : 1;
  const measured = Object.entries(p.measured).map(([k, v]) => `{${cpp_string(k)}, ${num(v)}}`).join(', ');
  return `  {
    MeasuredPoint p;
    p.source = ${text(source.id)}; p.id = ${text(p.id)}; p.engine = ${text(p.engine)};
    p.model_name = ${text(m.name)}; p.params_b = ${num(m.params_b)};
    p.layers = ${int(m.layers)}; p.heads = ${int(m.heads)}; p.kv_heads = ${int(m.kv_heads)}; p.head_dim = ${int(m.head_dim)};
    p.preset = ${text(m.preset)}; p.hidden_size = ${int(m.hidden_size)}; p.intermediate_size = ${int(m.intermediate_size)};
    p.vocab_size = ${int(m.vocab_size)}; p.tie_embeddings = ${tri(m.tie_embeddings)};
    p.num_experts = ${int(m.num_experts)}; p.experts_per_token = ${int(m.experts_per_token)};
    p.moe_intermediate_size = ${int(m.moe_intermediate_size)}; p.num_shared_experts = ${int(m.num_shared_experts)};
    p.weights = ${text(p.weights)}; p.kv = ${text(p.kv)}; p.gpu_sku = ${text(g.sku)}; p.tp = ${int(g.tp)}; p.pp = ${int(g.pp)};
    p.max_num_seqs = ${int(s.max_num_seqs)}; p.max_num_batched_tokens = ${int(s.max_num_batched_tokens)};
    p.block_size = ${int(s.block_size)}; p.max_model_len = ${int(s.max_model_len)}; p.num_scheduler_steps = ${int(s.num_scheduler_steps)};
    p.chunked_prefill = ${tri(s.chunked_prefill)}; p.prefix_caching = ${tri(s.prefix_caching)};
    p.gpu_memory_utilization = ${num(s.gpu_memory_utilization)};
    p.arrival = ${text(w.arrival)}; p.rate_per_s = ${num(w.rate_per_s)}; p.max_concurrency = ${int(w.max_concurrency)};
    p.batch_size = ${int(w.batch_size)}; p.num_prompts = ${int(w.num_prompts)};
    p.input_mean = ${num(w.input_tokens.mean)}; p.input_fixed = ${w.input_tokens.fixed};
    p.output_mean = ${num(w.output_tokens.mean)}; p.output_fixed = ${w.output_tokens.fixed};
    p.has_shared_prefix = ${shared}; p.reuse_distinct_prompts = ${reuse.distinct_prompts};
    p.reuse_groups = ${reuse.groups}; p.reuse_system_prompt_tokens = ${reuse.system_prompt_tokens};
    p.measured = {${measured}};
    points.push_back(std::move(p));
  }`;
}

/** The C++ source of measured_points(). */
export function measured_points_cpp(files) {
  const blocks = files.flatMap((f) => f.points.map((p) => point_cpp(f.source, p)));
  return `// Generated from labs/llm/measured/ by scripts/labs/measured.mjs. Do not edit.
#include "llm/measured_points.h"

namespace sl::llm {

const std::vector<MeasuredPoint>& measured_points() {
  static const std::vector<MeasuredPoint> all = [] {
    std::vector<MeasuredPoint> points;
${blocks.join('\n')}
    return points;
  }();
  return all;
}

}  // namespace sl::llm
`;
}
