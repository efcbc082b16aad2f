// Cell request/runtimes-precision. Tables 19 and 20 are measurements the book quotes (batch-1 ResNet-50 on
// a V100); what the cell recomputes is every ratio printed beside them: speedup = baseline latency / latency,
// accuracy loss in percentage points, and weight memory = parameters x bytes per weight. Eq. 16 bounds the
// INT8 gain by the bit ratio, 32 / 8 = 4x; a fleet needing N FP32 GPUs needs ceil(N / practical gain) at INT8.
// The book's "98 MB" of FP32 weights is 25.6 M x 4 B = 102.4 MB decimal = 97.66 MiB: it closes only in MiB.
#include <cmath>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/units.h"
#include "request/cells.h"

namespace sl::request {
namespace {

using units::kMB;
using units::kMiB;
constexpr double kFp32Bits = 32;

// Row ids of the `runtimes` table (Table 19) and the `precision` table (Table 20); the lab file names them.
enum Runtime { kPytorch, kTorchscript, kOnnx, kTrtFp32, kTrtFp16, kTrtInt8 };
enum Precision { kFp32, kFp16, kInt8Ptq, kInt8Qat };

struct RuntimesPrecisionParams {
  // Table 19: batch-1 latency of each runtime, ms.
  double pytorch_ms, torchscript_ms, onnx_ms, trt_fp32_ms, trt_fp16_ms, trt_int8_ms;
  // Table 20: top-1 accuracy of each precision, percent.
  double fp32_acc_pct, fp16_acc_pct, ptq_acc_pct, qat_acc_pct;
  double params_m;
  // Eq. 16 and the fleet.
  std::int64_t low_bits, fp32_gpus;
  double practical_speedup;
};

Result<RuntimesPrecisionParams> validate_runtimes_precision(const Inputs& in) {
  return RuntimesPrecisionParams{in.real("pytorch_ms"),    in.real("torchscript_ms"), in.real("onnx_ms"),
                                 in.real("trt_fp32_ms"),   in.real("trt_fp16_ms"),    in.real("trt_int8_ms"),
                                 in.real("fp32_acc_pct"),  in.real("fp16_acc_pct"),   in.real("ptq_acc_pct"),
                                 in.real("qat_acc_pct"),   in.real("params_m"),       in.count("low_bits"),
                                 in.count("fp32_gpus"),    in.real("practical_speedup")};
}

void runtime_outputs(const RuntimesPrecisionParams& p, RunResult& result) {
  const std::vector<double> latency_ms{p.pytorch_ms,  p.torchscript_ms, p.onnx_ms,
                                       p.trt_fp32_ms, p.trt_fp16_ms,    p.trt_int8_ms};
  std::vector<double> ids, speedups;
  for (std::size_t i = 0; i < latency_ms.size(); ++i) {
    ids.push_back(static_cast<double>(i));
    speedups.push_back(latency_ms[kPytorch] / latency_ms[i]);
  }
  result.output("speedup_torchscript", speedups[kTorchscript]);
  result.output("speedup_onnx", speedups[kOnnx]);
  result.output("speedup_trt_fp32", speedups[kTrtFp32]);
  result.output("speedup_trt_fp16", speedups[kTrtFp16]);
  result.output("speedup_trt_int8", speedups[kTrtInt8]);
  result.table("runtimes").column("runtime", std::move(ids)).column("latency_ms", latency_ms).column("speedup", std::move(speedups));
}

void precision_outputs(const RuntimesPrecisionParams& p, RunResult& result) {
  const std::vector<double> latency_ms{p.trt_fp32_ms, p.trt_fp16_ms, p.trt_int8_ms, p.trt_int8_ms};
  const std::vector<double> accuracy_pct{p.fp32_acc_pct, p.fp16_acc_pct, p.ptq_acc_pct, p.qat_acc_pct};
  const std::vector<double> bytes_per_weight{4, 2, 1, 1};
  const double params = p.params_m * 1e6;
  result.output("int8_vs_fp32", latency_ms[kFp32] / latency_ms[kInt8Ptq]);
  result.output("fp16_vs_fp32", latency_ms[kFp32] / latency_ms[kFp16]);
  result.output("int8_vs_fp16", latency_ms[kFp16] / latency_ms[kInt8Ptq]);
  const double ptq_loss = accuracy_pct[kFp32] - accuracy_pct[kInt8Ptq];
  const double qat_loss = accuracy_pct[kFp32] - accuracy_pct[kInt8Qat];
  result.output("ptq_loss_pp", ptq_loss);
  result.output("qat_loss_pp", qat_loss);
  if (ptq_loss > 0) result.output("qat_recovered_frac", (ptq_loss - qat_loss) / ptq_loss);
  result.output("fp32_weights_mb", params * 4 / kMB);
  result.output("fp32_weights_mib", params * 4 / kMiB);
  result.output("fp16_weights_mib", params * 2 / kMiB);
  result.output("int8_weights_mb", params * 1 / kMB);
  result.output("int8_weights_mib", params * 1 / kMiB);

  std::vector<double> ids, mib, loss;
  for (std::size_t i = 0; i < latency_ms.size(); ++i) {
    ids.push_back(static_cast<double>(i));
    mib.push_back(params * bytes_per_weight[i] / kMiB);
    loss.push_back(accuracy_pct[kFp32] - accuracy_pct[i]);
  }
  result.table("precision")
      .column("precision", std::move(ids))
      .column("latency_ms", latency_ms)
      .column("weights_mib", std::move(mib))
      .column("accuracy_pct", accuracy_pct)
      .column("loss_pp", std::move(loss));
}

/// Eq. 16 and the fleet it implies.
void eq16_outputs(const RuntimesPrecisionParams& p, RunResult& result) {
  const double theoretical = kFp32Bits / static_cast<double>(p.low_bits);
  const double measured = p.trt_fp32_ms / p.trt_int8_ms;
  result.output("theoretical_speedup", theoretical);
  result.output("measured_share_of_theoretical_frac", measured / theoretical);
  result.output("low_bit_gpus", std::ceil(static_cast<double>(p.fp32_gpus) / p.practical_speedup));
  if (measured > theoretical)
    result.notice("above_bound", "The INT8 latencies give " + format_number(measured) + "x over FP32, more than the " +
                                     format_number(theoretical) + "x bit-ratio bound of eq. 16.");
}

Result<RunResult> run_runtimes_precision(const RuntimesPrecisionParams& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  RunResult result;
  runtime_outputs(p, result);
  precision_outputs(p, result);
  eq16_outputs(p, result);
  return result;
}

}  // namespace

CellSpec runtimes_precision_cell() {
  CellSpec cell = checked_cell<&validate_runtimes_precision, &run_runtimes_precision>("request/runtimes-precision",
      {explored(real("pytorch_ms", "ms", 8.5, 1e-6, 1e6), 1, 50),
       real("torchscript_ms", "ms", 6.2, 1e-6, 1e6), real("onnx_ms", "ms", 5.1, 1e-6, 1e6),
       real("trt_fp32_ms", "ms", 2.8, 1e-6, 1e6), real("trt_fp16_ms", "ms", 1.4, 1e-6, 1e6),
       explored(real("trt_int8_ms", "ms", 0.9, 1e-6, 1e6), 0.1, 10),
       aliased(real("fp32_acc_pct", "%", 76.13, 0, 100), {"fp32_acc"}),
       aliased(real("fp16_acc_pct", "%", 76.13, 0, 100), {"fp16_acc"}),
       aliased(real("ptq_acc_pct", "%", 75.80, 0, 100), {"ptq_acc"}),
       aliased(real("qat_acc_pct", "%", 76.05, 0, 100), {"qat_acc"}),
       real("params_m", "M", 25.6, 1e-6, 1e7), count("low_bits", "bits", 8, 1, 32),
       count("fp32_gpus", "GPUs", 30, 1, 1e9), real("practical_speedup", "×", 3, 1e-3, 1e3)});
  cell.uses_seed = false;
  cell.outputs = outputs({out("speedup_torchscript", "×"), out("speedup_onnx", "×"), out("speedup_trt_fp32", "×"),
                  out("speedup_trt_fp16", "×"), out("speedup_trt_int8", "×"), out("int8_vs_fp32", "×"),
                  out("fp16_vs_fp32", "×"), out("int8_vs_fp16", "×"), out("ptq_loss_pp", "points"),
                  out("qat_loss_pp", "points"), sometimes("qat_recovered_frac"), "fp32_weights_mb", "fp32_weights_mib",
                  "fp16_weights_mib", "int8_weights_mb", "int8_weights_mib", out("theoretical_speedup", "×"),
                  "measured_share_of_theoretical_frac", "low_bit_gpus"});
  cell.tables = {table("runtimes"), table("precision")};
  return cell;
}

}  // namespace sl::request
