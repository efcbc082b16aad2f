#include "llm/engine/step_schedule.h"

#include <algorithm>

#include "core/error.h"
#include "core/stats.h"

namespace sl::llm {
namespace {

/// Index of the step whose time in `times` (strictly increasing) is exactly t: every time a record holds is a
/// step's start or end, the same double.
std::int32_t step_at(const std::vector<double>& times, double t) {
  const auto it = std::lower_bound(times.begin(), times.end(), t);
  SL_ASSERT(it != times.end() && *it == t);
  return static_cast<std::int32_t>(it - times.begin());
}

}  // namespace

StepKnobs knobs_of(const GpuSpec& gpu) {
  return {gpu.compute_efficiency, gpu.bandwidth_efficiency, gpu.layer_tax_s, gpu.dispatch_tax_s,
          gpu.step_host_s, gpu.request_overhead_s, gpu.half_efficiency_tokens, gpu.low_precision_efficiency,
          gpu.expert_efficiency};
}

GpuSpec with_knobs(GpuSpec gpu, const StepKnobs& knobs) {
  gpu.compute_efficiency = knobs.compute_efficiency;
  gpu.bandwidth_efficiency = knobs.bandwidth_efficiency;
  gpu.layer_tax_s = knobs.layer_tax_s;
  gpu.dispatch_tax_s = knobs.dispatch_tax_s;
  gpu.step_host_s = knobs.step_host_s;
  gpu.request_overhead_s = knobs.request_overhead_s;
  gpu.half_efficiency_tokens = knobs.half_efficiency_tokens;
  gpu.low_precision_efficiency = knobs.low_precision_efficiency;
  gpu.expert_efficiency = knobs.expert_efficiency;
  return gpu;
}

ScheduleRecorder::ScheduleRecorder(const EngineConfig& config)
    : step_time_(config.model, config.gpu, config.tp), is_moe_(config.model.is_moe()) {
  SL_ASSERT(config.scheduler.speculative.num_speculative_tokens == 0);  // no draft model's time to re-time
  s_.hbm_bytes_per_s_ = config.gpu.hbm_bytes_per_s;
  s_.peak_flop_per_s_ = config.gpu.peak_flop_per_s;
  s_.num_layers_ = static_cast<double>(config.model.num_layers);
  s_.host_overlapped_ = config.gpu.host_overlapped;
  s_.low_precision_peak_ = config.gpu.low_precision_peak;
  s_.attention_roofline_ = config.gpu.attention_roofline;
}

void ScheduleRecorder::on_step(const SchedulerOutput& out, double start_s, double end_s) {
  const StepTime t = step_time_(out.work);
  s_.bytes_.push_back(t.bytes);
  s_.flop_.push_back(t.flop);
  s_.all_reduce_s_.push_back(t.all_reduce_s);
  if (s_.attention_roofline_) {
    s_.kv_bytes_.push_back(t.kv_bytes);
    s_.attention_share_.push_back(attention_share(t));
  }
  if (is_moe_) {
    s_.expert_bytes_.push_back(t.expert_bytes);
    s_.expert_flop_.push_back(t.expert_flop);
  }
  s_.num_chunks_.push_back(static_cast<std::int32_t>(out.work.num_prefill_chunks));
  const std::int64_t tokens = out.work.num_decode_seqs + out.work.num_prefill_tokens + out.work.num_spec_tokens;
  s_.rows_.push_back(static_cast<std::int32_t>(step_time_.rows(tokens)));
  s_.layer_taxed_.push_back(step_time_.pays_layer_tax(out.work) ? 1 : 0);
  start_s_.push_back(start_s);
  s_.end_s_.push_back(end_s);
}

RecordedSchedule ScheduleRecorder::finish(const EngineRun& run, const Workload& workload, std::int64_t num_warmup) && {
  RecordedSchedule s = std::move(s_);
  s.wake_s_.assign(s.end_s_.size(), 0.0);
  // A follow-up turn arrives a think time after its predecessor finishes: find each one's predecessor.
  const std::size_t n = workload.requests.size();
  std::vector<std::int32_t> previous(n, -1), finish_step(n, -1);
  for (std::size_t i = 0; i < n; ++i)
    if (workload.next_turn[i] >= 0) previous[static_cast<std::size_t>(workload.next_turn[i])] = static_cast<std::int32_t>(i);
  for (const RequestRecord& r : run.records)
    finish_step[static_cast<std::size_t>(r.request_id)] = step_at(s.end_s_, r.finished_at_s);
  for (const RequestRecord& r : run.records) {
    RecordedSchedule::RequestSteps q;
    q.first_token_step = step_at(s.end_s_, r.first_token_at_s);
    q.finish_step = finish_step[static_cast<std::size_t>(r.request_id)];
    q.num_output_tokens = r.num_output_tokens;
    q.is_warmup = r.request_id < num_warmup;
    const std::int32_t before = previous[static_cast<std::size_t>(r.request_id)];
    const std::int32_t admitted = step_at(start_s_, r.first_scheduled_at_s);
    if (before < 0) {
      q.arrival_s = r.arrival_at_s;
      double& wake = s.wake_s_[static_cast<std::size_t>(admitted)];
      wake = std::max(wake, r.arrival_at_s);
    } else {
      // Its arrival is (that step's end) + think: a step that admits it starts no earlier, which the step order
      // already ensures when the think time is 0 (a closed loop), the only follow-ups calibration simulates.
      SL_ASSERT(workload.think_s[static_cast<std::size_t>(before)] == 0);
      q.arrival_step = finish_step[static_cast<std::size_t>(before)];
      SL_ASSERT(q.arrival_step >= 0 && q.arrival_step < admitted);
    }
    s.requests_.push_back(q);
  }
  return s;
}

void RecordedSchedule::retime(const StepKnobs& k, std::vector<double>& end_s) const {
  // The factors as StepTimeModel forms them, so that at the recorded knobs every product is the same double.
  const double bytes_per_s = hbm_bytes_per_s_ * k.bandwidth_efficiency;
  const double flop_per_s =
      flop_rate(peak_flop_per_s_, k.compute_efficiency, low_precision_peak_, k.low_precision_efficiency);
  const double layer_tax_s = num_layers_ * k.layer_tax_s;
  const std::size_t n = bytes_.size();
  end_s.resize(n);
  double end = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double start = std::max(end, wake_s_[i]);
    const double overhead_s = (layer_taxed_[i] != 0 ? layer_tax_s : 0.0) + static_cast<double>(num_chunks_[i]) * k.dispatch_tax_s;
    // A mixture of experts' expert part counted 1 / expert_efficiency times, as StepTimeModel counts it.
    const bool moe = !expert_bytes_.empty();
    const double bytes = moe ? expert_weighted(bytes_[i], expert_bytes_[i], k.expert_efficiency) : bytes_[i];
    const double flop = moe ? expert_weighted(flop_[i], expert_flop_[i], k.expert_efficiency) : flop_[i];
    const double compute_s = short_step_compute_s(flop / flop_per_s, static_cast<double>(rows_[i]), k.half_efficiency_tokens);
    double share = 0;
    if (attention_roofline_) share = flop == flop_[i] ? attention_share_[i] : attention_share_[i] * flop_[i] / flop;
    const double roof_s = attention_roofline_ ? roofline_s(bytes / bytes_per_s, compute_s, kv_bytes_[i] / bytes_per_s, share, true)
                                              : roofline_s(bytes / bytes_per_s, compute_s, 0, 0, false);
    end = start + step_total_s(roof_s, overhead_s, all_reduce_s_[i], k.step_host_s, host_overlapped_);
    end_s[i] = end;
  }
}

