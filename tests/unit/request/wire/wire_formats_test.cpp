// Tests of request/wire/wire_formats.cpp: JSON arrays and Base64.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "request/wire/wire_formats.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

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

}  // namespace SL_UNITY_ID
