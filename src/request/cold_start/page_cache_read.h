#pragma once
// Reading a model file from disk vs from the page cache (Table 8's "load weights" phase), natively only: a
// temporary file is written and fsync'ed, the kernel is asked to drop its pages (posix_fadvise
// POSIX_FADV_DONTNEED), mincore() on a mapping of it tells how much really left memory, then it is read
// once (cold) and again several times (cached). The file is unlinked as soon as it is created, so it never
// outlives the measurement. A browser cannot reach the page cache: in wasm the measurement is an error.
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"

namespace sl::request {

constexpr std::int64_t kMinReadBytes = std::int64_t{1} << 20;    ///< 1 MiB
constexpr std::int64_t kMaxReadBytes = std::int64_t{1} << 30;    ///< 1 GiB

struct PageCacheRead {
  std::int64_t bytes = 0;
  double cold_read_s = 0;               ///< the read right after the eviction request
  std::vector<double> cached_read_s;    ///< the reads after it
  /// Share of the file's pages still in the page cache after the eviction request (mincore), in [0, 1];
  /// -1 when the kernel could not tell.
  double resident_after_evict_frac = -1;
};

/// True where the page cache can be measured (native builds), false in wasm.
bool page_cache_reachable();

/// Measures a file of `bytes` (in [kMinReadBytes, kMaxReadBytes]) created in `dir` (empty: $TMPDIR or
/// /tmp): one cold read and `num_cached` cached reads. Errors (code "io") name the failing call.
Result<PageCacheRead> measure_page_cache_read(std::int64_t bytes, int num_cached, const std::string& dir = {});

}  // namespace sl::request
