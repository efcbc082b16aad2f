#include "cli/presets.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/units.h"
#include "llm/model/model_architecture.h"
#include "llm/model/model_inputs.h"

namespace sl::cli {
namespace {

using units::kGiB;
using units::kGiga;  // a billion parameters; GB/s of a link
using units::kTera;

/// A number with `digits` after the point ("8.03"), for the text tables.
std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

/// What the cells compute with for a preset (at FP16 weights and KV): counted from its architecture, or the
/// book's counts for the book's two.
llm::ModelSpec spec_of(const llm::ModelPreset& p) { return llm::preset_model_spec(p, 2.0, 2.0); }

}  // namespace

std::string presets_text() {
  std::string out = "models (--model <id>; counts as the cells compute them, at FP16)\n  " +
                    pad("id", 18) + pad("total B", 9) + pad("active B", 10) + pad("layers", 7) + pad("hidden", 7) +
                    pad("heads/kv", 9) + pad("experts", 8) + "KV B/token  config\n";
  for (const auto& p : llm::model_presets()) {
    const llm::ModelSpec m = spec_of(p);
    const std::string experts = p.arch.is_moe() ? std::to_string(p.arch.experts_per_token) + "/" +
                                                      std::to_string(p.arch.num_experts)
                                                : "-";
    out += "  " + pad(p.id, 18) + pad(fixed(static_cast<double>(m.params) / kGiga, 2), 9) +
           pad(fixed(static_cast<double>(m.active_param_count()) / kGiga, 2), 10) + pad(std::to_string(p.arch.num_layers), 7) +
           pad(std::to_string(p.arch.hidden_size), 7) +
           pad(std::to_string(p.arch.num_heads) + "/" + std::to_string(p.arch.num_kv_heads), 9) + pad(experts, 8) +
           pad(std::to_string(m.kv_bytes_per_token()), 12) + p.config_source + "\n";
  }
  out += "\ngpus (--gpu <id>; dense tensor peaks)\n  " + pad("id", 11) + pad("FP16 TF", 8) + pad("FP8 TF", 8) +
         pad("FP4 TF", 8) + pad("HBM TB/s", 9) + pad("GiB", 6) + pad("link GB/s", 10) + pad("W", 6) +
         pad("$/h", 6) + "source\n";
  for (const auto& p : llm::gpu_presets()) {
    const llm::GpuSpec& g = p.spec;
    const auto tf = [](double flops) { return flops > 0 ? fixed(flops / kTera, 0) : std::string("-"); };
    out += "  " + pad(p.id, 11) + pad(tf(g.peak_flop_per_s), 8) + pad(tf(g.peak_fp8_flop_per_s), 8) +
           pad(tf(g.peak_fp4_flop_per_s), 8) + pad(fixed(g.hbm_bytes_per_s / kTera, 2), 9) +
           pad(fixed(static_cast<double>(g.memory_bytes) / kGiB, 0), 6) +
           pad(g.link_bytes_per_s > 0 ? fixed(g.link_bytes_per_s / kGiga, 0) : "-", 10) +
           pad(fixed(g.tdp_w, 0), 6) + pad(g.price_usd_per_h > 0 ? fixed(g.price_usd_per_h, 2) : "-", 6) + p.source +
           "\n";
  }
  return out;
}

std::string presets_json() {
  nlohmann::ordered_json models = nlohmann::ordered_json::array(), gpus = nlohmann::ordered_json::array();
  for (const auto& p : llm::model_presets()) {
    const llm::ModelSpec m = spec_of(p);
    models.push_back({{"id", p.id},
                      {"params", m.params},
                      {"active_params", m.active_param_count()},
                      {"published_params_b", p.published_params_b},
                      {"published_active_b", p.published_active_b},
                      {"layers", p.arch.num_layers},
                      {"hidden_size", p.arch.hidden_size},
                      {"heads", p.arch.num_heads},
                      {"kv_heads", p.arch.num_kv_heads},
                      {"experts", p.arch.num_experts},
                      {"experts_per_token", p.arch.experts_per_token},
                      {"kv_bytes_per_token_fp16", m.kv_bytes_per_token()},
                      {"config_source", p.config_source},
                      {"params_source", p.params_source}});
  }
  for (const auto& p : llm::gpu_presets()) {
    const llm::GpuSpec& g = p.spec;
    gpus.push_back({{"id", p.id},
                    {"peak_fp16_flop_per_s", g.peak_flop_per_s},
                    {"peak_fp8_flop_per_s", g.peak_fp8_flop_per_s},
                    {"peak_fp4_flop_per_s", g.peak_fp4_flop_per_s},
                    {"hbm_bytes_per_s", g.hbm_bytes_per_s},
                    {"memory_bytes", g.memory_bytes},
                    {"link_bytes_per_s", g.link_bytes_per_s},
                    {"tdp_w", g.tdp_w},
                    {"price_usd_per_h", g.price_usd_per_h},
                    {"source", p.source},
                    {"price_source", p.price_source}});
  }
  return nlohmann::ordered_json{{"models", models}, {"gpus", gpus}}.dump(2) + "\n";
}

}  // namespace sl::cli
