// Tests of request/wire/float_text.cpp: float32 <-> JSON number text, checked against the C library.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/rng.h"
#include "request/wire/float_text.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

namespace {

std::string text_of(float x, lc::FloatDigits mode) {
  char buf[lc::kMaxFloatText];
  const int n = lc::write_float(x, mode, buf);
  REQUIRE(n > 0);
  REQUIRE(n < lc::kMaxFloatText);
  return std::string(buf, static_cast<std::size_t>(n));
}

float ours(const std::string& s) {
  const char* end = nullptr;
  const auto f = lc::parse_float(s.data(), s.data() + s.size(), &end);
  REQUIRE(f.has_value());
  REQUIRE(end == s.data() + s.size());
  return *f;
}

float random_finite_float(sl::Rng& rng) {
  for (;;) {
    const auto bits = static_cast<std::uint32_t>(rng.next_u64());
    float x;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isfinite(x)) return x;
  }
}

/// Significant digits of the shortest "%.{p}g" that strtof reads back as x: the C library's answer.
int libc_shortest_digits(float x) {
  char buf[64];
  for (int p = 1; p <= 9; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, static_cast<double>(x));
    if (std::strtof(buf, nullptr) == x) return p;
  }
  return 10;
}

int significant_digits(const std::string& s) {
  std::string m = s.substr(0, s.find('e'));
  std::string digits;
  for (char c : m)
    if (c >= '0' && c <= '9') digits += c;
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;
  digits = digits.substr(first);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();  // write_float never keeps trailing zeros
  return static_cast<int>(digits.size());
}

}  // namespace

namespace {

/// Writes each value in both modes and reads it back with our reader and with strtof.
void check_round_trips(const std::vector<float>& xs) {
  for (float x : xs) {
    for (auto mode : {lc::FloatDigits::Full, lc::FloatDigits::Shortest}) {
      const std::string s = text_of(x, mode);
      INFO(s);
      CHECK(std::strtof(s.c_str(), nullptr) == x);
      CHECK(ours(s) == x);
      CHECK(std::signbit(ours(s)) == std::signbit(x));
    }
  }
}

std::vector<float> random_finite_floats(std::uint64_t seed, int count) {
  sl::Rng rng(seed);
  std::vector<float> xs;
  for (int i = 0; i < count; ++i) xs.push_back(random_finite_float(rng));
  return xs;
}

}  // namespace

TEST_CASE("Every float32 we write reads back exactly, with our reader and with strtof", "[request][serialization]") {
  check_round_trips({0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 1e-7f, 9.999999e-8f, 1e21f, 9.99999944e20f, 16777216.0f, FLT_MIN,
                     -FLT_MIN, FLT_MAX, -FLT_MAX, FLT_TRUE_MIN, 1.17549421e-38f, 3.0e-39f, 123456789.0f});
  check_round_trips(random_finite_floats(42, 20'000));
}

TEST_CASE("200,000 random float32 bit patterns all read back exactly", "[request][serialization][.slow]") {
  check_round_trips(random_finite_floats(43, 200'000));
}

TEST_CASE("Shortest mode uses as few digits as the C library's shortest %g that round-trips",
          "[request][serialization]") {
  sl::Rng rng(7);
  int longer = 0;
  for (int i = 0; i < 50'000; ++i) {
    const float x = random_finite_float(rng);
    if (x == 0) continue;
    const int ours_digits = significant_digits(text_of(x, lc::FloatDigits::Shortest));
    const int libc_digits = libc_shortest_digits(x);
    INFO(x << " ours " << text_of(x, lc::FloatDigits::Shortest));
    CHECK(ours_digits <= libc_digits + 1);
    longer += ours_digits > libc_digits;
  }
  CHECK(longer == 0);
}

TEST_CASE("Full mode prints 9 significant digits and notation switches where JavaScript's does",
          "[request][serialization]") {
  CHECK(text_of(0.1f, lc::FloatDigits::Full) == "0.100000001");
  CHECK(text_of(0.1f, lc::FloatDigits::Shortest) == "0.1");
  CHECK(text_of(-2.5f, lc::FloatDigits::Shortest) == "-2.5");
  CHECK(text_of(16777216.0f, lc::FloatDigits::Shortest) == "16777216");
  CHECK(text_of(1e21f, lc::FloatDigits::Shortest) == "1e+21");
  CHECK(text_of(1e20f, lc::FloatDigits::Shortest) == "100000000000000000000");
  CHECK(text_of(1e-7f, lc::FloatDigits::Shortest) == "1e-7");
  CHECK(text_of(1.5e-6f, lc::FloatDigits::Shortest) == "0.0000015");
  CHECK(text_of(-0.0f, lc::FloatDigits::Full) == "-0");
}

TEST_CASE("The reader rounds decimal text to float32 exactly as strtof does, ties included",
          "[request][serialization]") {
  // 2^24 + 1 and 2^24 + 3 are midpoints between floats: ties go to even.
  for (const char* s : {"16777217", "16777219", "0.5", "-0", "1e-45", "7e-46", "3.4028235e38", "3.4028236e38",
                        "1.00000005960464477539062500001", "123456789012345678901234567890", "0.000000000000000000000001"}) {
    INFO(s);
    CHECK(ours(s) == std::strtof(s, nullptr));
  }
  sl::Rng rng(3);
  for (int i = 0; i < 200'000; ++i) {
    const auto digits = rng.next_u64() % 10'000'000'000'000'000'000ull;
    const int num = 1 + static_cast<int>(rng.below(19));
    std::uint64_t d = digits;
    for (int k = 19; k > num; --k) d /= 10;
    const int e = static_cast<int>(rng.below(81)) - 40;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%llue%d", static_cast<unsigned long long>(d), e);
    INFO(buf);
    CHECK(ours(buf) == std::strtof(buf, nullptr));
  }
}

TEST_CASE("Float64 mode prints the shortest text that reads back as the widened double, as a float64 sender does",
          "[request][serialization]") {
  // 0.1f is 0.100000001490116119384765625 exactly: as a double, 17 digits are the fewest that read back.
  CHECK(text_of(0.1f, lc::FloatDigits::Float64) == "0.10000000149011612");
  CHECK(text_of(0.5f, lc::FloatDigits::Float64) == "0.5");
  CHECK(text_of(-0.0f, lc::FloatDigits::Float64) == "-0");
  CHECK(text_of(1e21f, lc::FloatDigits::Float64) == "1.0000000200408773e+21");
  sl::Rng rng(9);
  char buf[64];
  for (int i = 0; i < 5'000; ++i) {
    const float x = random_finite_float(rng);
    if (x == 0) continue;
    const std::string s = text_of(x, lc::FloatDigits::Float64);
    INFO(s);
    CHECK(std::strtod(s.c_str(), nullptr) == static_cast<double>(x));  // the double, not only the float
    CHECK(ours(s) == x);                                                // and our float32 reader agrees
    const int digits = significant_digits(s);
    std::snprintf(buf, sizeof buf, "%.*e", digits - 2, static_cast<double>(x));  // one digit fewer
    CHECK((digits == 1 || std::strtod(buf, nullptr) != static_cast<double>(x)));
  }
}

}  // namespace SL_UNITY_ID
