#pragma once
// The escapes of tests/fuzz/corpus/*.txt (\xHH, \n, \t, \0, \\, \|: every corpus file is plain text), read back
// by the corpus replay (tests/unit/core/fuzz_corpus_test.cpp) and by the fuzzer's model_config seeds (fuzz.cpp).
#include <cstddef>
#include <string>

namespace sl_fuzz {

/// `text` with its escapes replaced by the bytes they stand for; a lone backslash at the end stays.
inline std::string unescape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    if (c == 'n') out += '\n';
    else if (c == 't') out += '\t';
    else if (c == '0') out += '\0';
    else if (c == 'x' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else out += c;  // \\ and \|
  }
  return out;
}

}  // namespace sl_fuzz
