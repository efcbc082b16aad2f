#include "llm/engine/block_pool.h"

#include <catch2/catch.hpp>
#include <map>

#include "core/rng.h"
#include "llm/engine/block_hash_map.h"

namespace SL_UNITY_ID {

using sl::llm::BlockHashMap;
using sl::llm::BlockId;
using sl::llm::BlockPool;

namespace {

std::vector<BlockId> take(BlockPool& pool, std::int64_t n) {
  std::vector<BlockId> out;
  pool.get_new_blocks(n, out);
  return out;
}

}  // namespace

TEST_CASE("A new pool has every block free, in block-id order", "[llm][scheduler][block_pool]") {
  BlockPool pool(8, true);
  CHECK(pool.num_free_blocks() == 8);
  CHECK(pool.num_used_blocks() == 0);
  CHECK(pool.check_invariants().empty());
  CHECK(take(pool, 3) == std::vector<BlockId>{0, 1, 2});
  CHECK(pool.num_free_blocks() == 5);
  CHECK(pool.ref_cnt(0) == 1);
  CHECK(pool.check_invariants().empty());
}

TEST_CASE("With caching, freed blocks join the tail of the free queue, so the least recently freed is reused first",
          "[llm][scheduler][block_pool]") {
  BlockPool pool(4, true);
  const auto a = take(pool, 4);
  // Freed in the order given: 2 first, then 0, 3, 1.
  const std::vector<BlockId> order{2, 0, 3, 1};
  pool.free_blocks(order.begin(), order.end());
  CHECK(pool.num_free_blocks() == 4);
  CHECK(take(pool, 4) == order);
  CHECK(pool.check_invariants().empty());
}

TEST_CASE("Without caching, the most recently freed block is reused first", "[llm][scheduler][block_pool]") {
  BlockPool pool(5, false);
  const auto a = take(pool, 4);
  const std::vector<BlockId> order{2, 0, 3, 1};
  pool.free_blocks(order.begin(), order.end());
  CHECK(pool.num_free_blocks() == 5);
  CHECK(take(pool, 5) == std::vector<BlockId>{1, 3, 0, 2, 4});  // last freed first; the never-used block last
  CHECK(pool.check_invariants().empty());
}

TEST_CASE("A cached block stays findable after its last holder frees it, until it is handed out again",
          "[llm][scheduler][block_pool]") {
  BlockPool pool(2, true);
  const auto a = take(pool, 1);
  pool.cache_full_block(a[0], 0xabc);
  CHECK(pool.get_cached_block(0xabc) == a[0]);
  pool.free_blocks(a.begin(), a.end());
  CHECK(pool.num_free_blocks() == 2);           // an eviction candidate counts as free
  CHECK(pool.get_cached_block(0xabc) == a[0]);  // ... but its KV is still there
  SECTION("a prefix hit takes it back out of the free queue") {
    pool.touch(a);
    CHECK(pool.ref_cnt(a[0]) == 1);
    CHECK(pool.num_free_blocks() == 1);
    CHECK(pool.check_invariants().empty());
  }
  SECTION("allocation reaches it last (LRU) and evicts its hash") {
    CHECK(take(pool, 1) == std::vector<BlockId>{1});  // the never-used block goes first
    CHECK(pool.get_cached_block(0xabc) == a[0]);
    CHECK(take(pool, 1) == a);
    CHECK_FALSE(pool.get_cached_block(0xabc).has_value());
    CHECK_FALSE(pool.is_cached(a[0]));
    CHECK(pool.num_cached_blocks() == 0);
    CHECK(pool.check_invariants().empty());
  }
}

TEST_CASE("Two holders of one cached block: it is free only when both let go", "[llm][scheduler][block_pool]") {
  BlockPool pool(3, true);
  const auto a = take(pool, 1);
  pool.cache_full_block(a[0], 7);
  pool.touch(a);
  CHECK(pool.ref_cnt(a[0]) == 2);
  pool.free_blocks(a.begin(), a.end());
  CHECK(pool.num_free_blocks() == 2);
  pool.free_blocks(a.begin(), a.end());
  CHECK(pool.num_free_blocks() == 3);
  CHECK(pool.ref_cnt(a[0]) == 0);
  CHECK(pool.check_invariants().empty());
}

TEST_CASE("A second block with the same tokens is not cached twice", "[llm][scheduler][block_pool]") {
  BlockPool pool(2, true);
  const auto a = take(pool, 2);
  pool.cache_full_block(a[0], 42);
  pool.cache_full_block(a[1], 42);
  CHECK(pool.get_cached_block(42) == a[0]);
  CHECK(pool.is_cached(a[0]));
  CHECK_FALSE(pool.is_cached(a[1]));
  CHECK(pool.num_cached_blocks() == 1);
  CHECK(pool.check_invariants().empty());
}

TEST_CASE("The block hash map agrees with std::map over random inserts and erases", "[llm][scheduler][block_pool]") {
  // 300 keys over a 128-slot table: homes collide often, which exercises probe runs, wrap-around and backward
  // shifts on erase.
  BlockHashMap map(64);
  std::map<std::uint64_t, std::int32_t> ref;
  sl::Rng rng(11);
  const auto agree = [&] {
    for (std::uint64_t k = 0; k < 300 * 43; k += 43) {
      const auto found = map.find(k);
      if (found.has_value() != (ref.count(k) == 1)) return false;
      if (found && *found != ref[k]) return false;
    }
    return map.size() == static_cast<std::int64_t>(ref.size());
  };
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t key = rng.below(300) * 43;
    if (ref.count(key)) {
      map.erase(key, ref[key]);
      ref.erase(key);
    } else if (ref.size() < 64) {
      REQUIRE(map.insert(key, static_cast<std::int32_t>(i)));
      ref[key] = static_cast<std::int32_t>(i);
    }
    if (i % 100 == 0) REQUIRE(agree());
  }
  CHECK(agree());
  CHECK_FALSE(map.insert(ref.begin()->first, 1));  // present keys are not overwritten
}

}  // namespace SL_UNITY_ID
