#include "llm/engine/serving_setup.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "cell_runner.h"
#include "core/units.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

const InputsOf inputs{serving_hardware_params()};

TEST_CASE("Book: the 72 GiB KV reserve holds 589,824 tokens of Llama-3-8B, 36,864 blocks of 16", "[llm][serving_setup][book]") {
  const auto hw = validate_serving_hardware(inputs({}), 2048, "max_model_len");
  REQUIRE(hw.ok());
  // 72 x 2^30 B / (2 x 32 layers x 8 KV heads x 128 x 2 B = 131,072 B per token), exact (§21).
  CHECK(hw.value().kv_bytes_per_token == 131072);
  CHECK(hw.value().pool_tokens == cell_test::book_value("llm/continuous-batching", "kv_pool_tokens"));
  CHECK(hw.value().num_blocks == hw.value().pool_tokens / 16);
}

TEST_CASE("Blocks are whole: a pool of 1,000 tokens in blocks of 64 has 15 blocks", "[llm][serving_setup]") {
  // 1,000 x 131,072 B = 0.1220703125 GiB exactly, so the pool is exactly 1,000 tokens; floor(1,000 / 64) = 15.
  const auto hw = validate_serving_hardware(inputs({{"kv_gib", "0.1220703125"}, {"block_size", "64"}}), 900, "x");
  REQUIRE(hw.ok());
  CHECK(hw.value().pool_tokens == 1000);
  CHECK(hw.value().num_blocks == 15);
  // 960 tokens in whole blocks: a request of 961 no longer fits.
  const auto too_small = validate_serving_hardware(inputs({{"kv_gib", "0.1220703125"}, {"block_size", "64"}}), 961, "x");
  REQUIRE_FALSE(too_small.ok());
  CHECK(too_small.error().code == "invalid");
  CHECK(too_small.error().param == "kv_gib");
}

TEST_CASE("A KV reserve that does not fit beside the weights is too large, with the room left as its max",
          "[llm][serving_setup]") {
  // Llama-3.1-70B INT4 weighs 35.3 GB; the H100 has 80 GiB: the room is (80 x 2^30 - weights) / 2^30 GiB.
  const auto hw = validate_serving_hardware(inputs({{"model", "llama3.1-70b"}}), 2048, "max_model_len");
  REQUIRE_FALSE(hw.ok());
  CHECK(hw.error().code == "too_large");
  CHECK(hw.error().param == "kv_gib");
  const double room_gib =
      static_cast<double>(h100().memory_bytes - llama31_70b().weight_bytes()) / sl::units::kGiB;
  bool has_max = false;
  for (const auto& [key, value] : hw.error().args)
    if (key == "max") has_max = value == sl::format_number(std::floor(room_gib * 100) / 100);
  CHECK(has_max);
}

}  // namespace SL_UNITY_ID
