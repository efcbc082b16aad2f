#include "core/csv.h"

#include <utility>

namespace sl::csv {

std::string header_name(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  if (first == std::string::npos) return "";
  std::string word = text.substr(first, last - first + 1);
  for (char& c : word) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return word;
}

Reader::Reader(std::string_view text, std::string param, Limits limits)
    : text_(text), param_(std::move(param)), limits_(limits) {
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte-order mark
}

Error Reader::error(const std::string& problem, const std::string& what, std::int64_t line) const {
  return Error{"csv_syntax", param_, param_ + " line " + std::to_string(line) + ": " + what,
               {{"line", std::to_string(line)}, {"problem", problem}}};
}

void Reader::skip_line_end() {
  if (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ++pos_;
  ++pos_;
  ++line_;
}

void Reader::skip_comments_and_blank_lines() {
  while (pos_ < text_.size()) {
    std::size_t i = pos_;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t')) ++i;
    const bool blank = i == text_.size() || text_[i] == '\n' || text_[i] == '\r';
    if (!blank && text_[pos_] != '#') return;
    // A comment runs to the end of its line (a NUL inside it is still refused: the file is not text).
    while (pos_ < text_.size() && !at_line_end()) {
      if (text_[pos_] == '\0') return;  // next() reports it on this line
      ++pos_;
    }
    if (pos_ < text_.size()) skip_line_end();
  }
}

Result<bool> Reader::next(std::vector<std::string>& fields) {
  fields.clear();
  skip_comments_and_blank_lines();
  if (pos_ >= text_.size()) return false;
  record_line_ = line_;
  const auto max_bytes = static_cast<std::size_t>(limits_.max_field_bytes);
  const std::string too_long = "a field is longer than " + std::to_string(limits_.max_field_bytes) + " bytes";
  while (true) {
    if (static_cast<std::int64_t>(fields.size()) == limits_.max_fields)
      return error("too_many_fields", "a record has more than " + std::to_string(limits_.max_fields) + " fields",
                   record_line_);
    std::string& field = fields.emplace_back();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      const std::int64_t opened_line = line_;
      ++pos_;
      bool closed = false;
      while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (c == '"') {
          if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
            field += '"';
            pos_ += 2;
          } else {
            ++pos_;
            closed = true;
            break;
          }
        } else if (c == '\0') {
          return error("nul", "a NUL byte (this is not a text file)", line_);
        } else if (c == '\n' || c == '\r') {
          const bool crlf = c == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n';
          field += crlf ? "\r\n" : std::string(1, c);
          skip_line_end();
        } else {
          field += c;
          ++pos_;
        }
        if (field.size() > max_bytes) return error("field_too_long", too_long, line_);
      }
      if (!closed)
        return error("unclosed_quote", "a quoted field opened here is never closed", opened_line);
      if (pos_ < text_.size() && text_[pos_] != ',' && !at_line_end())
        return error("after_quote", "text after a closing quote (a quote inside a field is written \"\")", line_);
    } else {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && text_[pos_] != ',' && !at_line_end()) {
        if (text_[pos_] == '"')
          return error("quote_in_field", "a quote inside an unquoted field (quote the whole field)", line_);
        if (text_[pos_] == '\0') return error("nul", "a NUL byte (this is not a text file)", line_);
        ++pos_;
      }
      if (pos_ - start > max_bytes) return error("field_too_long", too_long, line_);
      field.assign(text_.substr(start, pos_ - start));
    }
    if (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      continue;
    }
    if (pos_ < text_.size()) skip_line_end();
    return true;
  }
}

}  // namespace sl::csv