double RecordedSchedule::value(Metric metric, Stat stat, const std::vector<double>& end_s, std::vector<double>& scratch,
                               double count_scale, double request_overhead_s, double first_text_lag_tokens) const {
  SL_ASSERT(end_s.size() == end_s_.size());
  const auto at = [&](std::int32_t step) { return end_s[static_cast<std::size_t>(step)]; };
  if (metric == Metric::Throughput || metric == Metric::Itl) {
    double first_arrival_s = 0, last_arrival_s = 0, last_finish_s = 0, tokens = 0, gaps_s = 0, num_gaps = 0;
    bool first = true;
    for (const RequestSteps& r : requests_) {
      if (r.is_warmup) continue;
      const double arrival = arrival_s(r, end_s);
      first_arrival_s = first ? arrival : std::min(first_arrival_s, arrival);
      last_arrival_s = first ? arrival : std::max(last_arrival_s, arrival);
      last_finish_s = std::max(last_finish_s, at(r.finish_step));
      first = false;
      tokens += static_cast<double>(r.num_output_tokens);
      if (r.num_output_tokens < 2) continue;
      gaps_s += at(r.finish_step) - at(r.first_token_step);
      num_gaps += static_cast<double>(r.num_output_tokens - 1);
    }
    SL_ASSERT(!first);
    if (metric == Metric::Itl) return num_gaps > 0 ? gaps_s / num_gaps : 0.0;
    if (count_scale == 1) return tokens / (last_finish_s - first_arrival_s);
    return count_scale * tokens / (count_scale * (last_arrival_s - first_arrival_s) + (last_finish_s - last_arrival_s));
  }
  // The client's first text arrives `lag` of the request's mean gaps after its first token (at most its last token).
  const auto lag_s = [&](const RequestSteps& r) {
    if (first_text_lag_tokens == 0 || r.num_output_tokens < 2) return 0.0;
    const double gaps = static_cast<double>(r.num_output_tokens - 1);
    return std::min(first_text_lag_tokens, gaps) * (at(r.finish_step) - at(r.first_token_step)) / gaps;
  };
  scratch.clear();
  for (const RequestSteps& r : requests_) {
    if (r.is_warmup) continue;
    switch (metric) {
      case Metric::Ttft: scratch.push_back(at(r.first_token_step) - arrival_s(r, end_s) + request_overhead_s + lag_s(r)); break;
      case Metric::E2e: scratch.push_back(at(r.finish_step) - arrival_s(r, end_s) + request_overhead_s); break;
      default:  // Tpot
        if (r.num_output_tokens > 1)
          scratch.push_back((at(r.finish_step) - at(r.first_token_step) - lag_s(r)) / static_cast<double>(r.num_output_tokens - 1));
        break;
    }
  }
  if (scratch.empty()) return 0.0;
  if (stat == Stat::P50) return quantile_in_place(scratch, 0.5);
  if (stat == Stat::P99) return quantile_in_place(scratch, 0.99);
  double sum = 0;
  for (const double x : scratch) sum += x;
  return sum / static_cast<double>(scratch.size());
}

RecordedSchedule record_schedule(const EngineConfig& config, Workload& workload, RunControl& ctl,
                                 std::int64_t num_warmup) {
  ScheduleRecorder recorder(config);
  const EngineRun run = run_continuous(config, workload, ctl, {}, &recorder);
  SL_ASSERT(run.num_rejected[0] + run.num_rejected[1] == 0);
  return std::move(recorder).finish(run, workload, num_warmup);
}

}  // namespace sl::llm
