// The published points as the simulator runs them (validation_points.h): which are modelled and why the others are
// not, the engine defaults that fill what a source leaves unstated, and the figures compared.
#include "llm/calibration/validation_points.h"

#include <catch2/catch.hpp>

#include "llm/model/model_architecture.h"

#include <map>

namespace SL_UNITY_ID {

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

TEST_CASE("70 of the 90 published points are modelled: no GPU preset for 3, unstated weights 2, no lengths 12, "
          "timeouts 3", "[llm][validation]") {
  const auto points = validation_points(500, EngineFilter::All);
  REQUIRE(points.size() == measured_points().size());
  std::map<Exclusion, int> count;
  for (const ValidationPoint& v : points) ++count[v.exclusion];
  CHECK(count[Exclusion::None] == 70);  // 62 before inference-sim/training's other 11 stages (8 modelled)
  CHECK(count[Exclusion::Moe] == 0);        // Mixtral 8x7B, gpt-oss, Qwen3-30B-A3B: each has a preset
  CHECK(count[Exclusion::Gpu] == 3);        // RTX PRO 6000 (2), RTX 4090
  CHECK(count[Exclusion::Precision] == 2);  // gpt-oss-20b on an H100, gpt-oss-120b on an H200: weights unstated
  CHECK(count[Exclusion::Lengths] == 12);   // SGLang's ShareGPT runs state no mean lengths
  CHECK(count[Exclusion::Failures] == 3);   // inference-sim's reasoning runs of Llama-2-7B, Llama-2-70B, Mixtral-8x7B
  CHECK(by_id(points, "isim-llama2-7b-h100-tp1-reasoning-r4").exclusion == Exclusion::Failures);  // 4,068 of 4,800
  CHECK(by_id(points, "isim-codellama-34b-h100-tp2-reasoning-r4").exclusion == Exclusion::None);  // 4 of 4,800
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
  // max_tokens 248 with EOS ignored: the server generated 248 tokens a request, whatever the client's re-tokenized
  // count (a mean of 210.0); its throughput is compared in the client's tokens.
  CHECK(w.output_tokens == 248);
  CHECK(v.serving.targets.back().client_tokens_per_token == Approx(210.0 / 248.0));
  // The means, as BLIS and the issue compare them, and the E2E tail.
  CHECK(keys(v) == std::vector<std::string>{"ttft_mean_ms", "e2e_mean_s", "e2e_p99_s", "output_tok_per_s"});
  CHECK(v.serving.targets[2].stat == Stat::P99);
  CHECK(v.serving.targets.back().count_scale == 4800.0 / 500.0);  // throughput extrapolated to the source's count
  // The mechanisms a vLLM server has (step_time.h), and a client that times the request outside the engine.
  CHECK(c.gpu.layer_tax_every_step);
  CHECK(c.gpu.cuda_graph_padding);
  CHECK(c.gpu.lm_head_and_embedding);
  CHECK(c.model.embedding_params == 32'000LL * 4096);  // from the point's config.json: Llama-2's untied tables
  CHECK_FALSE(c.model.tied_embeddings);
  CHECK(v.serving.client_timed);
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
  CHECK(batch.serving.config.tp.direct_all_reduce);            // NVLink-class: the engine's own all-reduce
  CHECK_FALSE(batch.serving.client_timed);                     // gptSessionBenchmark times inside the process
  CHECK(inflight.serving.client_timed);
  CHECK_FALSE(inflight.serving.config.gpu.cuda_graph_padding);  // TensorRT-LLM's C++ runtime: no graphs by default
  CHECK_FALSE(inflight.serving.config.gpu.low_precision_peak);  // BF16 weights: the 16-bit peak
  const ValidationPoint& fp8 = by_id(points, "trtllm017-llama31-8b-h100-tp1-fp8-128-128-max-throughput");
  CHECK(fp8.serving.config.gpu.peak_flop_per_s == 1979e12);
  CHECK(fp8.serving.config.gpu.low_precision_peak);
  CHECK(fp8.serving.config.model.bytes_per_weight == 1.0);
  CHECK(fp8.serving.workload.num_requests == 2000);  // a burst: 4 x the cap (30,000 in the source)
}

TEST_CASE("A measured SKU names its GPU preset by its first words; one without a preset names none",
          "[llm][validation]") {
  const auto id = [](const std::string& sku) {
    const GpuPreset* p = gpu_preset_of(sku);
    return p == nullptr ? std::string("none") : p->id;
  };
  CHECK(id("H100 SXM 80GB (NVIDIA-H100-80GB-HBM3)") == "h100");
  CHECK(id("H100 80GB (README: '4 x H100 80G'; SXM or PCIe not stated)") == "h100");  // the quote is not read
  CHECK(id("H100 PCIe 80GB") == "h100-pcie");
  CHECK(id("A100 80GB (form factor and memory size not stated)") == "a100");
  CHECK(id("A100 SXM 40GB") == "a100-40gb");
  CHECK(id("H200 SXM 141GB (table column 'H200 141GB HBM3'; form factor not stated, HBM3e per NVIDIA's datasheet)") == "h200");
  CHECK(id("B200 180GB (page's hardware list: 'B200 180GB (DGX B200)')") == "b200");
  CHECK(id("L40S 48GB (table column 'L40S'; PCIe card)") == "l40s");
  CHECK(id("AMD Instinct MI300X 192GB") == "mi300x");
  CHECK(id("GeForce RTX 4090 24GB") == "none");
  CHECK(id("RTX PRO 6000 Blackwell Server Edition 96GB") == "none");
}

TEST_CASE("A mixture of experts runs as its preset's architecture; a GPU as its preset, at its FP8 or FP4 peak",
          "[llm][validation]") {
  const auto points = validation_points(500, EngineFilter::All);
  // Mixtral 8x7B, FP8 on one H100: 8 experts, 2 a token, in 32 MoE layers; FLOPs of 12.9 B active weights less the
  // input embedding; the H100's FP8 peak.
  const ValidationPoint& mixtral = by_id(points, "trtllm017-mixtral-8x7b-h100-tp1-fp8-1000-1000-max-throughput");
  REQUIRE(mixtral.exclusion == Exclusion::None);
  const ModelSpec& model = mixtral.serving.config.model;
  CHECK(model.num_experts == 8);
  CHECK(model.experts_per_token == 2);
  CHECK(model.num_moe_layers == 32);
  CHECK(model.params == count_architecture(find_model_preset("mixtral-8x7b")->arch).total_params);
  CHECK(model.bytes_per_weight == 1.0);
  CHECK_FALSE(mixtral.serving.config.tp.expert_parallel);  // TensorRT-LLM's default: experts split like the rest
  CHECK(mixtral.serving.config.gpu.peak_flop_per_s == 1979e12);
  // An L40S computes FP8 at its 733 TFLOP/s and all-reduces over PCIe, 32 GB/s each way.
  const ValidationPoint& l40s = by_id(points, "trtllm017-mixtral-8x7b-l40s-tp4-fp8-1000-1000-max-throughput");
  CHECK(l40s.serving.config.gpu.peak_flop_per_s == 733e12);
  CHECK(l40s.serving.config.tp.link_bytes_per_s == 32e9);
  CHECK_FALSE(l40s.serving.config.tp.direct_all_reduce);  // PCIe: no NVSwitch, NCCL's ring
  // FP4 on a B200: half a byte a weight, at its FP4 peak of 9,000 TFLOP/s.
  const ValidationPoint& qwen = by_id(points, "trtllm-pt-qwen3-30b-a3b-b200-tp1-fp4-1024-1024-max-throughput");
  CHECK(qwen.serving.config.model.bytes_per_weight == 0.5);
  CHECK(qwen.serving.config.gpu.peak_flop_per_s == 9000e12);
  CHECK(qwen.serving.config.gpu.memory_bytes == find_gpu_preset("b200")->spec.memory_bytes);
  // A dense point keeps its total count as the file gives it (the earlier points' figures stay).
  const ValidationPoint& dense = by_id(points, "trtllm017-llama31-8b-h200-tp1-fp8-1000-1000-max-throughput");
  CHECK(dense.serving.config.model.params == std::llround(measured_points()[static_cast<std::size_t>(dense.index)].params_b * 1e9));
  CHECK(dense.serving.config.model.num_experts == 0);
  CHECK(by_id(points, "trtllm-pt-gpt-oss-20b-h100-tp1-1024-1024-max-throughput").exclusion == Exclusion::Precision);
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
  // to 2,000 moves 55 of the 60 figures it changes by 3 % or less and none by 5 % at the page's default knobs
  // (measured: 4.8 % at most, Llama-3.1-70B's FP8 burst on H200s). At the knobs fitted on the 49 points before
  // issue 36, a point near saturation moves more (CodeLlama-34B at 20 requests/s: TTFT +13 %; the saturated 34B
  // run's throughput +7.5 %), and so do the two dense FP8 bursts of 1,000/1,000 tokens on H200s (-5.2 % and -6.2 %:
  // 2,000 of their 3,000 requests, the burst cap, leave a relatively longer tail); no other over 5 %. Since
  // inference-sim's Mixtral-8x7B runs joined, at those knobs its 20 requests/s point, near saturation, moves too
  // (TTFT -9.7 %): 5 figures; at the default knobs none of the new ones moves over 3.5 %.
  // Since issue 37 (inference-sim's runs generate their 248 tokens, the servers' mechanisms on, E2E p99 compared):
  // at the default knobs CodeLlama-34B at 20 requests/s is near saturation, and its TTFT moves +109 % and its E2E p99
  // +5.2 % (2 figures; the p99s of 500 requests move up to 4.9 % elsewhere); at a knob set vLLM's runs fitted in
  // issue 37's work,
  // Llama-2-7B's E2E p99 moves -10 % at 20 requests/s and -5.1 % at 10, and two FP8 bursts on H200s -5.2 and -6.1 %
  // (4 figures).
  const auto a = validation_points(500, EngineFilter::All), b = validation_points(2000, EngineFilter::All);
  for (const StepKnobs& k : {book_knobs(), StepKnobs{0.7925, 1.0, 0.09454e-3, 1.801e-3, 0, 16.58e-3, 0, 1}}) {
    int moved = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].exclusion != Exclusion::None || a[i].keys != b[i].keys ||
          a[i].serving.workload.num_requests == b[i].serving.workload.num_requests)
        continue;
      const Predictions pa = simulate_point(a[i].serving, k, 1 + i), pb = simulate_point(b[i].serving, k, 1 + i);
      for (std::size_t t = 0; t < pa.size(); ++t) moved += std::fabs(pa[t] / pb[t] - 1) > 0.05;
    }
    CHECK(moved <= (k.compute_efficiency == book_knobs().compute_efficiency ? 2 : 4));
  }
}

}  // namespace SL_UNITY_ID
