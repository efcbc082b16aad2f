#pragma once
// A CSV reader with RFC 4180's rules, for files a reader gives (a request trace, measured points): records end at
// LF, CRLF or a lone CR; fields are separated by commas; a field that starts with a double quote runs to the
// matching quote, may hold commas, quotes (doubled: "") and line breaks, and must be followed by a comma or the
// end of the record. Beyond the RFC, as Python's csv and spreadsheet exports need: a UTF-8 byte-order mark at the
// start is skipped, blank lines are skipped, and a line starting with '#' is a comment (a file's header of source
// and licence). A NUL byte, a quote inside an unquoted field, text after a closing quote, a quote never closed, a
// record of too many fields and a field too long are errors naming the line, never a crash: the file is hostile
// until read.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sl::csv {

/// Bounds the reader enforces while it reads: what a record may hold.
struct Limits {
  std::int64_t max_fields = 64;         ///< fields of one record
  std::int64_t max_field_bytes = 4096;  ///< bytes of one field, after unquoting
};

/// A header field as a reader matches it against the names it knows: spaces and tabs around it trimmed, ASCII
/// letters in lower case ("  ContextTokens " -> "contexttokens").
std::string header_name(const std::string& text);

/// Reads records one at a time from `text` (which must outlive the reader). Errors carry code "csv_syntax", the
/// parameter the file came in, a message "<param> line N: ..." and args {line, problem}: problem is one of
/// "nul", "quote_in_field", "after_quote", "unclosed_quote", "too_many_fields", "field_too_long".
class Reader {
 public:
  Reader(std::string_view text, std::string param, Limits limits = {});

  /// The next record's fields into `fields` (reused: cleared first); false at the end of the text.
  Result<bool> next(std::vector<std::string>& fields);
  /// The line the record last read starts on (1-based), for messages about it.
  std::int64_t line() const { return record_line_; }

 private:
  Error error(const std::string& problem, const std::string& what, std::int64_t line) const;
  bool at_line_end() const { return pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r'); }
  void skip_line_end();  ///< past one LF, CRLF or CR, counting the line
  void skip_comments_and_blank_lines();

  std::string_view text_;
  std::string param_;
  Limits limits_;
  std::size_t pos_ = 0;
  std::int64_t line_ = 1;         ///< line of text_[pos_]
  std::int64_t record_line_ = 0;  ///< first line of the record last read
};

}  // namespace sl::csv
