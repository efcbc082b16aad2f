// The published serving measurements (labs/llm/measured/*.json): each file checked against
// labs/schema/measured.schema.json (ajv; an error names the file and the line), and all of them written as the C++
// table src/llm/calibration/measured_points.h declares, so llm/validation reads the same points natively and in
// wasm without parsing JSON at run time. Unknown values (null) become -1 or "", as the header says.
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

/** One point as a row of the generated table (its measured values go to the values table from `first`). */
function point_row(source, p, first) {
  const { model: m, gpu: g, server: s, workload: w } = p;
  const reuse = w.prompt_reuse ?? { distinct_prompts: 0, groups: 0, system_prompt_tokens: 0 };
  const shared = w.shared_prefix === null ? -1 : w.shared_prefix === false ? 0 : 1;
  return `    {${text(source.id)}, ${text(p.id)}, ${text(p.engine)}, ${text(m.name)}, ${num(m.params_b)},
     ${int(m.layers)}, ${int(m.heads)}, ${int(m.kv_heads)}, ${int(m.head_dim)}, ${text(m.preset)},
     ${int(m.hidden_size)}, ${int(m.intermediate_size)}, ${int(m.vocab_size)}, ${tri(m.tie_embeddings)},
     ${int(m.num_experts)}, ${int(m.experts_per_token)}, ${int(m.moe_intermediate_size)}, ${int(m.num_shared_experts)},
     ${text(p.weights)}, ${text(p.kv)}, ${text(g.sku)}, ${int(g.tp)}, ${int(g.pp)},
     ${int(s.max_num_seqs)}, ${int(s.max_num_batched_tokens)}, ${int(s.block_size)}, ${int(s.max_model_len)},
     ${int(s.num_scheduler_steps)}, ${tri(s.chunked_prefill)}, ${tri(s.prefix_caching)}, ${num(s.gpu_memory_utilization)},
     ${text(w.arrival)}, ${num(w.rate_per_s)}, ${int(w.max_concurrency)}, ${int(w.batch_size)}, ${int(w.num_prompts)},
     ${num(w.input_tokens.mean)}, ${w.input_tokens.fixed}, ${num(w.output_tokens.mean)}, ${w.output_tokens.fixed},
     ${int(w.max_tokens)}, ${tri(w.ignore_eos)}, ${shared}, ${reuse.distinct_prompts}, ${reuse.groups},
     ${reuse.system_prompt_tokens}, ${first}, ${Object.keys(p.measured).length}},`;
}

/**
 * The C++ source of measured_points(): one table row per point and one table of every measured value, turned into
 * MeasuredPoint objects by one loop (a row's fields in the struct's order). A table, not a block of assignments per
 * point: the module is 35 kB smaller to compile (brotli packs either form to about the same bytes on the wire).
 */
export function measured_points_cpp(files) {
  const rows = [];
  const values = [];
  for (const f of files)
    for (const p of f.points) {
      rows.push(point_row(f.source, p, values.length));
      for (const [k, v] of Object.entries(p.measured)) values.push(`    {${cpp_string(k)}, ${num(v)}},`);
    }
  return `// Generated from labs/llm/measured/ by scripts/labs/measured.mjs. Do not edit.
#include "llm/calibration/measured_points.h"

#include <cstdint>

namespace sl::llm {
namespace {

struct Row {
  const char *source, *id, *engine, *model_name;
  double params_b;
  std::int64_t layers, heads, kv_heads, head_dim;
  const char* preset;
  std::int64_t hidden_size, intermediate_size, vocab_size;
  int tie_embeddings;
  std::int64_t num_experts, experts_per_token, moe_intermediate_size, num_shared_experts;
  const char *weights, *kv, *gpu_sku;
  std::int64_t tp, pp, max_num_seqs, max_num_batched_tokens, block_size, max_model_len, num_scheduler_steps;
  int chunked_prefill, prefix_caching;
  double gpu_memory_utilization;
  const char* arrival;
  double rate_per_s;
  std::int64_t max_concurrency, batch_size, num_prompts;
  double input_mean;
  bool input_fixed;
  double output_mean;
  bool output_fixed;
  std::int64_t max_tokens;
  int ignore_eos, has_shared_prefix;
  std::int64_t reuse_distinct_prompts, reuse_groups, reuse_system_prompt_tokens;
  int first_value, num_values;
};

struct Value {
  const char* key;
  double value;
};

const Value kValues[] = {
${values.join('\n')}
};

const Row kRows[] = {
${rows.join('\n')}
};

}  // namespace

const std::vector<MeasuredPoint>& measured_points() {
  static const std::vector<MeasuredPoint> all = [] {
    std::vector<MeasuredPoint> points;
    for (const Row& r : kRows) {
      MeasuredPoint p;
      p.source = r.source; p.id = r.id; p.engine = r.engine; p.model_name = r.model_name; p.params_b = r.params_b;
      p.layers = r.layers; p.heads = r.heads; p.kv_heads = r.kv_heads; p.head_dim = r.head_dim; p.preset = r.preset;
      p.hidden_size = r.hidden_size; p.intermediate_size = r.intermediate_size; p.vocab_size = r.vocab_size;
      p.tie_embeddings = r.tie_embeddings; p.num_experts = r.num_experts; p.experts_per_token = r.experts_per_token;
      p.moe_intermediate_size = r.moe_intermediate_size; p.num_shared_experts = r.num_shared_experts;
      p.weights = r.weights; p.kv = r.kv; p.gpu_sku = r.gpu_sku; p.tp = r.tp; p.pp = r.pp;
      p.max_num_seqs = r.max_num_seqs; p.max_num_batched_tokens = r.max_num_batched_tokens; p.block_size = r.block_size;
      p.max_model_len = r.max_model_len; p.num_scheduler_steps = r.num_scheduler_steps;
      p.chunked_prefill = r.chunked_prefill; p.prefix_caching = r.prefix_caching;
      p.gpu_memory_utilization = r.gpu_memory_utilization; p.arrival = r.arrival; p.rate_per_s = r.rate_per_s;
      p.max_concurrency = r.max_concurrency; p.batch_size = r.batch_size; p.num_prompts = r.num_prompts;
      p.input_mean = r.input_mean; p.input_fixed = r.input_fixed; p.output_mean = r.output_mean;
      p.output_fixed = r.output_fixed; p.max_tokens = r.max_tokens; p.ignore_eos = r.ignore_eos;
      p.has_shared_prefix = r.has_shared_prefix; p.reuse_distinct_prompts = r.reuse_distinct_prompts;
      p.reuse_groups = r.reuse_groups; p.reuse_system_prompt_tokens = r.reuse_system_prompt_tokens;
      for (int i = r.first_value; i < r.first_value + r.num_values; ++i) p.measured.emplace_back(kValues[i].key, kValues[i].value);
      points.push_back(std::move(p));
    }
    return points;
  }();
  return all;
}

}  // namespace sl::llm
`;
}
