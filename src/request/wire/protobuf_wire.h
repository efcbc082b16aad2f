#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace sl::request {

/// Protocol Buffers wire format of a message whose only field is `repeated float values = <field>;`, packed
/// (the proto3 default): one key byte (field << 3 | wire type 2, length-delimited), the payload length as a
/// varint, then 4 little-endian bytes per value. 1,000 floats: 1 + 2 + 4,000 = 4,003 bytes.
std::vector<std::uint8_t> encode_packed_floats(const std::vector<float>& values, int field = 1);

/// Reads such a message back (a memcpy of the payload); nullopt if the key, the length or the payload size
/// does not match. An empty message is an empty list.
std::optional<std::vector<float>> decode_packed_floats(const std::vector<std::uint8_t>& bytes, int field = 1);

/// Appends the base-128 varint of `value`: 7 bits per byte, low bits first, high bit set on all but the last.
void append_varint(std::uint64_t value, std::vector<std::uint8_t>& out);

/// Reads a varint at bytes[*pos], advancing *pos; nullopt if truncated or longer than 10 bytes.
std::optional<std::uint64_t> read_varint(const std::vector<std::uint8_t>& bytes, std::size_t* pos);

}  // namespace sl::request
