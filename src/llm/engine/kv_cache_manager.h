#pragma once
// The KV-cache manager (vLLM v1 kv_cache_manager.py with one full-attention group). It owns each request's
// block table. allocate_slots gives a request blocks for the tokens it is about to compute, or nothing at all
// when the pool is short (the scheduler then preempts). get_computed_blocks finds the longest run of cached full
// blocks matching the request's tokens; at most num_tokens - 1 tokens can hit, so a request's last block is
// always recomputed (the model needs at least one token to produce logits). free returns a request's blocks
// tail first, so its last blocks are the first to be evicted.
//
// A second allocator for comparison: naive max-length reservation, as serving systems did before paging. A
// request takes blocks for `reserve_tokens_per_request` tokens (the maximum sequence length) at admission and
// never grows. We count its memory in blocks only to share the pool; the waste it shows is exactly that of a
// contiguous reservation (external fragmentation, which would make it worse, is not modelled).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llm/engine/block_pool.h"
#include "llm/workload/request.h"

namespace sl::llm {

struct KvCacheConfig {
  std::int64_t num_blocks = 0;
  std::int64_t block_size = 16;
  bool enable_caching = true;  ///< prefix caching (on by default in vLLM v1)
  /// 0: paged allocation. > 0: naive reservation of this many tokens per request (caching must be off).
  std::int64_t reserve_tokens_per_request = 0;
  /// Speculative decoding's drafts (scheduler.h): slots allocated for drafts a step rejected stay with the
  /// request for its next step's tokens (as vLLM's lookahead slots), so a request may hold the blocks of this
  /// many tokens beyond its computed ones.
  std::int64_t num_lookahead_tokens = 0;
};

/// A prefix-cache hit: the cached blocks and the tokens they hold.
struct ComputedBlocks {
  std::vector<BlockId> blocks;
  std::int64_t num_computed_tokens = 0;
};

/// Block tables of all requests over one BlockPool.
class KvCacheManager {
 public:
  explicit KvCacheManager(const KvCacheConfig& config);

  /// Longest prefix of the request's full blocks found in the cache, capped at num_tokens - 1 tokens. Touches
  /// nothing: the hit is claimed by allocate_slots.
  ComputedBlocks get_computed_blocks(Request& request);
  /// Blocks for `num_new_tokens` more tokens after the request's computed ones (and after `new_computed`, a hit
  /// from get_computed_blocks, for a request being admitted). Returns how many new blocks were taken, or
  /// std::nullopt, changing nothing, when the pool has too few free blocks (vLLM returns None; its blocks list
  /// becomes our count). With caching on, blocks that will be full after this step are cached now, as vLLM does.
  std::optional<std::int64_t> allocate_slots(Request& request, std::int64_t num_new_tokens,
                                             const ComputedBlocks& new_computed);
  /// The same without a hit. Most calls are a decode token that fits the blocks held, with no block to cache:
  /// that case is decided here, inline, without a division (the engine makes one call per sequence per step).
  std::optional<std::int64_t> allocate_slots(Request& request, std::int64_t num_new_tokens) {
    const auto i = static_cast<std::size_t>(request.request_id);
    if (i < tables_.size() && !is_naive_reservation()) {
      const RequestBlocks& t = tables_[i];
      const std::int64_t num_tokens_need_slot = request.num_computed_tokens + num_new_tokens;
      const bool fits = num_tokens_need_slot <= static_cast<std::int64_t>(t.blocks.size()) * config_.block_size;
      // cache_blocks would cache min(need, num_tokens) / block_size full blocks: none new below this.
      const std::int64_t num_tokens = request.num_tokens();
      const bool nothing_to_cache = !config_.enable_caching ||
                                    (num_tokens_need_slot < num_tokens ? num_tokens_need_slot : num_tokens) <
                                        (t.num_cached + 1) * config_.block_size;
      if (num_new_tokens > 0 && fits && nothing_to_cache) return std::int64_t{0};
    }
    return allocate_slots(request, num_new_tokens, ComputedBlocks{});
  }
  /// Releases every block of the request, last block first.
  void free(const Request& request);

  const std::vector<BlockId>& blocks_of(const Request& request) const;
  /// Blocks in all block tables together (a block shared by k tables counts k times).
  std::int64_t num_table_blocks() const { return num_table_blocks_; }
  const BlockPool& block_pool() const { return pool_; }
  std::int64_t block_size() const { return config_.block_size; }
  bool is_naive_reservation() const { return config_.reserve_tokens_per_request > 0; }

  /// Cross-checks block tables against the pool: each block's reference count equals the number of block tables
  /// (among `requests`, which must be every request) holding it; a block held twice must be a cached prefix
  /// block; no table holds a block twice; a request that is not running holds none; a running request holds
  /// exactly the blocks its computed tokens need (paged) or its reservation (naive). Empty string if all hold.
  std::string check_invariants(const std::vector<const Request*>& requests) const;

 private:
  std::vector<BlockId>& table(std::int32_t request_id);
  void cache_blocks(Request& request, std::int64_t num_tokens);
  std::optional<std::int64_t> allocate_reservation(Request& request, std::int64_t num_new_tokens);

  KvCacheConfig config_;
  BlockPool pool_;
  /// A request's block table and how many of its leading blocks are cached already.
  struct RequestBlocks {
    std::vector<BlockId> blocks;
    std::int64_t num_cached = 0;
  };
  std::vector<RequestBlocks> tables_;  // by request_id
  std::int64_t num_table_blocks_ = 0;
};

}  // namespace sl::llm
