#include "core/text.h"

#include <cstdint>

namespace sl {

namespace {

/// Length of the UTF-8 sequence starting at text[i] (1-4), or 0 when it is not a valid, shortest-form one.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2, cp = b0 & 0x1Fu;
  else if (b0 >= 0xE0 && b0 <= 0xEF) n = 3, cp = b0 & 0x0Fu;
  else if (b0 >= 0xF0 && b0 <= 0xF4) n = 4, cp = b0 & 0x07u;
  else return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  return overlong || surrogate || cp > 0x10FFFF ? 0 : n;
}

}  // namespace

std::string echo(const std::string& text, std::size_t max_bytes) {
  std::string out;
  std::size_t i = 0;
  for (; i < text.size(); ) {
    const std::size_t n = utf8_length(text, i);
    const std::size_t step = n == 0 ? 1 : n;
    if (i + step > max_bytes) break;
    const auto b = static_cast<unsigned char>(text[i]);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
    } else if (b == '\n') {
      out += "\\n";
    } else if (b == '\r') {
      out += "\\r";
    } else if (b == '\t') {
      out += "\\t";
    } else if (b < 0x20 || b == 0x7F) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    } else {
      out.append(text, i, n);
    }
    i += step;
  }
  if (i < text.size()) out += "\xE2\x80\xA6";  // "…": the echo is cut
  return out;
}

Error printable(Error error) {
  constexpr std::size_t kAll = static_cast<std::size_t>(-1);
  error.code = echo(error.code, kAll);
  error.param = echo(error.param, kAll);
  error.message = echo(error.message, kAll);
  for (auto& [key, value] : error.args) {
    key = echo(key, kAll);
    value = echo(value, kAll);
  }
  return error;
}

bool is_decimal(const std::string& text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < n && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  while (i < n && text[i] == ' ') ++i;
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < n && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  while (i < n && text[i] == ' ') ++i;
  return i == n;
}

bool names_non_finite(const std::string& text) {
  const std::size_t first = text.find_first_not_of(' '), last = text.find_last_not_of(' ');
  if (first == std::string::npos) return false;
  std::string word = text.substr(first, last - first + 1);
  if (word[0] == '+' || word[0] == '-') word.erase(0, 1);
  for (char& c : word) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return word == "inf" || word == "infinity" || word == "nan" || (word.rfind("nan(", 0) == 0 && word.back() == ')');
}

}  // namespace sl
