#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "llm/model/step_time.h"

namespace SL_UNITY_ID {

namespace {

const cell_test::Cell cell{"llm/batched-decode"};

/// A column of the cell's only table.
const std::vector<double>& column(const sl::RunResult& r, const std::string& name) {
  return cell_test::column(r, r.tables.at(0).name, name);
}

}  // namespace

TEST_CASE("Batched decode at batch 1 is the case study's TPOT, 1.57 ms", "[llm][model][book]") {
  const auto r = cell.run();
  cell.check_book(r, "tpot_b1_ms");  // printed to 0.01 ms
  cell.check_book(r, "ttft_ms");
  CHECK_THAT(out(r, "tok_per_s_b1"), WithinRel(1e3 / out(r, "tpot_b1_ms"), 1e-12));
}

TEST_CASE("Batched decode: throughput rises with batch towards its ceiling, TPOT grows", "[llm][model]") {
  const auto r = cell.run();
  const auto& batch = column(r, "batch");
  const auto& tok = column(r, "tok_per_s");
  const auto& tpot = column(r, "tpot_ms");
  REQUIRE(batch.size() <= 401);
  CHECK(batch.front() == 1);
  CHECK(batch.back() == 512);
  const double ceiling = out(r, "ceiling_tok_per_s");
  for (std::size_t i = 1; i < batch.size(); ++i) {
    CHECK(tok[i] > tok[i - 1]);
    CHECK(tpot[i] > tpot[i - 1]);
    CHECK(tok[i] < ceiling);
    CHECK_THAT(tok[i], WithinRel(batch[i] / tpot[i] * 1e3, 1e-12));
  }
  // Ceiling: one over the per-sequence KV read, 3.35e12 / (131,072 x 1,256) = 20,349 tokens/s (memory-bound).
  CHECK_THAT(ceiling, WithinRel(3.35e12 / (131'072.0 * 1256), 1e-12));
  // Knee: T(B) = a + bB with a = 1.1985 + 0.32 ms, b = 49.14 us; half the ceiling at B = a / b = 30.9 -> 31.
  CHECK(out(r, "knee_batch") == 31);
  CHECK(has_notice(r, "memory_bound"));
  CHECK(r.find_output("compute_bound_batch") == nullptr);
}

TEST_CASE("Batched decode: memory caps the batch before the 50 ms TPOT target does", "[llm][model]") {
  const auto r = cell.run();
  // The book's 72 GiB KV reserve: 72 GiB / 131,072 B = 589,824 tokens, / 1,256 = 469.6 sequences (kv_memory.h).
  CHECK(out(r, "max_batch_memory") == 469);
  CHECK(out(r, "max_batch_slo") == 469);
  CHECK(out(r, "tpot_at_max_ms") < 50);
  CHECK(out(r, "tok_per_s_at_max") > 1000);
  CHECK(out(r, "min_batch_target") == 2);  // batch 1: 638 tokens/s; batch 2: 1,227 tokens/s
  SECTION("a tight TPOT target binds first") {
    const auto tight = cell.run({{"tpot_slo_ms", "10"}});
    // 10 ms = 1.5185 ms + B x 0.049144 ms -> B = 172.6 -> 172.
    CHECK(tight.find_output("max_batch_slo") != nullptr);
    CHECK(out(tight, "max_batch_slo") == 172);
    CHECK(out(tight, "tpot_at_max_ms") <= 10);
  }
}

TEST_CASE("Batched decode holds as many sequences as the case study's KV reserve: one memory model for both",
          "[llm][model]") {
  const cell_test::Cell case_study{"llm/llama3-8b-case"};
  // The same setup (Llama-3-8B INT4 on an H100, 1,000 + 256 tokens, the book's 72 GiB reserve): 469 in both;
  // sizing the cache as the whole HBM minus the weights gave 497 here.
  CHECK(out(cell.run(), "max_batch_memory") == out(case_study.run(), "concurrent_requests"));
  for (const char* gib : {"20", "40", "76"}) {
    const auto r = cell.run({{"kv_reserve_gib", gib}});
    const auto c = case_study.run({{"kv_reserve_gib", gib}});
    CHECK(out(r, "max_batch_memory") == out(c, "concurrent_requests"));
  }
  // 20 GiB / (131,072 B x 1,256) = 130.4 -> 130 sequences.
  CHECK(out(cell.run({{"kv_reserve_gib", "20"}}), "max_batch_memory") == 130);
  // A reserve beyond the 76.3 GiB left beside the weights is an error naming the reserve.
  CHECK(cell.error({{"kv_reserve_gib", "77"}}).param == "kv_reserve_gib");
  CHECK(case_study.error({{"kv_reserve_gib", "77"}}).param == "kv_reserve_gib");
}

TEST_CASE("Batched decode: short contexts turn the step compute-bound where the roofs cross", "[llm][model]") {
  const auto r = cell.run({{"context", "100"}});
  // memory: 1.1985 ms + B x 3.91 us; compute: B x 40.7 us at 0.4 x 989 TFLOP/s -> cross at B = 32.6 -> 33.
  REQUIRE(r.find_output("compute_bound_batch") != nullptr);
  const double b = out(r, "compute_bound_batch");
  CHECK(b == 33);
  const auto m = sl::llm::llama3_8b();
  const auto g = sl::llm::h100();
  auto step = [&](std::int64_t batch) {
    sl::llm::StepWork w;
    w.num_decode_seqs = batch;
    w.decode_context_tokens = batch * 100;
    return sl::llm::step_time(m, g, w);
  };
  CHECK(step(33).is_compute_bound());
  CHECK_FALSE(step(32).is_compute_bound());
}

TEST_CASE("Batched decode: impossible inputs are errors, unreachable targets are notices", "[llm][model]") {
  SECTION("a context whose KV exceeds the memory") {
    const auto e = cell.error({{"context", "10000000"}});
    CHECK(e.code == "too_large");
    CHECK(e.param == "context");
  }
  SECTION("FP16 70B weights on one GPU") {
    CHECK(cell.error({{"model", "llama3.1-70b"}, {"weights", "fp16"}}).param == "weights");
  }
  SECTION("a TPOT target below one step") {
    const auto r = cell.run({{"tpot_slo_ms", "1"}});
    CHECK(out(r, "max_batch_slo") == 0);
    CHECK(has_notice(r, "slo_unreachable"));
    CHECK(has_notice(r, "target_unreachable"));
  }
  cell_test::check_bad_input(cell, {"a largest batch of no sequences", {{"max_batch", "0"}}, "", "max_batch"});
}

TEST_CASE("Batched decode: the result table has the powers of two up to the largest batch, at most 12 rows",
          "[llm][model]") {
  const auto r = cell.run();
  const auto& batch = cell_test::column(r, "batches", "batch");
  const auto& fits = cell_test::column(r, "batches", "fits");
  // Defaults: 1, 2, 4, ..., 512; 512 sequences of 1,256 tokens overflow the KV reserve (469 fit), the others fit.
  REQUIRE(batch.size() == 10);
  CHECK(batch.back() == 512);
  CHECK(fits.back() == 0);
  CHECK(fits[batch.size() - 2] == 1);
  const auto wide = cell.run({{"max_batch", "1000000"}});
  const auto& many = cell_test::column(wide, "batches", "batch");
  CHECK(many.size() <= 12);
  for (std::size_t i = 1; i < many.size(); ++i) CHECK(many[i] == 4 * many[i - 1]);  // every other power of two
}

}  // namespace SL_UNITY_ID
