// Cell llm/kv-growth. Figure 7 redrawn: the KV cache of B sequences of C tokens is
//   KV = 2 x layers x KV heads x head_dim x bytes x C x B,
// a straight line in C for each batch, against the memory left after the weights (the book: 80 − 35 = 45 GB).
// Batch B runs out of memory at C = budget / (KV per token x B): 4,291.5 tokens for B = 32 on Llama-3.1-70B.
// The GB/GiB switch reads the device and weight sizes, and draws the axis, in 10^9 B or in 2^30 B.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/units.h"
#include "llm/analytic_cells.h"
#include "llm/model/model_inputs.h"
#include "llm/model/step_time.h"

namespace sl::llm {
namespace {

using units::kGB;
using units::kGiB;
using units::kMB;
constexpr int kNumBatches = 4;

struct KvGrowthParams {
  ModelChoice model_choice;
  ModelSpec model;
  std::int64_t batches[kNumBatches] = {};
  std::int64_t max_context = 0;
  double unit_bytes = kGB;  ///< 1e9 or 2^30: how the device and weight sizes are read and the axis drawn
  double device = 0;        ///< in units of unit_bytes
  double weights = 0;
  double budget_bytes() const { return (device - weights) * unit_bytes; }
};

Result<KvGrowthParams> validate_kv_growth(const Inputs& in) {
  auto model = validate_model(in, llama31_70b());
  if (!model.ok()) return model.error();
  KvGrowthParams p;
  p.model_choice = model.value();
  p.model = p.model_choice.model;
  p.batches[0] = in.count("b1");
  p.batches[1] = in.count("b2");
  p.batches[2] = in.count("b3");
  p.batches[3] = in.count("b4");
  p.max_context = in.count("max_context");
  p.unit_bytes = in.choice("units") == "gib" ? kGiB : kGB;
  p.device = in.real("device");
  p.weights = in.real("weights_mem");
  const std::string unit = p.unit_bytes == kGiB ? "GiB" : "GB";
  if (p.weights >= p.device)
    return Error{"invalid", "weights_mem",
                 "weights_mem must be less than the device memory (" + format_number(p.device) + " " + unit +
                     "), got " + format_number(p.weights) + " " + unit,
                 {{"max", format_number(p.device)}, {"unit", unit}, {"got", format_number(p.weights)}, {"problem", "below_other"}, {"other", "device"}}};
  return p;
}

/// The lines of the figure, in long form (one row per batch and context), downsampled to max_points rows.
void add_curves(const KvGrowthParams& p, int max_points, RunResult& result) {
  const int per_curve = std::max(2, std::min(101, max_points / kNumBatches));
  const double kv = static_cast<double>(p.model.kv_bytes_per_token());
  std::vector<double> context, batch, size;
  for (std::int64_t b : p.batches) {
    for (int i = 0; i < per_curve; ++i) {
      const double c = static_cast<double>(p.max_context) * i / (per_curve - 1);
      context.push_back(c);
      batch.push_back(static_cast<double>(b));
      size.push_back(kv * c * static_cast<double>(b) / p.unit_bytes);
    }
  }
  result.table("kv").column("context_tok", context).column("batch", batch).column("kv", size);
  const double budget = p.budget_bytes() / p.unit_bytes;
  result.table("budget")
      .column("context_tok", {0.0, static_cast<double>(p.max_context)})
      .column("kv", {budget, budget});
  std::vector<double> cross_context, cross_batch, cross_kv;
  for (std::int64_t b : p.batches) {
    const double c = p.budget_bytes() / (kv * static_cast<double>(b));
    if (c > static_cast<double>(p.max_context)) continue;  // off the chart
    cross_context.push_back(c);
    cross_batch.push_back(static_cast<double>(b));
    cross_kv.push_back(budget);
  }
  result.table("crossings").column("context_tok", cross_context).column("batch", cross_batch).column("kv", cross_kv);
}

/// One row per curve: its batch, its slope (KV per token of context, all sequences together) and where it
/// meets the budget, on the chart or not.
void add_curve_table(const KvGrowthParams& p, RunResult& result) {
  const double kv = static_cast<double>(p.model.kv_bytes_per_token());
  std::vector<double> batch, slope_mb, cross_tok, batch_kv_at_max;
  for (std::int64_t b : p.batches) {
    batch.push_back(static_cast<double>(b));
    slope_mb.push_back(kv * static_cast<double>(b) / kMB);
    cross_tok.push_back(p.budget_bytes() / (kv * static_cast<double>(b)));
    batch_kv_at_max.push_back(kv * static_cast<double>(b) * static_cast<double>(p.max_context) / p.unit_bytes);
  }
  result.table("curves").column("batch", batch).column("slope_mb_per_tok", slope_mb).column("cross_tok", cross_tok)
      .column("kv_at_max_context", batch_kv_at_max);
}

Result<RunResult> run_kv_growth(const KvGrowthParams& p, std::uint64_t /*seed*/, RunControl& ctl) {
  RunResult result;
  note_ignored_custom_fields(p.model_choice, result);
  add_model_outputs(p.model_choice.model, result);

  const double kv = static_cast<double>(p.model.kv_bytes_per_token());
  result.output("kv_per_token_bytes", kv);
  result.output("kv_per_token_mb", kv / kMB);
  result.output("kv_per_token_mib", kv / units::kMiB);
  result.output("model_weight_gb", static_cast<double>(p.model.weight_bytes()) / kGB);
  result.output("budget_gb", p.budget_bytes() / kGB);
  result.output("budget_gib", p.budget_bytes() / kGiB);
  // Where each batch's line meets the budget (the book's figure marks B = 32: 4,291.5 tokens).
  const auto crossing_tok = [&](std::int64_t batch) { return p.budget_bytes() / (kv * static_cast<double>(batch)); };
  result.output("cross_b1_tok", crossing_tok(p.batches[0]));
  result.output("cross_b2_tok", crossing_tok(p.batches[1]));
  result.output("cross_b3_tok", crossing_tok(p.batches[2]));
  result.output("cross_b4_tok", crossing_tok(p.batches[3]));
  // The footnote's example: 32 requests at 8,000 tokens of context.
  result.output("kv_32x8k_gb", kv * 32 * 8000 / kGB);
  result.output("kv_32x8k_gib", kv * 32 * 8000 / kGiB);

  add_curves(p, ctl.max_points, result);
  add_curve_table(p, result);
  return result;
}

}  // namespace

CellSpec kv_growth_cell() {
  std::vector<ParamSpec> params = model_params(llama31_70b());
  params.push_back(count("b1", "sequences", 1, 1, 100'000));
  params.push_back(count("b2", "sequences", 4, 1, 100'000));
  params.push_back(count("b3", "sequences", 16, 1, 100'000));
  params.push_back(explored(count("b4", "sequences", 32, 1, 100'000), 1, 1024));
  params.push_back(explored(count("max_context", "tokens", 32'000, 100, 10'000'000), 1000, 1'000'000));
  params.push_back(real("device", "GB or GiB", 80, 0.001, 100'000));
  params.push_back(explored(real("weights_mem", "GB or GiB", 35, 0, 100'000), 0, 75));
  params.push_back(choice("units", {"gb", "gib"}, "gb"));
  CellSpec cell = checked_cell<&validate_kv_growth, &run_kv_growth>("llm/kv-growth", std::move(params));
  cell.presets = presets_of({{"llama-8b-24gb", "model=llama3.1-8b device=24 weights_mem=16 max_context=8000"}});
  cell.uses_seed = false;
  cell.outputs = outputs({"kv_per_token_bytes", "kv_per_token_mb", "kv_per_token_mib", "model_weight_gb", "budget_gb",
                  "budget_gib", out("cross_b1_tok", "tokens"), out("cross_b2_tok", "tokens"),
                  out("cross_b3_tok", "tokens"), out("cross_b4_tok", "tokens"), "kv_32x8k_gb", "kv_32x8k_gib"});
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("kv"), table("budget"), table("crossings"), table("curves")};
  return cell;
}

}  // namespace sl::llm
