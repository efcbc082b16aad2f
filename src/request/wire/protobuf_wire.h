#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace sl::request {

/// Protocol Buffers wire format of a message whose only field is `repeated float values = <field>;`, packed
/// (the proto3 default): one key byte (field << 3 | wire type 2, length-delimited), the payload length as a
/// varint, then 4 little-endian bytes per value. 1,000 floats: 1 + 2 + 4,000 = 4,003 bytes.
std::vector<std::uint8_t> encode_packed_floats(const std::vector<float>& values, int field = 1);

/// The values of such a message where they lie, in the wire buffer (zero copy, as numpy.frombuffer or
/// FlatBuffers read a network buffer): after the key and the varint length the payload is not 4-byte aligned,
/// so a value is read with memcpy. Valid while the buffer lives.
class PackedFloatsView {
 public:
  PackedFloatsView(const std::uint8_t* payload, std::size_t size) : payload_(payload), size_(size) {}
  std::size_t size() const { return size_; }
  /// The payload's first byte, in the wire buffer.
  const std::uint8_t* bytes() const { return payload_; }
  float operator[](std::size_t i) const {
    float x;
    std::memcpy(&x, payload_ + 4 * i, sizeof x);
    return x;
  }

 private:
  const std::uint8_t* payload_;
  std::size_t size_;
};

/// Reads the key and the length of such a message and returns a view of its values, copying nothing; nullopt
/// if the key, the length or the payload size does not match. An empty message is an empty view.
std::optional<PackedFloatsView> view_packed_floats(const std::vector<std::uint8_t>& bytes, int field = 1);

/// Reads such a message back into a vector (the view's payload, copied by one memcpy); nullopt as
/// view_packed_floats. An empty message is an empty list.
std::optional<std::vector<float>> decode_packed_floats(const std::vector<std::uint8_t>& bytes, int field = 1);

/// Appends the base-128 varint of `value`: 7 bits per byte, low bits first, high bit set on all but the last.
void append_varint(std::uint64_t value, std::vector<std::uint8_t>& out);

/// Reads a varint at bytes[*pos], advancing *pos; nullopt if truncated or longer than 10 bytes.
std::optional<std::uint64_t> read_varint(const std::vector<std::uint8_t>& bytes, std::size_t* pos);

}  // namespace sl::request
