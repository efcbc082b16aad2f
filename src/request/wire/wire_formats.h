#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "request/wire/float_text.h"

namespace sl::request {

/// A JSON array of numbers, "[0.5,-1.25,...]", each written by write_float in the given mode.
std::string encode_json(const std::vector<float>& values, FloatDigits mode);

/// Reads a JSON array of numbers (whitespace allowed between tokens) into float32s, rounding each number
/// correctly; nullopt if the text is not such an array.
std::optional<std::vector<float>> decode_json(const std::string& text);

/// Standard Base64 (RFC 4648, with '=' padding) of bytes: 4 characters per 3 bytes, +33 %.
std::string encode_base64(const std::uint8_t* bytes, std::int64_t size);

/// Decodes standard padded Base64; nullopt on a bad character or length.
std::optional<std::vector<std::uint8_t>> decode_base64(const std::string& text);

/// The float32 values of Base64 text holding their little-endian bytes; nullopt if malformed or the byte
/// count is not a multiple of 4.
std::optional<std::vector<float>> decode_base64_floats(const std::string& text);

/// The raw little-endian bytes of float32 values, Base64-encoded.
std::string encode_base64_floats(const std::vector<float>& values);

}  // namespace sl::request
