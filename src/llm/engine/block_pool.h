#pragma once
// The pool of KV-cache blocks (vLLM v1 block_pool.py). Every block has a reference count: the number of running
// requests whose block table holds it. Blocks no request holds sit in the free queue, in eviction order (least
// recently freed first). With prefix caching, a full block also carries the hash of its tokens (chained to its
// parent block's hash) and is findable by that hash while its KV is intact, even after its last holder frees
// it: it stays in the free queue as an eviction candidate and is evicted (its hash forgotten) only when the
// free queue hands it out again. Hence LRU eviction of unreferenced cached blocks.
//
// Without prefix caching no block carries a hash, so which free block is handed out cannot reach any result (only
// how many are free): the free queue is then a stack, the most recently freed block handed out first, whose state
// is still in the CPU's cache (the least recently freed of a large pool never is; a fleet of ten pools spent a
// third of its time on those misses). The stack is a vector of block ids, not the linked list, so handing a block
// out or freeing it touches that block alone, not its neighbour in the list too. And a block's reference count
// is all such a pool keeps of it (4 bytes, 16 blocks to a cache line): freeing a finished request's blocks,
// handed out over its whole life, read a 24-byte record each, a cache miss apiece (12 % of llm/fleet's time
// in a profile). The list links and hashes live apart, and only with caching. A block is in the free queue
// exactly when no request holds it, so that needs no flag of its own.
//
// Where we differ from vLLM: no null block (vLLM reserves block 0 as a placeholder, so it has one block less);
// and a block that becomes full with a hash already in the cache is not cached a second time (vLLM keeps both
// in a per-hash dict and always returns the first, so lookups find the same block either way).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llm/engine/block_hash_map.h"

namespace sl::llm {

using BlockId = std::int32_t;

/// A fixed pool of KV blocks with reference counts, an LRU free queue and a prefix-cache map.
class BlockPool {
 public:
  BlockPool(std::int64_t num_blocks, bool enable_caching);

  std::int64_t num_blocks() const { return static_cast<std::int64_t>(ref_cnt_.size()); }
  /// Blocks in the free queue, cached eviction candidates included (vLLM: get_num_free_blocks).
  std::int64_t num_free_blocks() const { return num_free_; }
  /// Blocks held by at least one request.
  std::int64_t num_used_blocks() const { return num_blocks() - num_free_; }
  /// Fraction of blocks in use (vLLM: get_usage), 0..1.
  double usage() const { return static_cast<double>(num_used_blocks()) / static_cast<double>(num_blocks()); }
  /// Blocks whose hash is in the prefix cache (held or free).
  std::int64_t num_cached_blocks() const { return hash_to_block_.size(); }
  bool enable_caching() const { return enable_caching_; }
  /// Blocks handed out by get_new_blocks so far (a block handed out twice counts twice).
  std::int64_t num_handed_out() const { return num_handed_out_; }

  /// Takes `n` blocks from the head of the free queue (the least recently freed), evicting any cached hash
  /// they carry, and gives each a reference count of 1. There must be at least `n` free blocks.
  void get_new_blocks(std::int64_t n, std::vector<BlockId>& out);
  /// A prefix hit: one more holder for each block; a block with no holder leaves the free queue.
  void touch(const std::vector<BlockId>& blocks);
  /// Drops one reference from each block, in the given order; a block left with none joins the tail of the
  /// free queue, so the first block given here is the first to be evicted (without caching: its head, so the
  /// last block given here is the first handed out again).
  template <class It>
  void free_blocks(It first, It last) {
    for (; first != last; ++first) free_block(*first);
  }

  /// The cached block holding these tokens, if any (vLLM: get_cached_block).
  std::optional<BlockId> get_cached_block(std::uint64_t block_hash) const;
  /// Marks a held, full block as holding the tokens with this hash (vLLM: cache_full_blocks, one block).
  void cache_full_block(BlockId block, std::uint64_t block_hash);

  std::int32_t ref_cnt(BlockId b) const { return ref_cnt_[static_cast<std::size_t>(b)]; }
  bool is_cached(BlockId b) const { return enable_caching_ && link(b).has_hash; }

  /// Checks the pool's own invariants: free queue = exactly the blocks with no holder, no negative count,
  /// free + used = total, every cache entry points at a block carrying that hash. Empty string when they
  /// hold, else what broke.
  std::string check_invariants() const;

 private:
  void free_block(BlockId b);
  /// The next free block (the queue's head, or the stack's top), taken out of the free blocks.
  BlockId pop_free();
  void push_free_stack(BlockId b);
  void push_back_free(BlockId b);
  void unlink_free(BlockId b);
  void maybe_evict_cached_block(BlockId b);

  std::int32_t& count(BlockId b) { return ref_cnt_[static_cast<std::size_t>(b)]; }
  /// With caching, a block's place in the free queue and its hash (a step touches them together).
  struct Link {
    std::uint64_t hash = 0;
    // The free queue: a doubly linked list over block ids, so a prefix hit can take a block from its middle.
    BlockId prev = 0, next = 0;
    bool has_hash = false;
  };
  Link& link(BlockId b) { return links_[static_cast<std::size_t>(b)]; }
  const Link& link(BlockId b) const { return links_[static_cast<std::size_t>(b)]; }
  BlockId sentinel() const { return static_cast<BlockId>(ref_cnt_.size()); }

  bool enable_caching_;
  std::vector<std::int32_t> ref_cnt_;  // by block id: the requests holding it (0: in the free queue)
  std::vector<Link> links_;  // with caching, by block id; index num_blocks is the free queue's sentinel
  std::vector<BlockId> free_stack_;  // without caching: the free blocks, the next handed out at the back
  std::int64_t num_free_ = 0;
  std::int64_t num_handed_out_ = 0;
  BlockHashMap hash_to_block_;  // lookups only, never iterated
};

}  // namespace sl::llm
