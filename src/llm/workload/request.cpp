#include "llm/workload/request.h"

#include "core/error.h"

namespace sl::llm {
namespace {

/// SplitMix64's finaliser: a bijective 64-bit mix.
std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t combine(std::uint64_t h, std::uint64_t x) { return mix64(h ^ mix64(x)); }

/// Folds the tokens [start, end) of one segment (positions within its content) into h. A run of tokens of
/// one content is described by (content, first position, count), so the hash of a block does not depend on
/// how the request's segments happen to be laid out, only on which tokens it holds.
std::uint64_t fold_piece(std::uint64_t h, std::uint64_t content_id, std::int64_t first, std::int64_t count) {
  h = combine(h, content_id);
  h = combine(h, static_cast<std::uint64_t>(first));
  return combine(h, static_cast<std::uint64_t>(count));
}

}  // namespace

RequestRecord make_record(const Request& r) {
  SL_ASSERT(r.status == RequestStatus::Finished);
  RequestRecord rec;
  rec.request_id = r.request_id;
  rec.request_class = r.request_class;
  rec.arrival_at_s = r.arrival_at_s;
  rec.first_scheduled_at_s = r.first_scheduled_at_s;
  rec.first_token_at_s = r.first_token_at_s;
  rec.finished_at_s = r.finished_at_s;
  rec.num_prompt_tokens = r.num_prompt_tokens;
  rec.num_output_tokens = r.num_output_tokens;
  rec.num_cached_tokens = r.num_cached_tokens < 0 ? 0 : r.num_cached_tokens;
  rec.num_preemptions = r.num_preemptions;
  return rec;
}

std::uint64_t hash_block_tokens(std::uint64_t parent_hash, const Request& request, std::int64_t start,
                                std::int64_t block_size) {
  SL_ASSERT(start + block_size <= request.num_tokens());
  std::uint64_t h = parent_hash;
  const std::int64_t end = start + block_size;
  std::int64_t segment_start = 0;  // position of the current segment's first token in the request
  for (const TokenSegment& s : request.prompt) {
    const std::int64_t segment_end = segment_start + s.length;
    if (segment_end > start && segment_start < end) {
      const std::int64_t a = start > segment_start ? start : segment_start;
      const std::int64_t b = end < segment_end ? end : segment_end;
      h = fold_piece(h, s.content_id, a - segment_start, b - a);
    }
    if (segment_end >= end) return h;
    segment_start = segment_end;
  }
  // The rest of the block lies in the generated tokens, which start at num_prompt_tokens.
  const std::int64_t a = start > segment_start ? start : segment_start;
  return fold_piece(h, request.output_content_id, a - segment_start, end - a);
}

void ensure_block_hashes(Request& request, std::int64_t num_full_blocks, std::int64_t block_size) {
  SL_ASSERT(num_full_blocks * block_size <= request.num_tokens());
  auto& hashes = request.block_hashes;
  while (static_cast<std::int64_t>(hashes.size()) < num_full_blocks) {
    const std::uint64_t parent = hashes.empty() ? kNoneHash : hashes.back();
    const auto i = static_cast<std::int64_t>(hashes.size());
    hashes.push_back(hash_block_tokens(parent, request, i * block_size, block_size));
  }
}

}  // namespace sl::llm
