// Cell llm/llama3-8b-case. The book's Llama-3-8B-on-one-H100 case study (§6, §21) as a calculator:
//   floor  = weight bytes / HBM bandwidth (eq. 18);
//   TTFT   = (2 P S + 4 L H d S^2) / (peak x efficiency) + dispatch tax   (prefill of the S-token prompt);
//   TPOT   = (weights + KV of the whole request) / bandwidth + layers x layer tax   (batch-1 decode);
//   KV     = 2 L H_kv d x bytes per token; the reserve holds reserve / KV tokens, so floor(tokens / request)
//            requests; throughput = min(prefill rate / prompt, requests resident / request time), and
//            $ per million tokens = hourly price / tokens per hour.
// A GB/GiB table reads each memory figure both ways and says which reading rounds to the book's figure.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/units.h"
#include "llm/analytic_cells.h"
#include "llm/model/kv_memory.h"
#include "llm/model/model_inputs.h"
#include "llm/model/step_time.h"

namespace sl::llm {
namespace {

using units::kGB;
using units::kGiB;
using units::kMB;
using units::kMiB;
using units::kSPerHour;

struct Llama3CaseParams : ModelAndGpu {
  std::int64_t prompt_tokens = 0;
  std::int64_t output_tokens = 0;
  double kv_reserve_label = 0;  ///< the reserve as typed, read as GiB like the book's code
  double kv_reserve_bytes = 0;  ///< the same in bytes (kv_memory.h)
  double prefill_tok_per_s = 0;
  double price_usd_per_h = 0;
  std::int64_t request_tokens() const { return prompt_tokens + output_tokens; }
};

Result<Llama3CaseParams> validate_llama3_8b_case(const Inputs& in) {
  auto choices = validate_model_and_gpu(in);
  if (!choices.ok()) return choices.error();
  Llama3CaseParams p{choices.value()};
  p.prompt_tokens = in.count("prompt");
  p.output_tokens = in.count("output");
  p.kv_reserve_label = in.real("kv_reserve_gib");
  p.prefill_tok_per_s = in.real("prefill_tok_per_s");
  p.price_usd_per_h = in.real("price_usd_per_h");
  if (auto e = check_weights_fit(p.model, p.gpu)) return *e;
  auto reserve = validate_kv_reserve(p.model, p.gpu, p.kv_reserve_label);
  if (!reserve.ok()) return reserve.error();
  p.kv_reserve_bytes = reserve.value();
  const double request_kv = static_cast<double>(p.model.kv_bytes_per_token() * p.request_tokens());
  if (request_kv > p.kv_reserve_bytes)
    return too_large("prompt", request_kv / kGiB, p.kv_reserve_label, "GiB",
                     "the KV cache of one request of " + std::to_string(p.request_tokens()) +
                         " tokens (prompt + output, within kv_reserve_gib)");
  return p;
}

/// One row of the GB/GiB table: a figure read both ways beside the book's printed value.
struct UnitRow {
  double as_decimal;  ///< GB, MB or million tokens under the decimal reading
  double as_binary;   ///< the same under the binary reading
  double book;        ///< the book's printed figure (§21)
  double half_ulp;    ///< half a unit of the book's last printed digit
};

void add_unit_table(const Llama3CaseParams& p, RunResult& result) {
  const double weights = static_cast<double>(p.model.weight_bytes());
  const double memory = static_cast<double>(p.gpu.memory_bytes);
  const double kv = static_cast<double>(p.model.kv_bytes_per_token());
  const double tokens_gb = std::round(p.kv_reserve_label * kGB / kv);
  const double tokens_gib = std::round(p.kv_reserve_label * kGiB / kv);
  const double request = static_cast<double>(p.request_tokens());
  const UnitRow rows[] = {
      {weights / kGB, weights / kGiB, 4.0, 0.05},                       // weights "4.0 GB"
      {memory / kGB, memory / kGiB, 80, 0.5},                           // H100 "80 GB HBM3"
      {(memory - weights) / kGB, (memory - weights) / kGiB, 76.3, 0.05},  // left for KV "~76.3 GB"
      {kv / kMB, kv / kMiB, 0.131, 0.0005},                             // KV per token "0.131 MB"
      {tokens_gb * 1e-6, tokens_gib * 1e-6, 0.6, 0.05},                 // reserve "72 GB" → "≈ 0.6 million tokens"
      {std::floor(tokens_gb / request), std::floor(tokens_gib / request), 469, 0.5},  // "~469 requests"
  };
  std::vector<double> item, reading, value, match;
  for (int i = 0; i < static_cast<int>(std::size(rows)); ++i) {
    const UnitRow& r = rows[i];
    const double xs[] = {r.as_decimal, r.as_binary, r.book};
    for (int k = 0; k < 3; ++k) {
      item.push_back(i);
      reading.push_back(k);  // 0 decimal, 1 binary, 2 the book
      value.push_back(xs[k]);
      match.push_back(k == 2 ? 2.0 : (std::fabs(xs[k] - r.book) < r.half_ulp ? 1.0 : 0.0));
    }
  }
  result.table("gb_gib").column("item", item).column("reading", reading).column("value", value).column("match", match);
}

/// Where the request's time goes, one row per part: 0 prefill (TTFT), then the decode steps' roofline time split
/// between 1 reading the weights and 2 reading the KV cache (in proportion to the bytes a step reads: an MoE's
/// step reads only the experts its token is routed to), and 3 the framework tax.
void add_request_time_table(const StepTime& ttft, const StepTime& tpot, std::int64_t output_tokens, RunResult& result) {
  const double n = static_cast<double>(output_tokens);
  const double roof_s = n * (tpot.total_s - tpot.overhead_s);
  const double weight_s = roof_s * (tpot.bytes - tpot.kv_bytes) / tpot.bytes;
  const double parts_s[] = {ttft.total_s, weight_s, roof_s - weight_s, n * tpot.overhead_s};
  std::vector<double> part, ms;
  for (int k = 0; k < static_cast<int>(std::size(parts_s)); ++k) {
    part.push_back(k);
    ms.push_back(parts_s[k] * units::kMsPerS);
  }
  result.table("request_time").column("part", part).column("ms", ms);
}

Result<RunResult> run_llama3_8b_case(const Llama3CaseParams& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  const ModelSpec& m = p.model;
  const GpuSpec& g = p.gpu;
  RunResult result;
  note_ignored_custom_fields(p, result);
  add_model_outputs(p.model, result);

  // Eq. 18: the batch-1 decode floor is one full read of the weights; a mixture of experts reads only the
  // experts one token is routed to (and every shared weight), as the step model counts them.
  const double weights = static_cast<double>(m.weight_bytes());
  double floor_bytes = weights;
  if (m.is_moe()) {
    StepWork one_token;
    one_token.num_decode_seqs = 1;
    const StepTime b1 = step_time(m, g, one_token);
    floor_bytes = b1.bytes - b1.kv_bytes;
  }
  result.output("weight_gb", weights / kGB);
  result.output("weight_gib", weights / kGiB);
  result.output("floor_ms", floor_bytes / g.hbm_bytes_per_s * units::kMsPerS);
  result.output("floor_tok_per_s", g.hbm_bytes_per_s / floor_bytes);
  result.output("floor_a100_ms", floor_bytes / a100().hbm_bytes_per_s * units::kMsPerS);
  result.output("intensity_flop_per_byte", 2.0 / m.bytes_per_weight);
  result.output("ridge_flop_per_byte", g.peak_flop_per_s / g.hbm_bytes_per_s);

  // Prefill (TTFT) and decode (TPOT) from the roofline step model.
  StepWork prefill;
  prefill.num_prefill_tokens = p.prompt_tokens;
  prefill.num_prefill_chunks = 1;
  prefill.prefill_attention_pairs = prefill_attention_pairs(0, p.prompt_tokens);
  const StepTime ttft = step_time(m, g, prefill);
  StepWork decode;
  decode.num_decode_seqs = 1;
  decode.decode_context_tokens = p.request_tokens();  // the book charges the whole request's KV every step
  const StepTime tpot = step_time(m, g, decode);
  const double decode_s = static_cast<double>(p.output_tokens) * tpot.total_s;
  const double request_s = ttft.total_s + decode_s;
  result.output("prefill_tflop", ttft.flop * 1e-12);
  result.output("ttft_ms", ttft.total_s * units::kMsPerS);
  result.output("prefill_model_tok_per_s", static_cast<double>(p.prompt_tokens) / ttft.total_s);
  result.output("tpot_ms", tpot.total_s * units::kMsPerS);
  result.output("tpot_tax_ms", tpot.overhead_s * units::kMsPerS);
  result.output("decode_s", decode_s);
  result.output("request_s", request_s);
  add_request_time_table(ttft, tpot, p.output_tokens, result);

  // KV capacity: the reserve (read as GiB, as the book's code does) over the bytes one token keeps.
  const std::int64_t kv = m.kv_bytes_per_token();
  const double memory = static_cast<double>(g.memory_bytes);
  const std::int64_t kv_tokens = kv_token_capacity(m, p.kv_reserve_bytes);
  const std::int64_t concurrent = max_resident_sequences(m, p.kv_reserve_bytes, p.request_tokens());
  result.output("kv_per_token_bytes", static_cast<double>(kv));
  result.output("kv_per_token_mb", static_cast<double>(kv) / kMB);
  result.output("kv_per_request_mb", static_cast<double>(kv * p.request_tokens()) / kMB);
  result.output("remaining_vram_gib", (memory - weights) / kGiB);
  result.output("remaining_vram_gb", (memory - weights) / kGB);
  result.output("kv_tokens", static_cast<double>(kv_tokens));
  result.output("kv_tokens_million", static_cast<double>(kv_tokens) * 1e-6);
  result.output("concurrent_requests", static_cast<double>(concurrent));

  // Unit economics. The book's request time uses TTFT of the whole 1,256 tokens (53.1 ms); we use the
  // prompt's TTFT. Either way the prefill bound (10 req/s) is the smaller one at the defaults.
  const double prefill_req_per_s = p.prefill_tok_per_s / static_cast<double>(p.prompt_tokens);
  const double decode_req_per_s = static_cast<double>(concurrent) / request_s;
  const double serving_req_per_s = std::min(prefill_req_per_s, decode_req_per_s);
  const double tokens_per_h = serving_req_per_s * kSPerHour * static_cast<double>(p.request_tokens());
  result.output("prefill_req_per_s", prefill_req_per_s);
  result.output("decode_req_per_s", decode_req_per_s);
  result.output("serving_req_per_s", serving_req_per_s);
  result.output("tokens_per_h_million", tokens_per_h * 1e-6);
  result.output("usd_per_m_tokens", p.price_usd_per_h / (tokens_per_h * 1e-6));

  add_unit_table(p, result);
  return result;
}

}  // namespace

CellSpec llama3_8b_case_cell() {
  std::vector<ParamSpec> params = model_and_gpu_params();
  params.push_back(explored(count("prompt", "tokens", 1000, 1, 1'000'000), 10, 100'000));
  params.push_back(explored(count("output", "tokens", 256, 1, 1'000'000), 1, 10'000));
  params.push_back(kv_reserve_param());
  params.push_back(explored(aliased(real("prefill_tok_per_s", "tokens/s", 10'000, 1, 1e9), {"prefill_tok_s"}), 1000, 100'000));
  params.push_back(aliased(real("price_usd_per_h", "$/h", 3.0, 0, 10'000), {"price_usd_h"}));
  CellSpec cell = checked_cell<&validate_llama3_8b_case, &run_llama3_8b_case>("llm/llama3-8b-case", std::move(params));
  cell.presets = presets_of({{"llama-70b-h200", "model=llama3.1-70b gpu=h200"},
                             {"llama-8b-fp16-a100", "model=llama3.1-8b gpu=a100 weights=fp16 kv_reserve_gib=40"}});
  cell.uses_seed = false;
  cell.outputs = outputs({"weight_gb", "weight_gib", "floor_ms", "floor_tok_per_s", "floor_a100_ms", "intensity_flop_per_byte",
                  "ridge_flop_per_byte", "prefill_tflop", "ttft_ms", "prefill_model_tok_per_s", "tpot_ms",
                  "tpot_tax_ms", "decode_s", "request_s", "kv_per_token_bytes", "kv_per_token_mb", "kv_per_request_mb",
                  "remaining_vram_gib", "remaining_vram_gb", "kv_tokens", "kv_tokens_million", "concurrent_requests",
                  "prefill_req_per_s", "decode_req_per_s", "serving_req_per_s", "tokens_per_h_million",
                  out("usd_per_m_tokens", "$")});
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("gb_gib"), table("request_time")};
  return cell;
}

}  // namespace sl::llm
