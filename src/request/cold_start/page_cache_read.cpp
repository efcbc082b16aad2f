// The page-cache measurement behind request/cold-start (see page_cache_read.h). POSIX calls only, compiled
// out of the wasm build, where there is no disk and no page cache to evict.
#include "request/cold_start/page_cache_read.h"

#ifndef __EMSCRIPTEN__
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rng.h"
#include "core/units.h"
#endif

namespace sl::request {

#ifdef __EMSCRIPTEN__

bool page_cache_reachable() { return false; }

Result<PageCacheRead> measure_page_cache_read(std::int64_t, int, const std::string&) {
  return Error{"invalid", "read_mib", "a browser cannot reach the operating system's page cache", {{"problem", "page_cache_in_browser"}}};
}

#else

namespace {

constexpr std::int64_t kChunkBytes = std::int64_t{1} << 20;

Error io_error(const std::string& what, const std::string& path) {
  return Error{"io", "read_mib", what + " failed for " + path + ": " + std::strerror(errno), {{"path", path}}};
}

/// Closes the descriptor on every path out of the measurement.
struct FileCloser {
  int fd;
  ~FileCloser() { ::close(fd); }
};

std::string temp_dir(const std::string& dir) {
  if (!dir.empty()) return dir;
  const char* env = std::getenv("TMPDIR");
  return env != nullptr && *env != '\0' ? env : "/tmp";
}

/// Writes `bytes` of seeded noise (one 1 MiB chunk, repeated) and forces it to disk.
bool write_file(int fd, std::int64_t bytes) {
  std::vector<std::uint64_t> chunk(kChunkBytes / sizeof(std::uint64_t));
  Rng rng(20261129);
  for (auto& word : chunk) word = rng.next_u64();
  for (std::int64_t done = 0; done < bytes;) {
    const auto n = static_cast<std::size_t>(std::min(kChunkBytes, bytes - done));
    const ssize_t wrote = ::write(fd, chunk.data(), n);
    if (wrote <= 0) return false;
    done += wrote;
  }
  return ::fsync(fd) == 0;
}

/// Seconds to read the whole file in 1 MiB chunks; negative when a read fails or comes up short.
double timed_read(int fd, std::int64_t bytes, std::vector<char>& buffer) {
  const double start_s = wall_now_s();
  std::int64_t done = 0;
  while (done < bytes) {
    const auto n = static_cast<std::size_t>(std::min<std::int64_t>(kChunkBytes, bytes - done));
    const ssize_t got = ::pread(fd, buffer.data(), n, static_cast<off_t>(done));
    if (got <= 0) return -1;
    done += got;
  }
  return wall_now_s() - start_s;
}

/// Share of the file's pages in the page cache (mincore on a read-only mapping, which itself faults nothing
/// in), or -1 when the kernel cannot tell.
double resident_frac(int fd, std::int64_t bytes) {
  void* map = ::mmap(nullptr, static_cast<std::size_t>(bytes), PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return -1;
  const long page = ::sysconf(_SC_PAGESIZE);
  const std::int64_t num_pages = (bytes + page - 1) / page;
  std::vector<unsigned char> in_core(static_cast<std::size_t>(num_pages));
  double frac = -1;
  if (::mincore(map, static_cast<std::size_t>(bytes), in_core.data()) == 0) {
    std::int64_t resident = 0;
    for (unsigned char c : in_core) resident += c & 1;
    frac = static_cast<double>(resident) / static_cast<double>(num_pages);
  }
  ::munmap(map, static_cast<std::size_t>(bytes));
  return frac;
}

}  // namespace

bool page_cache_reachable() { return true; }

Result<PageCacheRead> measure_page_cache_read(std::int64_t bytes, int num_cached, const std::string& dir) {
  if (bytes < kMinReadBytes || bytes > kMaxReadBytes)
    return Error{"out_of_range", "read_mib",
                 "the file must have between 1 MiB and 1024 MiB, got " + format_number(bytes / units::kMiB) + " MiB",
                 {{"min", "1"}, {"max", "1024"}, {"unit", "MiB"}, {"got", format_number(bytes / units::kMiB)}}};
  std::string path = temp_dir(dir) + "/serving-lab-cold-read-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return io_error("creating a temporary file", path);
  FileCloser closer{fd};
  ::unlink(path.c_str());  // the open descriptor keeps the file until the end of this function, never longer
  if (!write_file(fd, bytes)) return io_error("writing and fsync of the temporary file", path);

  PageCacheRead r;
  r.bytes = bytes;
  // DONTNEED drops only clean pages, hence the fsync above. Some filesystems (tmpfs, some overlays) keep
  // the pages anyway: mincore says how much left.
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  r.resident_after_evict_frac = resident_frac(fd, bytes);
  std::vector<char> buffer(static_cast<std::size_t>(kChunkBytes));
  r.cold_read_s = timed_read(fd, bytes, buffer);
  if (r.cold_read_s < 0) return io_error("reading the temporary file", path);
  for (int i = 0; i < num_cached; ++i) {
    const double s = timed_read(fd, bytes, buffer);
    if (s < 0) return io_error("reading the temporary file", path);
    r.cached_read_s.push_back(s);
  }
  return r;
}

#endif

}  // namespace sl::request
