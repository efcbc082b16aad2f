#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <string>
#include <dirent.h>
#include <unistd.h>

#include "request/cold_start/page_cache_read.h"

namespace SL_UNITY_ID {

using namespace sl::request;

namespace {
bool positive_finite(double x) { return std::isfinite(x) && x > 0; }
}  // namespace

TEST_CASE("The page-cache read returns positive finite times and leaves no file behind",
          "[request][page-cache]") {
  REQUIRE(page_cache_reachable());
  char dir_template[] = "/tmp/sl-page-cache-test-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template;
  const auto r = measure_page_cache_read(4 << 20, 2, dir);
  REQUIRE(r.ok());
  CHECK(r.value().bytes == 4 << 20);
  CHECK(positive_finite(r.value().cold_read_s));
  REQUIRE(r.value().cached_read_s.size() == 2);
  for (double s : r.value().cached_read_s) CHECK(positive_finite(s));
  const double resident = r.value().resident_after_evict_frac;
  CHECK((resident == -1 || (resident >= 0 && resident <= 1)));
  int entries = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) entries += std::string(e->d_name) != "." && std::string(e->d_name) != "..";
    ::closedir(d);
  }
  CHECK(entries == 0);
  ::rmdir(dir.c_str());
}

TEST_CASE("Bad sizes and an unwritable directory are refused with clear errors", "[request][page-cache]") {
  CHECK(measure_page_cache_read(kMinReadBytes - 1, 1).error().code == "out_of_range");
  CHECK(measure_page_cache_read(kMaxReadBytes + 1, 1).error().code == "out_of_range");
  const auto small = measure_page_cache_read(1000, 1);
  CHECK(small.error().param == "read_mib");
  const auto missing = measure_page_cache_read(1 << 20, 1, "/nonexistent-serving-lab-dir");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == "io");
  CHECK(missing.error().message.find("/nonexistent-serving-lab-dir") != std::string::npos);
}

}  // namespace SL_UNITY_ID
