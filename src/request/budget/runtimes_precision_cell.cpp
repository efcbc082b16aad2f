// Cell request/runtimes-precision. Tables 19 and 20 are measurements the book quotes (batch-1 ResNet-50 on
// a V100); what the cell recomputes is every ratio printed beside them: speedup = baseline latency / latency,
// accuracy loss in percentage points, and weight memory = parameters x bytes per weight. Eq. 16 bounds the
// INT8 gain by the bit ratio, 32 / 8 = 4x; a fleet needing N FP32 GPUs needs ceil(N / practical gain) at INT8.
// The book's "98 MB" of FP32 weights is 25.6 M x 4 B = 102.4 MB decimal = 97.66 MiB: it closes only in MiB.
#include <cmath>
#include <vector>

#include "request/cells.h"

namespace sl::request {
namespace {

constexpr double kMib = 1024.0 * 1024.0;
constexpr double kMb = 1e6;
constexpr double kFp32Bits = 32;

// Row ids of the `runtimes` table (Table 19) and the `precision` table (Table 20); the lab file names them.
enum Runtime { kPytorch, kTorchscript, kOnnx, kTrtFp32, kTrtFp16, kTrtInt8 };
enum Precision { kFp32, kFp16, kInt8Ptq, kInt8Qat };

void runtime_outputs(const Inputs& in, RunResult& result) {
  const std::vector<double> latency_ms{in.real("pytorch_ms"),  in.real("torchscript_ms"), in.real("onnx_ms"),
                                       in.real("trt_fp32_ms"), in.real("trt_fp16_ms"),    in.real("trt_int8_ms")};
  const char* names[] = {"pytorch", "torchscript", "onnx", "trt_fp32", "trt_fp16", "trt_int8"};
  std::vector<double> ids, speedups;
  for (std::size_t i = 0; i < latency_ms.size(); ++i) {
    ids.push_back(static_cast<double>(i));
    speedups.push_back(latency_ms[kPytorch] / latency_ms[i]);
    if (i != kPytorch) result.output(std::string("speedup_") + names[i], speedups.back());
  }
  result.table("runtimes").column("runtime", std::move(ids)).column("latency_ms", latency_ms).column("speedup", std::move(speedups));
}

void precision_outputs(const Inputs& in, RunResult& result) {
  const std::vector<double> latency_ms{in.real("trt_fp32_ms"), in.real("trt_fp16_ms"), in.real("trt_int8_ms"),
                                       in.real("trt_int8_ms")};
  const std::vector<double> accuracy_pct{in.real("fp32_acc"), in.real("fp16_acc"), in.real("ptq_acc"), in.real("qat_acc")};
  const std::vector<double> bytes_per_weight{4, 2, 1, 1};
  const double params = in.real("params_m") * 1e6;
  result.output("int8_vs_fp32", latency_ms[kFp32] / latency_ms[kInt8Ptq]);
  result.output("fp16_vs_fp32", latency_ms[kFp32] / latency_ms[kFp16]);
  result.output("int8_vs_fp16", latency_ms[kFp16] / latency_ms[kInt8Ptq]);
  const double ptq_loss = accuracy_pct[kFp32] - accuracy_pct[kInt8Ptq];
  const double qat_loss = accuracy_pct[kFp32] - accuracy_pct[kInt8Qat];
  result.output("ptq_loss_pp", ptq_loss);
  result.output("qat_loss_pp", qat_loss);
  if (ptq_loss > 0) result.output("qat_recovered_frac", (ptq_loss - qat_loss) / ptq_loss);
  result.output("fp32_weights_mb", params * 4 / kMb);
  result.output("fp32_weights_mib", params * 4 / kMib);
  result.output("fp16_weights_mib", params * 2 / kMib);
  result.output("int8_weights_mb", params * 1 / kMb);
  result.output("int8_weights_mib", params * 1 / kMib);

  std::vector<double> ids, mib, loss;
  for (std::size_t i = 0; i < latency_ms.size(); ++i) {
    ids.push_back(static_cast<double>(i));
    mib.push_back(params * bytes_per_weight[i] / kMib);
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
void eq16_outputs(const Inputs& in, RunResult& result) {
  const double theoretical = kFp32Bits / static_cast<double>(in.count("low_bits"));
  const double measured = in.real("trt_fp32_ms") / in.real("trt_int8_ms");
  result.output("theoretical_speedup", theoretical);
  result.output("measured_share_of_theoretical_frac", measured / theoretical);
  result.output("low_bit_gpus", std::ceil(static_cast<double>(in.count("fp32_gpus")) / in.real("practical_speedup")));
  if (measured > theoretical)
    result.notice("above_bound", "The INT8 latencies give " + format_number(measured) + "x over FP32, more than the " +
                                     format_number(theoretical) + "x bit-ratio bound of eq. 16.");
}

Result<RunResult> run_runtimes_precision(const Inputs& in, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  RunResult result;
  runtime_outputs(in, result);
  precision_outputs(in, result);
  eq16_outputs(in, result);
  return result;
}

}  // namespace

CellSpec runtimes_precision_cell() {
  CellSpec cell{"request/runtimes-precision",
                {real("pytorch_ms", "ms", 8.5, 1e-6, 1e6), real("torchscript_ms", "ms", 6.2, 1e-6, 1e6),
                 real("onnx_ms", "ms", 5.1, 1e-6, 1e6), real("trt_fp32_ms", "ms", 2.8, 1e-6, 1e6),
                 real("trt_fp16_ms", "ms", 1.4, 1e-6, 1e6), real("trt_int8_ms", "ms", 0.9, 1e-6, 1e6),
                 real("fp32_acc", "%", 76.13, 0, 100), real("fp16_acc", "%", 76.13, 0, 100),
                 real("ptq_acc", "%", 75.80, 0, 100), real("qat_acc", "%", 76.05, 0, 100),
                 real("params_m", "M", 25.6, 1e-6, 1e7), count("low_bits", "bits", 8, 1, 32),
                 count("fp32_gpus", "GPUs", 30, 1, 1e9), real("practical_speedup", "x", 3, 1e-3, 1e3)},
                &run_runtimes_precision};
  cell.uses_seed = false;
  cell.outputs = {out("speedup_torchscript", "×"), out("speedup_onnx", "×"), out("speedup_trt_fp32", "×"),
                  out("speedup_trt_fp16", "×"), out("speedup_trt_int8", "×"), out("int8_vs_fp32", "×"),
                  out("fp16_vs_fp32", "×"), out("int8_vs_fp16", "×"), out("ptq_loss_pp", "points"),
                  out("qat_loss_pp", "points"), sometimes(out("qat_recovered_frac", "")),
                  out("fp32_weights_mb", "MB"), out("fp32_weights_mib", "MiB"), out("fp16_weights_mib", "MiB"),
                  out("int8_weights_mb", "MB"), out("int8_weights_mib", "MiB"), out("theoretical_speedup", "×"),
                  out("measured_share_of_theoretical_frac", ""), out("low_bit_gpus", "")};
  cell.tables = {table("runtimes"), table("precision")};
  return cell;
}

}  // namespace sl::request
