#include "llm/engine/kv_cache_manager.h"

#include <algorithm>

#include "core/error.h"

namespace sl::llm {
namespace {

std::int64_t cdiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

const std::vector<BlockId> kNoBlocks;

}  // namespace

KvCacheManager::KvCacheManager(const KvCacheConfig& config)
    : config_(config), pool_(config.num_blocks, config.enable_caching) {
  SL_ASSERT(config.block_size > 0);
  SL_ASSERT(!(config.enable_caching && config.reserve_tokens_per_request > 0));
}

std::vector<BlockId>& KvCacheManager::table(std::int32_t request_id) {
  const auto i = static_cast<std::size_t>(request_id);
  if (tables_.size() <= i) tables_.resize(i + 1);
  return tables_[i].blocks;
}

const std::vector<BlockId>& KvCacheManager::blocks_of(const Request& request) const {
  const auto i = static_cast<std::size_t>(request.request_id);
  return i < tables_.size() ? tables_[i].blocks : kNoBlocks;
}

ComputedBlocks KvCacheManager::get_computed_blocks(Request& request) {
  ComputedBlocks hit;
  if (!config_.enable_caching) return hit;
  // The last token is always recomputed, so a hit covers at most num_tokens - 1 tokens, in whole blocks.
  const std::int64_t max_num_blocks = (request.num_tokens() - 1) / config_.block_size;
  ensure_block_hashes(request, max_num_blocks, config_.block_size);
  for (std::int64_t i = 0; i < max_num_blocks; ++i) {
    const auto block = pool_.get_cached_block(request.block_hashes[static_cast<std::size_t>(i)]);
    if (!block) break;
    hit.blocks.push_back(*block);
  }
  hit.num_computed_tokens = static_cast<std::int64_t>(hit.blocks.size()) * config_.block_size;
  return hit;
}

std::optional<std::int64_t> KvCacheManager::allocate_slots(Request& request, std::int64_t num_new_tokens,
                                                           const ComputedBlocks& new_computed) {
  SL_ASSERT(num_new_tokens > 0);
  if (is_naive_reservation()) return allocate_reservation(request, num_new_tokens);
  std::vector<BlockId>& blocks = table(request.request_id);
  SL_ASSERT(new_computed.blocks.empty() || blocks.empty());
  const std::int64_t num_computed_tokens = request.num_computed_tokens + new_computed.num_computed_tokens;
  const std::int64_t num_tokens_need_slot = num_computed_tokens + num_new_tokens;
  const auto num_held = static_cast<std::int64_t>(blocks.size() + new_computed.blocks.size());
  const std::int64_t num_new_blocks = std::max<std::int64_t>(0, cdiv(num_tokens_need_slot, config_.block_size) - num_held);
  // A hit block nobody holds sits in the free queue: claiming it uses up a free block too.
  const auto num_evictable_computed = static_cast<std::int64_t>(
      std::count_if(new_computed.blocks.begin(), new_computed.blocks.end(),
                    [&](BlockId b) { return pool_.ref_cnt(b) == 0; }));
  if (num_new_blocks + num_evictable_computed > pool_.num_free_blocks()) return std::nullopt;

  if (!new_computed.blocks.empty()) {  // claim the hit: those blocks are cached already
    pool_.touch(new_computed.blocks);
    blocks.insert(blocks.end(), new_computed.blocks.begin(), new_computed.blocks.end());
    tables_[static_cast<std::size_t>(request.request_id)].num_cached = static_cast<std::int64_t>(blocks.size());
    num_table_blocks_ += static_cast<std::int64_t>(new_computed.blocks.size());
  }
  pool_.get_new_blocks(num_new_blocks, blocks);
  num_table_blocks_ += num_new_blocks;
  if (config_.enable_caching) cache_blocks(request, std::min(num_tokens_need_slot, request.num_tokens()));
  return num_new_blocks;
}

std::optional<std::int64_t> KvCacheManager::allocate_reservation(Request& request, std::int64_t num_new_tokens) {
  std::vector<BlockId>& blocks = table(request.request_id);
  SL_ASSERT(request.num_computed_tokens + num_new_tokens <= config_.reserve_tokens_per_request);
  if (!blocks.empty()) return std::int64_t{0};  // the reservation already covers every token it may hold
  const std::int64_t n = cdiv(config_.reserve_tokens_per_request, config_.block_size);
  if (n > pool_.num_free_blocks()) return std::nullopt;
  pool_.get_new_blocks(n, blocks);
  num_table_blocks_ += n;
  return n;
}

void KvCacheManager::cache_blocks(Request& request, std::int64_t num_tokens) {
  const std::int64_t num_full_blocks = num_tokens / config_.block_size;
  RequestBlocks& t = tables_[static_cast<std::size_t>(request.request_id)];
  std::int64_t& num_cached = t.num_cached;
  if (num_full_blocks <= num_cached) return;
  ensure_block_hashes(request, num_full_blocks, config_.block_size);
  const std::vector<BlockId>& blocks = t.blocks;
  for (std::int64_t i = num_cached; i < num_full_blocks; ++i)
    pool_.cache_full_block(blocks[static_cast<std::size_t>(i)], request.block_hashes[static_cast<std::size_t>(i)]);
  num_cached = num_full_blocks;
}

void KvCacheManager::free(const Request& request) {
  const auto i = static_cast<std::size_t>(request.request_id);
  if (i >= tables_.size()) return;
  std::vector<BlockId>& blocks = tables_[i].blocks;
  pool_.free_blocks(blocks.rbegin(), blocks.rend());
  num_table_blocks_ -= static_cast<std::int64_t>(blocks.size());
  blocks.clear();
  tables_[i].num_cached = 0;
}

std::string KvCacheManager::check_invariants(const std::vector<const Request*>& requests) const {
  std::string pool_error = pool_.check_invariants();
  if (!pool_error.empty()) return pool_error;
  std::vector<std::int32_t> holders(static_cast<std::size_t>(pool_.num_blocks()), 0);
  std::vector<std::int32_t> last_holder(static_cast<std::size_t>(pool_.num_blocks()), -1);
  for (const Request* r : requests) {
    const std::vector<BlockId>& blocks = blocks_of(*r);
    const std::string who = "request " + std::to_string(r->request_id);
    if (r->status != RequestStatus::Running) {
      if (!blocks.empty()) return who + " holds blocks but is not running";
      continue;
    }
    const auto n = static_cast<std::int64_t>(blocks.size());
    const std::int64_t want = is_naive_reservation() ? cdiv(config_.reserve_tokens_per_request, config_.block_size)
                                                     : cdiv(r->num_computed_tokens, config_.block_size);
    const std::int64_t most = is_naive_reservation() ? want
                                                     : cdiv(r->num_computed_tokens + config_.num_lookahead_tokens,
                                                            config_.block_size);
    if (n < want || n > most)
      return who + " holds " + std::to_string(n) + " blocks, needs " + std::to_string(want) +
             (most > want ? " to " + std::to_string(most) : "");
    for (const BlockId b : blocks) {
      const auto bi = static_cast<std::size_t>(b);
      if (last_holder[bi] == r->request_id) return who + " holds block " + std::to_string(b) + " twice";
      last_holder[bi] = r->request_id;
      ++holders[bi];
    }
  }
  for (std::size_t b = 0; b < holders.size(); ++b) {
    const auto id = static_cast<BlockId>(b);
    if (holders[b] != pool_.ref_cnt(id))
      return "block " + std::to_string(b) + " has reference count " + std::to_string(pool_.ref_cnt(id)) + " but " +
             std::to_string(holders[b]) + " holders";
    if (holders[b] > 1 && !pool_.is_cached(id))
      return "block " + std::to_string(b) + " is shared but holds no cached prefix (double allocation)";
  }
  return {};
}

}  // namespace sl::llm
