#include "llm/engine/kv_cache_manager.h"

#include <catch2/catch.hpp>

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

Request make(std::int32_t id, std::vector<TokenSegment> prompt, std::int64_t max_tokens = 4) {
  Request r;
  r.request_id = id;
  r.prompt = std::move(prompt);
  for (const auto& s : r.prompt) r.num_prompt_tokens += s.length;
  r.output_content_id = 1000 + static_cast<std::uint64_t>(id);
  r.max_tokens = max_tokens;
  return r;
}

/// Admits a request as the scheduler does: prefix lookup, then slots for the rest of its tokens.
ComputedBlocks admit(KvCacheManager& kv, Request& r) {
  ComputedBlocks hit = kv.get_computed_blocks(r);
  REQUIRE(kv.allocate_slots(r, r.num_tokens() - hit.num_computed_tokens, hit).has_value());
  r.status = RequestStatus::Running;
  r.num_computed_tokens = r.num_tokens();
  return hit;
}

}  // namespace

TEST_CASE("allocate_slots gives blocks for the tokens about to be computed, one block per 16 tokens",
          "[llm][scheduler][kv_cache]") {
  KvCacheManager kv({10, 16, false, 0});
  Request r = make(0, {{1, 40}});
  CHECK(kv.allocate_slots(r, 40) == std::optional<std::int64_t>(3));  // ceil(40 / 16)
  r.num_computed_tokens = 40;
  CHECK(kv.allocate_slots(r, 8) == std::optional<std::int64_t>(0));   // up to 48 tokens: still 3 blocks
  r.num_computed_tokens = 48;
  CHECK(kv.allocate_slots(r, 1) == std::optional<std::int64_t>(1));   // the 49th token opens a 4th block
  CHECK(kv.blocks_of(r).size() == 4);
  CHECK(kv.block_pool().num_free_blocks() == 6);
}

TEST_CASE("allocate_slots returns nullopt and changes nothing when blocks are short", "[llm][scheduler][kv_cache]") {
  KvCacheManager kv({4, 16, true, 0});
  Request a = make(0, {{1, 48}});
  admit(kv, a);
  Request b = make(1, {{2, 20}});
  CHECK_FALSE(kv.allocate_slots(b, 20).has_value());  // needs 2 blocks, 1 free
  CHECK(kv.blocks_of(b).empty());
  CHECK(kv.block_pool().num_free_blocks() == 1);
  CHECK(kv.check_invariants({&a, &b}).empty());
}

TEST_CASE("A shared prompt hits the cache in whole blocks, and the last block is always recomputed",
          "[llm][scheduler][kv_cache]") {
  KvCacheManager kv({32, 16, true, 0});
  Request a = make(0, {{7, 40}});
  admit(kv, a);
  SECTION("40 shared tokens: 2 full blocks (32 tokens) hit, the partial third is recomputed") {
    Request b = make(1, {{7, 40}, {8, 10}});
    const ComputedBlocks hit = admit(kv, b);
    CHECK(hit.num_computed_tokens == 32);
    CHECK(hit.blocks == std::vector<BlockId>(kv.blocks_of(a).begin(), kv.blocks_of(a).begin() + 2));
    CHECK(kv.block_pool().ref_cnt(hit.blocks[0]) == 2);
    CHECK(kv.check_invariants({&a, &b}).empty());
  }
  SECTION("an identical 32-token prompt hits only 16: at most num_tokens - 1 tokens can come from the cache") {
    Request c = make(2, {{9, 32}});
    admit(kv, c);
    Request d = make(3, {{9, 32}});
    CHECK(kv.get_computed_blocks(d).num_computed_tokens == 16);
  }
}

TEST_CASE("Block hashes chain to the parent: equal tokens after a different prefix do not hit",
          "[llm][scheduler][kv_cache]") {
  KvCacheManager kv({32, 16, true, 0});
  Request a = make(0, {{1, 16}, {5, 16}, {6, 1}});
  admit(kv, a);
  // Same second block (content 5, positions 0..15) but a different first block.
  Request b = make(1, {{2, 16}, {5, 16}, {6, 1}});
  CHECK(kv.get_computed_blocks(b).num_computed_tokens == 0);
  // The same three segments hit both full blocks.
  Request c = make(2, {{1, 16}, {5, 16}, {6, 1}});
  CHECK(kv.get_computed_blocks(c).num_computed_tokens == 32);
}

TEST_CASE("Only full blocks are cached; generated tokens are cached as their blocks fill",
          "[llm][scheduler][kv_cache]") {
  KvCacheManager kv({32, 16, true, 0});
  Request a = make(0, {{1, 20}}, 20);
  admit(kv, a);
  CHECK(kv.block_pool().num_cached_blocks() == 1);  // 20 tokens: one full block
  // Generate up to 32 tokens: the second block fills with 4 prompt and 12 generated tokens.
  while (a.num_tokens() < 33) {
    a.num_output_tokens += 1;
    REQUIRE(kv.allocate_slots(a, 1).has_value());
    a.num_computed_tokens += 1;
  }
  CHECK(kv.block_pool().num_cached_blocks() == 2);
  // A follow-up whose prompt is a's prompt and those 13 answer tokens finds both blocks.
  Request b = make(1, {{1, 20}, {a.output_content_id, 13}, {99, 5}});
  CHECK(kv.get_computed_blocks(b).num_computed_tokens == 32);
}

TEST_CASE("free returns a request's blocks last block first, so its tail is evicted first",
          "[llm][scheduler][kv_cache]") {
  KvCacheManager kv({3, 16, true, 0});
  Request a = make(0, {{1, 48}});
  admit(kv, a);
  const std::vector<BlockId> blocks = kv.blocks_of(a);
  kv.free(a);
  a.status = RequestStatus::Finished;
  CHECK(kv.block_pool().num_free_blocks() == 3);
  CHECK(kv.check_invariants({&a}).empty());
  Request b = make(1, {{2, 16}});  // one new block: must evict a's last block, keeping its first two
  admit(kv, b);
  CHECK(kv.blocks_of(b) == std::vector<BlockId>{blocks[2]});
  Request c = make(2, {{1, 48}});
  CHECK(kv.get_computed_blocks(c).num_computed_tokens == 32);
}

TEST_CASE("Naive reservation takes max_model_len tokens of blocks at admission and never grows",
          "[llm][scheduler][kv_cache]") {
  KvCacheManager kv({300, 16, false, 2048});
  Request a = make(0, {{1, 100}}, 50);
  CHECK(kv.allocate_slots(a, 100) == std::optional<std::int64_t>(128));  // 2,048 / 16
  a.status = RequestStatus::Running;
  a.num_computed_tokens = 100;
  a.num_output_tokens = 1;
  CHECK(kv.allocate_slots(a, 1) == std::optional<std::int64_t>(0));
  a.num_computed_tokens = 101;
  CHECK(kv.check_invariants({&a}).empty());
  Request b = make(1, {{2, 10}});
  CHECK(kv.allocate_slots(b, 10).has_value());   // 172 free: fits
  Request c = make(2, {{3, 10}});
  CHECK_FALSE(kv.allocate_slots(c, 10).has_value());  // 44 free: a reservation needs 128
}

}  // namespace SL_UNITY_ID
