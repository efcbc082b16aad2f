#include "request/wire/wire_formats.h"

#include <cstring>

namespace sl::request {
namespace {

constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t kNotBase64 = 0xFF;

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

const std::uint8_t* base64_values() {
  static const auto table = [] {
    static std::uint8_t t[256];
    std::memset(t, kNotBase64, sizeof t);
    for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kBase64Alphabet[i])] = static_cast<std::uint8_t>(i);
    return t;
  }();
  return table;
}

}  // namespace

std::string encode_json(const std::vector<float>& values, FloatDigits mode) {
  std::string out;
  out.resize(2 + values.size() * (kMaxFloatText + 1));
  char* p = out.data();
  *p++ = '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) *p++ = ',';
    p += write_float(values[i], mode, p);
  }
  *p++ = ']';
  out.resize(static_cast<std::size_t>(p - out.data()));
  return out;
}

std::optional<std::vector<float>> decode_json(const std::string& text) {
  const char* p = text.data();
  const char* limit = p + text.size();
  auto skip = [&] { while (p < limit && is_space(*p)) ++p; };
  skip();
  if (p == limit || *p++ != '[') return std::nullopt;
  std::vector<float> values;
  skip();
  if (p < limit && *p == ']') {
    ++p;
  } else {
    for (;;) {
      skip();
      const auto x = parse_float(p, limit, &p);
      if (!x) return std::nullopt;
      values.push_back(*x);
      skip();
      if (p == limit) return std::nullopt;
      if (*p == ']') { ++p; break; }
      if (*p++ != ',') return std::nullopt;
    }
  }
  skip();
  if (p != limit) return std::nullopt;
  return values;
}

std::string encode_base64(const std::uint8_t* bytes, std::int64_t size) {
  std::string out;
  out.reserve(static_cast<std::size_t>((size + 2) / 3 * 4));
  std::int64_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    out += kBase64Alphabet[v >> 18];
    out += kBase64Alphabet[(v >> 12) & 63];
    out += kBase64Alphabet[(v >> 6) & 63];
    out += kBase64Alphabet[v & 63];
  }
  if (i < size) {  // one or two bytes left: pad to 4 characters
    const bool two = i + 2 == size;
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (two ? std::uint32_t{bytes[i + 1]} << 8 : 0);
    out += kBase64Alphabet[v >> 18];
    out += kBase64Alphabet[(v >> 12) & 63];
    out += two ? kBase64Alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> decode_base64(const std::string& text) {
  if (text.size() % 4 != 0) return std::nullopt;
  const std::uint8_t* table = base64_values();
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=') : 0;
    std::uint32_t v = 0;
    for (int j = 0; j < 4; ++j) {
      const auto c = static_cast<unsigned char>(text[i + static_cast<std::size_t>(j)]);
      const std::uint8_t d = j >= 4 - pad ? 0 : table[c];
      if (d == kNotBase64) return std::nullopt;
      v = (v << 6) | d;
    }
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    if (pad < 2) out.push_back(static_cast<std::uint8_t>(v >> 8));
    if (pad < 1) out.push_back(static_cast<std::uint8_t>(v));
  }
  return out;
}

std::string encode_base64_floats(const std::vector<float>& values) {
  return encode_base64(reinterpret_cast<const std::uint8_t*>(values.data()),
                       static_cast<std::int64_t>(values.size() * sizeof(float)));
}

std::optional<std::vector<float>> decode_base64_floats(const std::string& text) {
  const auto bytes = decode_base64(text);
  if (!bytes || bytes->size() % sizeof(float) != 0) return std::nullopt;
  std::vector<float> values(bytes->size() / sizeof(float));
  std::memcpy(values.data(), bytes->data(), bytes->size());
  return values;
}

}  // namespace sl::request
