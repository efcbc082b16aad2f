// Benchmark (not a test): time the continuous-batching engine on 10,000 requests of the default workload of
// llm/continuous-batching (Llama-3-8B INT4 on an H100, 72 GiB KV = 36,864 blocks of 16 tokens, lambda = 18/s,
// prompts lognormal mean 1,000 CV 0.5, answers lognormal mean 256 CV 1, max_model_len 2,048, vLLM scheduler
// defaults). Target (issue 5): under 0.3 s in the browser, i.e. about 0.15 s natively. Prints the best of 5, as wall
// time and as this process's CPU time (std::clock), which a machine shared with other jobs inflates less.
//   ninja -C build/<dir> bench_continuous_batching && build/<dir>/bench_continuous_batching [num_requests]
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>

#include "llm/engine/engine.h"
#include "llm/engine/serving_metrics.h"

int main(int argc, char** argv) {
  using namespace sl::llm;
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 10'000;
  OpenLoopParams w;
  w.num_requests = n;
  w.rate_per_s = 18;
  w.prompt_tokens = sl::Distribution::lognormal_mean_cv(1000, 0.5);
  w.output_tokens = sl::Distribution::lognormal_mean_cv(256, 1.0);
  w.max_model_len = 2048;
  EngineConfig c;
  c.model = llama3_8b();
  c.gpu = h100();
  c.kv_cache.num_blocks = 36'864;
  c.kv_cache.block_size = 16;
  c.kv_cache.enable_caching = true;
  c.series_bucket_s = static_cast<double>(n) / w.rate_per_s / 400;
  double best_s = 1e30, best_cpu_s = 1e30;
  ServingSummary s;
  std::int64_t steps = 0;
  for (int rep = 0; rep < 5; ++rep) {
    sl::RunControl ctl;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    Workload workload = make_open_loop(w, 1);
    const EngineRun run = run_continuous(c, workload, ctl);
    s = summarize(run);
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    if (dt < best_s) best_s = dt;
    if (cpu_s < best_cpu_s) best_cpu_s = cpu_s;
    steps = run.num_steps;
  }
  std::printf("continuous batching, %lld requests, %lld steps: best of 5 = %.1f ms CPU, %.1f ms wall (%.1f ns CPU per "
              "request-step)\n",
              static_cast<long long>(n), static_cast<long long>(steps), best_cpu_s * 1e3, best_s * 1e3,
              best_cpu_s * 1e9 / (static_cast<double>(steps) * s.mean_batch));
  std::printf("  tok/s %.0f  ttft p50 %.1f ms  tpot p50 %.2f ms  e2e p99 %.2f s  mean batch %.1f  preemptions %lld\n",
              s.output_tok_per_s, s.ttft_p50_s * 1e3, s.tpot_p50_s * 1e3, s.e2e_p99_s, s.mean_batch,
              static_cast<long long>(s.num_preemptions));
  // The same as one JSON line, for bench/engine_speed.mjs (requests/s and steps/s beside the wasm module's).
  std::printf("{\"requests\": %lld, \"steps\": %lld, \"cpu_s\": %.6f, \"wall_s\": %.6f, \"tok_per_s\": %.17g}\n",
              static_cast<long long>(n), static_cast<long long>(steps), best_cpu_s, best_s, s.output_tok_per_s);
  return 0;
}
