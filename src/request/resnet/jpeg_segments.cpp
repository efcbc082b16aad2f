#include "request/resnet/jpeg_segments.h"

#include <cstddef>

namespace sl::request {
namespace {

constexpr int kMaxHuffmanCodes = 256;  // stb_image's values[256]; the JPEG standard's limit too

/// Reads big-endian fields of one JPEG, never past its end.
class Reader {
 public:
  explicit Reader(const std::string& data) : data_(data) {}
  std::size_t pos() const { return pos_; }
  std::size_t left() const { return data_.size() - pos_; }
  int byte(std::size_t at) const { return static_cast<unsigned char>(data_[at]); }
  int next() { return byte(pos_++); }  // callers check left() first
  int u16() {
    const int hi = next();
    return (hi << 8) | next();
  }
  void skip(std::size_t n) { pos_ += n; }
  void seek(std::size_t at) { pos_ = at; }

 private:
  const std::string& data_;
  std::size_t pos_ = 0;
};

bool is_sof(int marker) {
  return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

/// DHT: tables of (class/id, 16 counts, the counts' symbols) filling the segment exactly.
/// Records each table it defines in `defined` (bit class * 4 + id).
std::string check_dht(Reader r, std::size_t end, unsigned& defined) {
  while (r.pos() < end) {
    if (end - r.pos() < 17) return "a DHT segment is truncated";
    const int id = r.next();
    if ((id >> 4) > 1 || (id & 15) > 3) return "a DHT table has a bad class or id";
    defined |= 1u << ((id >> 4) * 4 + (id & 15));
    int codes = 0;
    long long next_code = 0;  // canonical Huffman: the first free code of each length must fit in it
    bool overfull = false;
    for (int length = 1; length <= 16; ++length) {
      const int count = r.next();
      codes += count;
      next_code += count;
      if (next_code > (1LL << length)) overfull = true;
      next_code <<= 1;
    }
    if (codes > kMaxHuffmanCodes)
      return "a DHT table has " + std::to_string(codes) + " codes, more than 256";
    if (overfull) return "a DHT table has more codes of some length than the lengths allow";
    if (end - r.pos() < static_cast<std::size_t>(codes)) return "a DHT segment is truncated";
    // Each symbol once: a table that lists one twice sends stb_image's decoder through uninitialised
    // entries (a crash found by tests/fuzz, jpeg target, seed 1).
    bool seen[256] = {};
    for (int i = 0; i < codes; ++i) {
      const int symbol = r.next();
      if (seen[symbol]) return "a DHT table lists the symbol " + std::to_string(symbol) + " twice";
      seen[symbol] = true;
    }
  }
  return "";
}

/// DQT: tables of (precision/id, 64 entries of 1 or 2 bytes) filling the segment exactly.
/// Records each table it defines in `defined` (bit id).
std::string check_dqt(Reader r, std::size_t end, unsigned& defined) {
  while (r.pos() < end) {
    const int id = r.next();
    if ((id >> 4) > 1 || (id & 15) > 3) return "a DQT table has a bad precision or id";
    defined |= 1u << (id & 15);
    const std::size_t size = (id >> 4) == 0 ? 64 : 128;
    if (end - r.pos() < size) return "a DQT segment is truncated";
    r.skip(size);
  }
  return "";
}

/// SOFn: precision, height, width, components (id, sampling factors, quantisation table).
/// The quantisation table each component names goes to `quant_tables` (bit id).
std::string check_sof(Reader r, std::size_t length, JpegFrame& frame, unsigned& quant_tables) {
  if (length < 8) return "the frame header is truncated";
  r.next();  // sample precision: stb checks it
  frame.height = r.u16();
  frame.width = r.u16();
  frame.components = r.next();
  if (frame.width == 0 || frame.height == 0) return "the frame has no pixels";
  if (frame.components != 1 && frame.components != 3 && frame.components != 4)
    return "the frame has " + std::to_string(frame.components) + " components (1, 3 or 4 decode)";
  if (length != 8 + 3 * static_cast<std::size_t>(frame.components)) return "the frame header has a bad length";
  for (int c = 0; c < frame.components; ++c) {
    r.next();
    const int factors = r.next();
    if ((factors >> 4) < 1 || (factors >> 4) > 4 || (factors & 15) < 1 || (factors & 15) > 4)
      return "a component has sampling factors outside 1-4";
    const int tq = r.next();
    if (tq > 3) return "a component names a quantisation table above 3";
    quant_tables |= 1u << tq;
  }
  return "";
}

/// SOS: every Huffman table the scan uses, and every quantisation table of the frame, defined before it. A scan
/// naming a table no DHT defined sends stb_image through an uninitialised table (a crash found by tests/fuzz,
/// jpeg target, 10^6 runs). A progressive frame's DC scans (Ss = 0) use only DC tables, its AC scans only AC ones.
std::string check_sos(Reader r, std::size_t length, bool progressive, unsigned huffman, unsigned quant,
                      unsigned frame_quant) {
  if ((frame_quant & ~quant) != 0) return "a scan comes before the quantisation table a component names";
  if (length < 3) return "a scan header is truncated";
  const int count = r.next();
  if (count < 1 || count > 4 || length != 6 + 2 * static_cast<std::size_t>(count)) return "a scan header has a bad length";
  int selectors[4] = {};
  for (int c = 0; c < count; ++c) {
    r.next();
    selectors[c] = r.next();
  }
  const int spectral_start = r.next();
  const bool uses_dc = !progressive || spectral_start == 0, uses_ac = !progressive || spectral_start > 0;
  for (int c = 0; c < count; ++c) {
    const int dc = selectors[c] >> 4, ac = selectors[c] & 15;
    if (dc > 3 || ac > 3) return "a scan names a Huffman table above 3";
    if (uses_dc && (huffman & (1u << dc)) == 0) return "a scan uses a DC Huffman table no DHT defined";
    if (uses_ac && (huffman & (1u << (4 + ac))) == 0) return "a scan uses an AC Huffman table no DHT defined";
  }
  return "";
}

/// The position of the marker after a scan's entropy-coded data (an 0xFF not followed by 0x00 or RSTn),
/// or the file's end.
std::size_t end_of_scan(const Reader& r, std::size_t from, std::size_t size) {
  for (std::size_t i = from; i + 1 < size; ++i) {
    if (r.byte(i) != 0xFF) continue;
    const int next = r.byte(i + 1);
    if (next != 0x00 && next != 0xFF && !(next >= 0xD0 && next <= 0xD7)) return i;
  }
  return size;
}

}  // namespace

Result<JpegFrame> check_jpeg_segments(const std::string& jpeg, const std::string& param, double max_pixels) {
  const auto bad = [&](const std::string& why) -> Error {
    return Error{"invalid", param, param + " is not a JPEG file this cell can decode (" + why + ")", {{"reason", why}, {"problem", "not_jpeg"}}};
  };
  Reader r(jpeg);
  if (jpeg.size() < 4 || r.byte(0) != 0xFF || r.byte(1) != 0xD8) return bad("no JPEG start marker");
  r.seek(2);
  JpegFrame frame;
  bool has_frame = false, progressive = false;
  unsigned huffman_tables = 0, quant_tables = 0, frame_quant_tables = 0;  // defined so far; named by the frame
  while (r.left() > 0) {
    if (r.next() != 0xFF) return bad("a segment does not start with a marker");
    int marker = 0xFF;
    while (marker == 0xFF && r.left() > 0) marker = r.next();  // fill bytes
    if (marker == 0xFF) break;
    if (marker == 0xD9) break;                                          // EOI
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
    if (r.left() < 2) return bad("a segment is truncated");
    const std::size_t start = r.pos();
    const auto length = static_cast<std::size_t>(r.u16());
    if (length < 2 || length > r.left() + 2) return bad("a segment is truncated");
    const std::size_t end = start + length;
    std::string why;
    if (marker == 0xC4) why = check_dht(r, end, huffman_tables);
    if (marker == 0xDB) why = check_dqt(r, end, quant_tables);
    if (is_sof(marker) && !has_frame) {
      why = check_sof(r, length, frame, frame_quant_tables);
      has_frame = why.empty();
      progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
      if (has_frame && static_cast<double>(frame.width) * static_cast<double>(frame.height) > max_pixels) {
        const double pixels = static_cast<double>(frame.width) * static_cast<double>(frame.height);
        return Error{"too_large", param,
                     param + " is " + format_number(static_cast<double>(frame.width)) + " x " +
                         format_number(static_cast<double>(frame.height)) + " = " + format_number(pixels / 1e6) +
                         " megapixels; this cell decodes at most " + format_number(max_pixels / 1e6) + " megapixels",
                     {{"got", format_number(pixels)}, {"max", format_number(max_pixels)}, {"unit", "px"}, {"problem", "pixels"},
                      {"width", std::to_string(frame.width)}, {"height", std::to_string(frame.height)}}};
      }
    }
    if (marker == 0xDA && has_frame)
      why = check_sos(r, length, progressive, huffman_tables, quant_tables, frame_quant_tables);
    if (!why.empty()) return bad(why);
    r.seek(end);
    if (marker == 0xDA) {
      if (!has_frame) return bad("a scan comes before the frame header");
      r.seek(end_of_scan(r, end, jpeg.size()));
    }
  }
  if (!has_frame) return bad("no frame header");
  return frame;
}

}  // namespace sl::request
