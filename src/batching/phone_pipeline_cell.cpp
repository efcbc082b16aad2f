// Cell batching/phone-pipeline. Table 17 / Example 1.9: one photo through a phone's ResNet-50 pipeline —
// camera buffer read, JPEG decode, resize + normalise, inference, post-process + UI — each with a duration
// and an energy. Serial per frame: time and energy add up; FPS = 1 / total time; a battery of E joules runs
// E / (energy per inference) inferences; sustained power = energy / time. The CPU fallback replaces the NPU
// step with the CPU's. If consecutive frames overlapped (NPU busy on one while the CPU decodes the next),
// the CPU stages would bound the rate — our addition, labelled as such.
#include <array>
#include <cmath>
#include <string>

#include "batching/cells.h"

namespace sl::batching {
namespace {

constexpr double kJoulesPerWh = 3600;

struct Phase {
  const char* name;  ///< parameter prefix
  bool on_cpu;       ///< runs on the CPU (all but NPU inference)
};
constexpr std::array<Phase, 5> kPhases = {{{"camera", true}, {"decode", true}, {"preprocess", true}, {"npu", false},
                                           {"post", true}}};
constexpr std::size_t kInferencePhase = 3;

struct PathTotals {
  double ms = 0;
  double mj = 0;
  double cpu_ms = 0;  ///< time on the CPU (the bound if frames overlap)
};

/// Time and energy of the five phases, with the inference step on the NPU or on the CPU.
PathTotals totals(const Inputs& in, bool cpu_fallback) {
  PathTotals t;
  for (std::size_t i = 0; i < kPhases.size(); ++i) {
    const bool fallback = cpu_fallback && i == kInferencePhase;
    const std::string p = fallback ? "cpu_infer" : kPhases[i].name;
    t.ms += in.real(p + "_ms");
    t.mj += in.real(p + "_mj");
    if (kPhases[i].on_cpu || fallback) t.cpu_ms += in.real(p + "_ms");
  }
  return t;
}

void output_path(RunResult& result, const std::string& prefix, const PathTotals& t, double battery_j) {
  result.output(prefix + "total_ms", t.ms);
  result.output(prefix + "total_mj", t.mj);
  result.output(prefix + "fps", 1e3 / t.ms);
  result.output(prefix + "inferences_per_charge", battery_j / (t.mj * 1e-3));
  result.output(prefix + "power_mw", t.mj / t.ms * 1e3);  // mJ per ms is W; x 1000 for mW
  result.output(prefix + "overlapped_fps", 1e3 / t.cpu_ms);
}

/// Rows of the timeline: one bar per phase on lane 0 (NPU path) and lane 1 (CPU fallback).
void table_timeline(RunResult& result, const Inputs& in) {
  std::vector<double> lane, phase, from_ms, to_ms, energy_mj, power_mw;
  for (int path = 0; path < 2; ++path) {
    double t = 0;
    for (std::size_t i = 0; i < kPhases.size(); ++i) {
      const std::string p = path == 1 && i == kInferencePhase ? "cpu_infer" : kPhases[i].name;
      const double ms = in.real(p + "_ms");
      const double mj = in.real(p + "_mj");
      lane.push_back(path);
      phase.push_back(static_cast<double>(i + 1));
      from_ms.push_back(t);
      to_ms.push_back(t + ms);
      energy_mj.push_back(mj);
      power_mw.push_back(ms > 0 ? mj / ms * 1e3 : 0);
      t += ms;
    }
  }
  result.table("timeline")
      .column("lane", lane)
      .column("phase", phase)
      .column("from_ms", from_ms)
      .column("to_ms", to_ms)
      .column("energy_mj", energy_mj)
      .column("power_mw", power_mw);
}

Result<RunResult> run_phone_pipeline(const Inputs& in, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  const PathTotals npu = totals(in, false);
  const PathTotals cpu = totals(in, true);
  for (const auto& [t, param] : {std::pair{npu, "npu_ms"}, std::pair{cpu, "cpu_infer_ms"}}) {
    if (t.ms <= 0 || t.mj <= 0)
      return Error{"invalid", param,
                   "a frame must take time and energy: the phases of this path sum to " + format_number(t.ms) +
                       " ms and " + format_number(t.mj) + " mJ",
                   {{"got", format_number(t.ms)}}};
  }
  const double battery_j = in.real("battery_wh") * kJoulesPerWh;
  RunResult result;
  output_path(result, "", npu, battery_j);
  output_path(result, "cpu_", cpu, battery_j);
  result.output("npu_time_frac", in.real("npu_ms") / npu.ms);
  result.output("decode_energy_frac", in.real("decode_mj") / npu.mj);
  result.output("battery_j", battery_j);
  table_timeline(result, in);
  return result;
}

}  // namespace

CellSpec phone_pipeline_cell() {
  CellSpec cell{"batching/phone-pipeline",
                {real("camera_ms", "ms", 8, 0, 1e5), real("camera_mj", "mJ", 0.08, 0, 1e6),
                 real("decode_ms", "ms", 15, 0, 1e5), real("decode_mj", "mJ", 1.5, 0, 1e6),
                 real("preprocess_ms", "ms", 5, 0, 1e5), real("preprocess_mj", "mJ", 0.4, 0, 1e6),
                 real("npu_ms", "ms", 12, 0, 1e5), real("npu_mj", "mJ", 0.8, 0, 1e6),
                 real("post_ms", "ms", 5, 0, 1e5), real("post_mj", "mJ", 0.2, 0, 1e6),
                 real("cpu_infer_ms", "ms", 45, 0, 1e5), real("cpu_infer_mj", "mJ", 4.2, 0, 1e6),
                 real("battery_wh", "Wh", 10, 1e-3, 1e4)},
                &run_phone_pipeline};
  cell.uses_seed = false;
  cell.outputs = {out("total_ms", "ms"), out("total_mj", "mJ"), out("fps", ""), out("inferences_per_charge", ""),
                  out("power_mw", ""), out("overlapped_fps", ""), out("cpu_total_ms", "ms"),
                  out("cpu_total_mj", "mJ"), out("cpu_fps", ""), out("cpu_inferences_per_charge", ""),
                  out("cpu_power_mw", ""), out("cpu_overlapped_fps", ""), out("npu_time_frac", ""),
                  out("decode_energy_frac", ""), out("battery_j", "J")};
  cell.tables = {table("timeline")};
  return cell;
}

}  // namespace sl::batching
