#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/rng.h"
#include "request/wire/protobuf_wire.h"
#include "request/wire/wire_formats.h"

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

TEST_CASE("Every float32 we write reads back exactly, with our reader and with strtof", "[request][serialization]") {
  sl::Rng rng(42);
  std::vector<float> xs{0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 1e-7f, 9.999999e-8f, 1e21f, 9.99999944e20f, 16777216.0f,
                        FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, FLT_TRUE_MIN, 1.17549421e-38f, 3.0e-39f, 123456789.0f};
  for (int i = 0; i < 200'000; ++i) xs.push_back(random_finite_float(rng));
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

TEST_CASE("JSON arrays round-trip and malformed text is refused", "[request][serialization]") {
  const std::vector<float> v{0.5f, -1.25f, 3.14159274f, 1e-10f, 0.0f};
  for (auto mode : {lc::FloatDigits::Full, lc::FloatDigits::Shortest}) {
    const auto back = lc::decode_json(lc::encode_json(v, mode));
    REQUIRE(back.has_value());
    CHECK(*back == v);
  }
  CHECK(lc::encode_json(v, lc::FloatDigits::Shortest) == "[0.5,-1.25,3.1415927,1e-10,0]");
  CHECK(lc::decode_json(" [ 1 , 2.5e1 ]\n") == std::optional<std::vector<float>>({1.0f, 25.0f}));
  CHECK(lc::decode_json("[]") == std::optional<std::vector<float>>(std::vector<float>{}));
  for (const char* bad : {"", "[", "[1,]", "[1 2]", "[a]", "1", "[1]x", "[-]", "[1e]", "[,1]"}) {
    INFO(bad);
    CHECK_FALSE(lc::decode_json(bad).has_value());
  }
}

TEST_CASE("Base64 matches the RFC 4648 test vectors and refuses bad text", "[request][serialization]") {
  const std::vector<std::pair<std::string, std::string>> vectors{
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, coded] : vectors) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(plain.data());
    CHECK(lc::encode_base64(bytes, static_cast<std::int64_t>(plain.size())) == coded);
    const auto back = lc::decode_base64(coded);
    REQUIRE(back.has_value());
    CHECK(std::string(back->begin(), back->end()) == plain);
  }
  for (const char* bad : {"Zg=", "Z!==", "Zm9v!A==", "===="}) CHECK_FALSE(lc::decode_base64(bad).has_value());
  // 1,000 floats: 4,000 bytes -> ceil(4000 / 3) x 4 = 5,336 characters, +33.4 %.
  const std::vector<float> v(1000, 0.25f);
  CHECK(lc::encode_base64_floats(v).size() == 5336);
  CHECK(lc::decode_base64_floats(lc::encode_base64_floats(v)) == std::optional<std::vector<float>>(v));
}

TEST_CASE("Protobuf packed floats: the key byte, a varint length, then the little-endian payload",
          "[request][serialization]") {
  std::vector<std::uint8_t> varint;
  lc::append_varint(300, varint);
  CHECK(varint == std::vector<std::uint8_t>{0xAC, 0x02});  // the protobuf documentation's example
  CHECK(lc::encode_packed_floats({1.0f}) == std::vector<std::uint8_t>{0x0A, 0x04, 0x00, 0x00, 0x80, 0x3F});
  const std::vector<float> v(1000, -2.0f);
  const auto bytes = lc::encode_packed_floats(v);
  REQUIRE(bytes.size() == 4003);  // 1 + varint(4000) = 2 bytes (0xA0 0x1F) + 4,000
  CHECK(bytes[0] == 0x0A);
  CHECK(bytes[1] == 0xA0);
  CHECK(bytes[2] == 0x1F);
  CHECK(lc::decode_packed_floats(bytes) == std::optional<std::vector<float>>(v));
  CHECK(lc::encode_packed_floats({}).empty());
  CHECK(lc::decode_packed_floats({}) == std::optional<std::vector<float>>(std::vector<float>{}));
  SECTION("malformed messages are refused") {
    auto wrong_key = bytes;
    wrong_key[0] = 0x12;  // field 2
    CHECK_FALSE(lc::decode_packed_floats(wrong_key).has_value());
    auto truncated = bytes;
    truncated.pop_back();
    CHECK_FALSE(lc::decode_packed_floats(truncated).has_value());
    CHECK_FALSE(lc::decode_packed_floats({0x0A, 0x03, 1, 2, 3}).has_value());  // 3 bytes is no float
    CHECK_FALSE(lc::decode_packed_floats({0x0A, 0x80}).has_value());           // varint never ends
  }
}
