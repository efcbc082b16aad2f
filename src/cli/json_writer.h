#pragma once
// The nlohmann writer of core/result_fields.h: builds one ordered_json (keys in the field list's order).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sl::cli {

class JsonWriter {
 public:
  void begin_object() { open(nlohmann::ordered_json::object()); }
  void begin_array() { open(nlohmann::ordered_json::array()); }
  void end_object() { close(); }
  void end_array() { close(); }
  void key(const std::string& name) { key_ = name; }
  void number(double x) { put(x); }
  void integer(std::int64_t x) { put(x); }
  void string(const std::string& text) { put(text); }
  void boolean(bool b) { put(b); }
  void doubles(const std::vector<double>& values) { put(values); }
  void bytes(const std::string& data) { put(std::vector<std::uint8_t>(data.begin(), data.end())); }
  /// The finished value.
  nlohmann::ordered_json take() { return std::move(root_); }

 private:
  void put(nlohmann::ordered_json value) {
    if (stack_.empty()) root_ = std::move(value);
    else if (stack_.back().is_array()) stack_.back().push_back(std::move(value));
    else stack_.back()[key_] = std::move(value);
  }
  void open(nlohmann::ordered_json container) {
    stack_.push_back(std::move(container));
    keys_.push_back(key_);
  }
  void close() {
    nlohmann::ordered_json done = std::move(stack_.back());
    stack_.pop_back();
    key_ = keys_.back();
    keys_.pop_back();
    put(std::move(done));
  }
  nlohmann::ordered_json root_;
  std::vector<nlohmann::ordered_json> stack_;
  std::vector<std::string> keys_;  ///< the key each open container goes under in its parent
  std::string key_;
};

}  // namespace sl::cli
