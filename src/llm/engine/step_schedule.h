#pragma once
// A run's schedule, kept so that it can be re-timed for other step-time knobs without simulating again (the
// calibration's surrogate, issue 32): what each step did (bytes and FLOPs per GPU, all-reduce time, whether it
// decoded, its prefill chunks), and at which step each request was admitted, got its first token and finished.
// Re-timing keeps the decisions and changes only the steps' durations:
//   step k starts at max(end of step k - 1, the latest up-front arrival among the requests it admits), and lasts
//   max(bytes / (HBM x bw_eff), FLOP / (peak x compute_eff) x (rows + half_eff_tokens) / rows)
//   (or that roofline split at attention: roofline_s)
//   + layers x layer tax (if it decodes, or always) + chunks x dispatch tax + all-reduce,
//   then + host time (or max with it, overlapped)     (step_time.h's formula, term for term)
// At the knobs it was recorded at, the times are the run's to the bit; elsewhere it approximates the run, since a
// faster or slower engine would have batched differently. A follow-up turn (a closed loop's next request) arrives
// when its predecessor finishes, so its arrival moves with that step's end.
#include <cstdint>
#include <vector>

#include "core/cell.h"
#include "llm/engine/engine.h"
#include "llm/engine/step_listener.h"
#include "llm/model/step_time.h"

namespace sl::llm {

/// The step-time model's free terms, which calibration fits (GpuSpec's fields of the same names).
struct StepKnobs {
  double compute_efficiency = 0.4;
  double bandwidth_efficiency = 1.0;
  double layer_tax_s = 1e-5;
  double dispatch_tax_s = 1e-5;
  // The mechanisms' terms (GpuSpec): 0 is the book's model.
  double step_host_s = 0;
  double request_overhead_s = 0;
  double half_efficiency_tokens = 0;
  double low_precision_efficiency = 1.0;
  double expert_efficiency = 1.0;
  /// The tokens a client waits past the first before it times the first token: a client that times only the
  /// streamed chunks carrying text (inference-perf's streaming parser; `vllm bench serve` times every chunk) skips a
  /// token whose text ends inside a UTF-8 sequence, which streams as an empty chunk. Client TTFT = engine TTFT + this x the request's mean gap
  /// (at most its output - 1 tokens); TPOT as (E2E - TTFT) / (output - 1) then shrinks with it; E2E and ITL do not
  /// move. Not a GpuSpec field: it is how the client measures, not what the server does.
  double first_text_lag_tokens = 0;
};
StepKnobs knobs_of(const GpuSpec& gpu);
/// `gpu` with these knobs.
GpuSpec with_knobs(GpuSpec gpu, const StepKnobs& knobs);

/// What a serving figure is, on either side of a comparison. Times are per request (TTFT: arrival to first token;
/// TPOT: (finish - first token) / (output - 1), over requests of 2+ tokens; E2E: arrival to finish); ITL is the
/// mean gap between successive tokens pooled over every request (sum of (finish - first token) / sum of
/// (output - 1)), which is what a benchmark's mean ITL is when every streamed chunk carries one token; throughput
/// is output tokens / (last finish - first arrival). Warm-up requests count in none of them. A client measures TTFT
/// and E2E from sending the request to receiving the token: the engine's plus the request's time outside it
/// (GpuSpec::request_overhead_s), as `vllm bench serve`, SGLang's bench_serving and inference-perf time them.
enum class Metric { Ttft = 0, Itl = 1, Tpot = 2, E2e = 3, Throughput = 4 };
/// How the per-request values are summarised (ITL and throughput: mean only). P99 as the clients take it
/// (numpy's percentile: linear between order statistics, core/stats.h's quantile).
enum class Stat { Mean = 0, P50 = 1, P99 = 2 };

/// A recorded run, and its re-timing at other knobs.
class RecordedSchedule {
 public:
  /// End of every step at `knobs` into `end_s` (resized; reused between calls).
  void retime(const StepKnobs& knobs, std::vector<double>& end_s) const;
  /// A figure of the run from step end times (retime's, or recorded_end_s()); `scratch` is reused for the median.
  /// count_scale > 1 extrapolates an open loop's throughput to count_scale times its requests: their arrivals
  /// span count_scale times as long, the drain after the last arrival is the run's (a benchmark of N requests
  /// divides by first arrival to last finish, so a shorter run's drain would weigh more).
  /// request_overhead_s is added to each request's TTFT and E2E (a client's timing; 0: the engine's).
  /// first_text_lag_tokens moves a client's TTFT and TPOT (StepKnobs::first_text_lag_tokens).
  double value(Metric metric, Stat stat, const std::vector<double>& end_s, std::vector<double>& scratch,
               double count_scale = 1, double request_overhead_s = 0, double first_text_lag_tokens = 0) const;
  const std::vector<double>& recorded_end_s() const { return end_s_; }
  std::int64_t num_steps() const { return static_cast<std::int64_t>(end_s_.size()); }
  std::int64_t num_requests() const { return static_cast<std::int64_t>(requests_.size()); }

 private:
  friend class ScheduleRecorder;
  struct RequestSteps {
    std::int32_t first_token_step = 0, finish_step = 0;
    std::int32_t arrival_step = -1;  ///< a follow-up arrives at this step's end; -1: at arrival_s
    double arrival_s = 0;
    std::int64_t num_output_tokens = 0;
    bool is_warmup = false;
  };
  double arrival_s(const RequestSteps& r, const std::vector<double>& end_s) const {
    return r.arrival_step < 0 ? r.arrival_s : end_s[static_cast<std::size_t>(r.arrival_step)];
  }
  std::vector<double> bytes_, flop_, all_reduce_s_, wake_s_, end_s_;
  std::vector<std::int32_t> num_chunks_;
  std::vector<std::int32_t> rows_;          ///< the rows its matrix products ran over (tokens, padded)
  std::vector<std::uint8_t> layer_taxed_;   ///< it paid the layer tax (it decoded, or every step does)
  std::vector<double> kv_bytes_, attention_share_;  ///< with attention_roofline only (else empty)
  std::vector<double> expert_bytes_, expert_flop_;  ///< a mixture of experts' only (else empty)
  std::vector<RequestSteps> requests_;
  double hbm_bytes_per_s_ = 0, peak_flop_per_s_ = 0, num_layers_ = 0;
  bool host_overlapped_ = false, low_precision_peak_ = false, attention_roofline_ = false;
};

/// Records a run's schedule (run_continuous's listener); the model, GPU and TP are the run's.
class ScheduleRecorder : public StepListener {
 public:
  explicit ScheduleRecorder(const EngineConfig& config);
  void on_step(const SchedulerOutput& out, double start_s, double end_s) override;
  /// The schedule of the finished run (its records map requests to steps); requests with an id below
  /// num_warmup are warm-up.
  RecordedSchedule finish(const EngineRun& run, const Workload& workload, std::int64_t num_warmup) &&;

 private:
  StepTimeModel step_time_;
  bool is_moe_;
  RecordedSchedule s_;           ///< what the steps so far recorded (its requests come at the end)
  std::vector<double> start_s_;  ///< each step's start, to find the step that admitted a request
};

/// Runs `workload` on `config` (run_continuous) and keeps its schedule, its first num_warmup requests as warm-up.
/// Rejections are not modelled: the config's max_waiting must let every request in.
RecordedSchedule record_schedule(const EngineConfig& config, Workload& workload, RunControl& ctl,
                                 std::int64_t num_warmup = 0);

}  // namespace sl::llm
