// Tests of request/wire/protobuf_wire.cpp: the packed `repeated float` message and its varints.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "request/wire/protobuf_wire.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

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

TEST_CASE("A varint takes ceil(bits / 7) bytes and reads back to its value", "[request][serialization]") {
  sl::Rng rng(11);
  std::vector<std::uint64_t> values{0, 1, 127, 128, 16383, 16384, (1ull << 63) - 1, 1ull << 63, ~0ull};
  for (int i = 0; i < 10'000; ++i) values.push_back(rng.next_u64() >> rng.below(64));
  for (std::uint64_t x : values) {
    INFO(x);
    std::vector<std::uint8_t> bytes;
    lc::append_varint(x, bytes);
    int bits = 0;
    for (std::uint64_t y = x; y != 0; y >>= 1) ++bits;
    // 7 payload bits per byte, and at least one byte for 0.
    CHECK(static_cast<int>(bytes.size()) == (bits == 0 ? 1 : (bits + 6) / 7));
    for (std::size_t k = 0; k + 1 < bytes.size(); ++k) CHECK((bytes[k] & 0x80) != 0);
    CHECK((bytes.back() & 0x80) == 0);
    std::size_t pos = 0;
    CHECK(lc::read_varint(bytes, &pos) == x);
    CHECK(pos == bytes.size());
  }
}

TEST_CASE("A varint longer than 10 bytes or cut short is refused", "[request][serialization]") {
  const std::vector<std::uint8_t> eleven(11, 0x80);
  std::size_t pos = 0;
  CHECK_FALSE(lc::read_varint(eleven, &pos).has_value());
  std::vector<std::uint8_t> cut;
  lc::append_varint(1ull << 40, cut);
  cut.pop_back();
  pos = 0;
  CHECK_FALSE(lc::read_varint(cut, &pos).has_value());
}

TEST_CASE("The zero-copy protobuf read is a view into the wire buffer with the same values as the copying decode",
          "[request][serialization]") {
  sl::Rng rng(5);
  std::vector<float> v(1000);
  for (auto& x : v) x = static_cast<float>(rng.uniform() - 0.5);
  const auto bytes = lc::encode_packed_floats(v);
  const auto view = lc::view_packed_floats(bytes);
  REQUIRE(view.has_value());
  CHECK(view->bytes() == bytes.data() + 3);  // in place: past the key and the 2-byte length, nothing copied
  REQUIRE(view->size() == v.size());
  const auto copy = lc::decode_packed_floats(bytes);
  REQUIRE(copy.has_value());
  for (std::size_t i = 0; i < v.size(); ++i) {
    CHECK((*view)[i] == v[i]);
    CHECK((*copy)[i] == v[i]);
  }
  CHECK(lc::view_packed_floats({})->size() == 0);
  auto wrong_key = bytes;
  wrong_key[0] = 0x12;
  CHECK_FALSE(lc::view_packed_floats(wrong_key).has_value());
  CHECK_FALSE(lc::view_packed_floats({0x0A, 0x03, 1, 2, 3}).has_value());
}

}  // namespace SL_UNITY_ID
