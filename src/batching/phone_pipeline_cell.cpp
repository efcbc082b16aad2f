// Cell batching/phone-pipeline. Table 17 / Example 1.9: one photo through a phone's ResNet-50 pipeline —
// camera buffer read, JPEG decode, resize + normalise, inference, post-process + UI — each with a duration
// and an energy. Serial per frame: time and energy add up; FPS = 1 / total time; a battery of E joules runs
// E / (energy per inference) inferences; sustained power = energy / time. The CPU fallback replaces the NPU
// step with the CPU's. If consecutive frames overlapped (NPU busy on one while the CPU decodes the next),
// the CPU stages would bound the rate — our addition, labelled as such.
#include <array>
#include <cmath>
#include <string>
#include <utility>

#include "batching/cells.h"
#include "core/checked_run.h"
#include "core/table_columns.h"
#include "core/outputs.h"
#include "core/units.h"

namespace sl::batching {
namespace {

/// Duration and energy of one step of the pipeline.
struct PhaseCost {
  double ms = 0;
  double mj = 0;
};

/// Table 17's pipeline: the five steps of the NPU path, the CPU's inference step that replaces the NPU's in
/// the fallback, and the battery.
struct PhonePipelineParams {
  PhaseCost camera, decode, preprocess, npu, post;
  PhaseCost cpu_infer;
  double battery_wh = 10;
};

struct Phase {
  PhaseCost cost;
  bool on_cpu;  ///< runs on the CPU (all but NPU inference)
};

/// The five phases in order, with the inference step on the NPU or on the CPU.
std::array<Phase, 5> phases(const PhonePipelineParams& p, bool cpu_fallback) {
  return {{{p.camera, true},
           {p.decode, true},
           {p.preprocess, true},
           {cpu_fallback ? p.cpu_infer : p.npu, cpu_fallback},
           {p.post, true}}};
}

struct PathTotals {
  double ms = 0;
  double mj = 0;
  double cpu_ms = 0;  ///< time on the CPU (the bound if frames overlap)
};

/// Time and energy of the five phases, with the inference step on the NPU or on the CPU.
PathTotals totals(const PhonePipelineParams& p, bool cpu_fallback) {
  PathTotals t;
  for (const Phase& phase : phases(p, cpu_fallback)) {
    t.ms += phase.cost.ms;
    t.mj += phase.cost.mj;
    if (phase.on_cpu) t.cpu_ms += phase.cost.ms;
  }
  return t;
}

Result<PhonePipelineParams> validate_phone_pipeline(const Inputs& in) {
  PhonePipelineParams p;
  p.camera = {in.real("camera_ms"), in.real("camera_mj")};
  p.decode = {in.real("decode_ms"), in.real("decode_mj")};
  p.preprocess = {in.real("preprocess_ms"), in.real("preprocess_mj")};
  p.npu = {in.real("npu_ms"), in.real("npu_mj")};
  p.post = {in.real("post_ms"), in.real("post_mj")};
  p.cpu_infer = {in.real("cpu_infer_ms"), in.real("cpu_infer_mj")};
  p.battery_wh = in.real("battery_wh");
  for (const auto& [t, param] : {std::pair{totals(p, false), "npu_ms"}, std::pair{totals(p, true), "cpu_infer_ms"}}) {
    if (t.ms <= 0 || t.mj <= 0)
      return Error{"invalid", param,
                   "a frame must take time and energy: the phases of this path sum to " + format_number(t.ms) +
                       " ms and " + format_number(t.mj) + " mJ",
                   {{"got", format_number(t.ms)}, {"problem", "frame_free"}, {"ms", format_number(t.ms)}, {"mj", format_number(t.mj)}}};
  }
  return p;
}

/// The output names of one path (literal, so grep finds each).
struct PathOutputs {
  const char* total_ms;
  const char* total_mj;
  const char* fps;
  const char* inferences_per_charge;
  const char* power_mw;
  const char* overlapped_fps;
};
constexpr PathOutputs kNpuPathOutputs = {"total_ms", "total_mj", "fps", "inferences_per_charge", "power_mw",
                                         "overlapped_fps"};
constexpr PathOutputs kCpuPathOutputs = {"cpu_total_ms", "cpu_total_mj", "cpu_fps", "cpu_inferences_per_charge",
                                         "cpu_power_mw", "cpu_overlapped_fps"};

void output_path(RunResult& result, const PathOutputs& names, const PathTotals& t, double battery_j) {
  result.output(names.total_ms, t.ms);
  result.output(names.total_mj, t.mj);
  result.output(names.fps, 1e3 / t.ms);
  result.output(names.inferences_per_charge, battery_j / (t.mj * 1e-3));
  result.output(names.power_mw, t.mj / t.ms * 1e3);  // mJ per ms is W; x 1000 for mW
  result.output(names.overlapped_fps, 1e3 / t.cpu_ms);
}

/// Rows of the timeline: one bar per phase on lane 0 (NPU path) and lane 1 (CPU fallback).
void table_timeline(RunResult& result, const PhonePipelineParams& p) {
  TableColumns cols;
  for (int path = 0; path < 2; ++path) {
    double t = 0;
    int index = 0;
    for (const Phase& step : phases(p, path == 1)) {
      const double ms = step.cost.ms;
      const double mj = step.cost.mj;
      cols.put({{"lane", path}, {"phase", ++index}, {"from_ms", t}, {"to_ms", t + ms}, {"energy_mj", mj},
                {"power_mw", ms > 0 ? mj / ms * 1e3 : 0}});
      t += ms;
    }
  }
  cols.into(result.table("timeline"));
}

Result<RunResult> run_phone_pipeline(const PhonePipelineParams& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  const PathTotals npu = totals(p, false);
  const PathTotals cpu = totals(p, true);
  const double battery_j = p.battery_wh * units::kSPerHour;  // 1 Wh = 1 J/s for 3,600 s
  RunResult result;
  output_path(result, kNpuPathOutputs, npu, battery_j);
  output_path(result, kCpuPathOutputs, cpu, battery_j);
  result.output("npu_time_frac", p.npu.ms / npu.ms);
  result.output("decode_energy_frac", p.decode.mj / npu.mj);
  result.output("battery_j", battery_j);
  table_timeline(result, p);
  return result;
}

}  // namespace

CellSpec phone_pipeline_cell() {
  CellSpec cell = checked_cell<&validate_phone_pipeline, &run_phone_pipeline>("batching/phone-pipeline",
      {real("camera_ms", "ms", 8, 0, 1e5), real("camera_mj", "mJ", 0.08, 0, 1e6),
       explored(real("decode_ms", "ms", 15, 0, 1e5), 0, 40), real("decode_mj", "mJ", 1.5, 0, 1e6),
       real("preprocess_ms", "ms", 5, 0, 1e5), real("preprocess_mj", "mJ", 0.4, 0, 1e6),
       explored(real("npu_ms", "ms", 12, 0, 1e5), 1, 60), real("npu_mj", "mJ", 0.8, 0, 1e6),
       real("post_ms", "ms", 5, 0, 1e5), real("post_mj", "mJ", 0.2, 0, 1e6),
       real("cpu_infer_ms", "ms", 45, 0, 1e5), real("cpu_infer_mj", "mJ", 4.2, 0, 1e6),
       explored(real("battery_wh", "Wh", 10, 1e-3, 1e4), 1, 100)});
  cell.uses_seed = false;
  cell.outputs = outputs({"total_ms", "total_mj", "fps", "inferences_per_charge", "power_mw", "overlapped_fps", "cpu_total_ms",
                  "cpu_total_mj", "cpu_fps", "cpu_inferences_per_charge", "cpu_power_mw", "cpu_overlapped_fps",
                  "npu_time_frac", "decode_energy_frac", "battery_j"});
  cell.tables = {table("timeline")};
  return cell;
}

}  // namespace sl::batching
