#include "request/wire/protobuf_wire.h"

#include <cstring>

namespace sl::request {
namespace {

constexpr std::uint8_t kWireTypeLengthDelimited = 2;
constexpr int kMaxVarintBytes = 10;
constexpr std::size_t kFloatBytes = 4;

std::uint64_t key_of(int field) { return (static_cast<std::uint64_t>(field) << 3) | kWireTypeLengthDelimited; }

}  // namespace

void append_varint(std::uint64_t value, std::vector<std::uint8_t>& out) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

std::optional<std::uint64_t> read_varint(const std::vector<std::uint8_t>& bytes, std::size_t* pos) {
  std::uint64_t value = 0;
  for (int i = 0; i < kMaxVarintBytes && *pos < bytes.size(); ++i) {
    const std::uint8_t b = bytes[(*pos)++];
    value |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) return value;
  }
  return std::nullopt;
}

std::vector<std::uint8_t> encode_packed_floats(const std::vector<float>& values, int field) {
  std::vector<std::uint8_t> out;
  if (values.empty()) return out;  // proto3 writes nothing for an empty repeated field
  const std::size_t payload = values.size() * kFloatBytes;
  out.reserve(payload + 1 + kMaxVarintBytes);
  append_varint(key_of(field), out);
  append_varint(payload, out);
  const std::size_t start = out.size();
  out.resize(start + payload);
  // The wire format is little-endian, as are x86, ARM and WebAssembly: the payload is the array's memory.
  std::memcpy(out.data() + start, values.data(), payload);
  return out;
}

std::optional<PackedFloatsView> view_packed_floats(const std::vector<std::uint8_t>& bytes, int field) {
  if (bytes.empty()) return PackedFloatsView{bytes.data(), 0};
  std::size_t pos = 0;
  const auto key = read_varint(bytes, &pos);
  if (!key || *key != key_of(field)) return std::nullopt;
  const auto payload = read_varint(bytes, &pos);
  if (!payload || *payload % kFloatBytes != 0 || *payload != bytes.size() - pos) return std::nullopt;
  return PackedFloatsView{bytes.data() + pos, static_cast<std::size_t>(*payload / kFloatBytes)};
}

std::optional<std::vector<float>> decode_packed_floats(const std::vector<std::uint8_t>& bytes, int field) {
  const auto view = view_packed_floats(bytes, field);
  if (!view) return std::nullopt;
  std::vector<float> values(view->size());
  if (!values.empty()) std::memcpy(values.data(), view->bytes(), kFloatBytes * values.size());
  return values;
}

}  // namespace sl::request
