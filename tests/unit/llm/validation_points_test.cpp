// The published points as the simulator runs them (validation_points.h): which are modelled and why the others are
// not, the engine defaults that fill what a source leaves unstated, and the figures compared.
#include "llm/validation_points.h"

#include <catch2/catch.hpp>

#include <map>

using namespace sl::llm;

namespace {

const ValidationPoint& by_id(const std::vector<ValidationPoint>& points, const std::string& id) {
  for (const ValidationPoint& v : points)
    if (measured_points()[static_cast<std::size_t>(v.index)].id == id) return v;
  FAIL("no point " << id);
  return points.front();
}

std::vector<std::string> keys(const ValidationPoint& v) { return v.keys; }

}  // namespace

TEST_CASE("49 of the 79 published points are modelled: MoE 10, no GPU preset for 8, no stated lengths for 12",
          "[llm][validation]") {
  const auto points = validation_points(500, EngineFilter::All);
  REQUIRE(points.size() == measured_points().size());
  std::map<Exclusion, int> count;
  for (const ValidationPoint& v : points) ++count[v.exclusion];
  CHECK(count[Exclusion::None] == 49);
  CHECK(count[Exclusion::Moe] == 10);      // Mixtral 8x7B, gpt-oss, Qwen3-30B-A3B: experts not mapped yet
  CHECK(count[Exclusion::Gpu] == 8);       // RTX PRO 6000, RTX 4090; dense TensorRT-LLM runs on H200, B200, L40S
  CHECK(count[Exclusion::Lengths] == 12);  // SGLang's ShareGPT runs state no mean lengths
  for (const ValidationPoint& v : points)
    if (v.exclusion == Exclusion::None) CHECK_FALSE(v.serving.targets.empty());
}

TEST_CASE("A vLLM point takes vLLM V1's defaults and warms its reused prompts; its saturated runs keep throughput",
          "[llm][validation]") {
  const auto points = validation_points(500, EngineFilter::All);
  const ValidationPoint& v = by_id(points, "isim-llama2-7b-h100-tp1-general-r8");
  const EngineConfig& c = v.serving.config;
  CHECK(c.scheduler.max_num_seqs == 128);
  CHECK(c.scheduler.max_num_batched_tokens == 2048);
  CHECK(c.scheduler.enable_chunked_prefill);
  CHECK(c.kv_cache.enable_caching);
  CHECK(c.kv_cache.block_size == 16);
  CHECK(c.model.bytes_per_kv == 2.0);  // KV unstated: vLLM's auto, the model's 16 bits
  const WorkloadRecipe& w = v.serving.workload;
  CHECK(w.arrival == Arrival::Poisson);
  CHECK(w.num_requests == 500);  // 4,800 in the source, capped
  CHECK(w.num_warmup == 100);
  CHECK(w.reuse.distinct_prompts == 100);
  CHECK(w.prompt_tokens == 576);  // 575.5 rounded
  CHECK(keys(v) == std::vector<std::string>{"ttft_p50_ms", "e2e_p50_s", "output_tok_per_s"});
  CHECK(v.serving.targets.back().count_scale == 4800.0 / 500.0);  // throughput extrapolated to the source's count
  // Mean TTFT 1.78 x its median: long waits. Offered 4, completed 3.2 requests/s.
  CHECK(keys(by_id(points, "isim-llama2-70b-h100-tp4-general-r20")) == std::vector<std::string>{"output_tok_per_s"});
  CHECK(keys(by_id(points, "isim-codellama-34b-h100-tp2-reasoning-r4")) == std::vector<std::string>{"output_tok_per_s"});
}

TEST_CASE("TensorRT-LLM points take trtllm-build's defaults; a static batch runs as one batch; FP8 uses FP8's peak",
          "[llm][validation]") {
  const auto points = validation_points(500, EngineFilter::All);
  const ValidationPoint& inflight = by_id(points, "trtllm014-llama31-8b-h100-tp1-bf16-467-256-r8");
  CHECK(inflight.serving.config.scheduler.max_num_seqs == 2048);
  CHECK(inflight.serving.config.scheduler.max_num_batched_tokens == 8192);
  CHECK_FALSE(inflight.serving.config.scheduler.enable_chunked_prefill);
  CHECK(inflight.serving.config.kv_cache.block_size == 64);
  CHECK(inflight.arrival == ArrivalCode::RateAssumedPoisson);
  CHECK(keys(inflight) == std::vector<std::string>{"ttft_mean_ms", "itl_mean_ms", "output_tok_per_s"});
  const ValidationPoint& batch = by_id(points, "trtllm061-llama2-7b-a100-tp1-fp16-bs384-128-128");
  CHECK(batch.arrival == ArrivalCode::StaticBatch);
  CHECK(batch.serving.workload.num_requests == 384);
  CHECK(batch.serving.config.scheduler.max_num_seqs == 384);
  CHECK(batch.serving.config.scheduler.max_num_batched_tokens == 384 * 128);
  CHECK(batch.serving.config.tp.link_bytes_per_s == 300e9);  // an A100's NVLink, each way
  const ValidationPoint& fp8 = by_id(points, "trtllm017-llama31-8b-h100-tp1-fp8-128-128-max-throughput");
  CHECK(fp8.serving.config.gpu.peak_flop_per_s == 1979e12);
  CHECK(fp8.serving.config.model.bytes_per_weight == 1.0);
  CHECK(fp8.serving.workload.num_requests == 2000);  // a burst: 4 x the cap (30,000 in the source)
}

TEST_CASE("An engine filter takes only that engine's points; the rest are marked as another engine's",
          "[llm][validation]") {
  for (const auto& [filter, engine] : {std::pair{EngineFilter::Vllm, "vllm"}, std::pair{EngineFilter::TensorRtLlm, "tensorrt-llm"}})
    for (const ValidationPoint& v : validation_points(500, filter)) {
      const bool same = measured_points()[static_cast<std::size_t>(v.index)].engine == engine;
      CHECK((v.exclusion == Exclusion::Engine) == !same);
    }
}

TEST_CASE("A point's figures hardly move when its request cap goes from 500 to 2,000", "[llm][validation][.slow]") {
  // The cap of a Poisson point (and 4x it for a burst) is what keeps llm/validation within its budget: raising it
  // to 2,000 moves 44 of the 47 figures it changes by 3 % or less and none by 5 % at the page's default knobs
  // (measured: 4.4 % at most, a 7B TTFT median). At the knobs fitted on all points, a point near saturation moves
  // more (CodeLlama-34B at 20 requests/s: TTFT +13 %; the saturated 34B run's throughput +7.5 %), no other over 5 %.
  const auto a = validation_points(500, EngineFilter::All), b = validation_points(2000, EngineFilter::All);
  for (const StepKnobs& k : {page_default_knobs(), StepKnobs{0.5702, 0.8443, 0.1305e-3, 0.3319e-3}}) {
    int moved = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].exclusion != Exclusion::None || a[i].keys != b[i].keys ||
          a[i].serving.workload.num_requests == b[i].serving.workload.num_requests)
        continue;
      const Predictions pa = simulate_point(a[i].serving, k, 1 + i), pb = simulate_point(b[i].serving, k, 1 + i);
      for (std::size_t t = 0; t < pa.size(); ++t) moved += std::fabs(pa[t] / pb[t] - 1) > 0.05;
    }
    CHECK(moved <= (k.compute_efficiency == page_default_knobs().compute_efficiency ? 0 : 2));
  }
}
