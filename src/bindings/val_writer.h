#pragma once
// The emscripten::val writer of core/result_fields.h: builds one JS value, no logic. A table's column
// becomes a Float64Array and a probe payload a Uint8Array, each created in the JS heap and filled with
// one set() from a typed_memory_view, so wasm memory growth cannot invalidate them.
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

namespace sl::bindings {

class ValWriter {
 public:
  void begin_object() { open(emscripten::val::object(), false); }
  void begin_array() { open(emscripten::val::array(), true); }
  void end_object() { close(); }
  void end_array() { close(); }
  void key(const std::string& name) { key_ = name; }
  void number(double x) { put(emscripten::val(x)); }
  void integer(std::int64_t x) { put(emscripten::val(static_cast<double>(x))); }  // no 64-bit integers cross
  void string(const std::string& text) { put(emscripten::val(text)); }
  void boolean(bool b) { put(emscripten::val(b)); }
  void doubles(const std::vector<double>& values) {
    emscripten::val array = emscripten::val::global("Float64Array").new_(values.size());
    array.call<void>("set", emscripten::val(emscripten::typed_memory_view(values.size(), values.data())));
    put(array);
  }
  void bytes(const std::string& data) {
    emscripten::val array = emscripten::val::global("Uint8Array").new_(data.size());
    array.call<void>("set", emscripten::val(emscripten::typed_memory_view(
                                data.size(), reinterpret_cast<const unsigned char*>(data.data()))));
    put(array);
  }
  /// The finished value.
  emscripten::val take() { return root_; }

 private:
  // Arrays are filled by index (a property set), not push(): a method call goes through Embind's generic
  // invoker, which without eval (-s DYNAMIC_EXECUTION=0) costs several times more.
  void put(const emscripten::val& value) {
    if (stack_.empty()) root_ = value;
    else if (is_array_.back()) stack_.back().set(lengths_.back()++, value);
    else stack_.back().set(key_, value);
  }
  void open(emscripten::val container, bool is_array) {
    stack_.push_back(std::move(container));
    is_array_.push_back(is_array);
    lengths_.push_back(0);
    keys_.push_back(key_);
  }
  void close() {
    emscripten::val done = stack_.back();
    stack_.pop_back();
    is_array_.pop_back();
    lengths_.pop_back();
    key_ = keys_.back();
    keys_.pop_back();
    put(done);
  }
  emscripten::val root_ = emscripten::val::undefined();
  std::vector<emscripten::val> stack_;
  std::vector<bool> is_array_;
  std::vector<unsigned> lengths_;  ///< items so far in each open array
  std::vector<std::string> keys_;  ///< the key each open container goes under in its parent
  std::string key_;
};

}  // namespace sl::bindings
