#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/cell.h"
#include "queues/confidence_intervals.h"

namespace sl::queues {

/// Columns of a result table filled row by row (one put per column per row), in first-use order.
class TableColumns {
 public:
  void put(const std::string& name, double value) {
    for (auto& c : columns_)
      if (c.first == name) return c.second.push_back(value);
    columns_.push_back({name, {value}});
  }
  /// An estimate as three columns (value, lo, hi), each times `scale`: names written out in full, so
  /// that grep finds them ("mm1_W_ms", "mm1_W_lo_ms", "mm1_W_hi_ms").
  void put_estimate(const char* name, const char* lo_name, const char* hi_name, const Estimate& e, double scale) {
    put(name, scale * e.value);
    put(lo_name, scale * e.lo);
    put(hi_name, scale * e.hi);
  }
  /// Moves the columns into `table`.
  void into(Table& table) {
    for (auto& c : columns_) table.column(c.first, std::move(c.second));
    columns_.clear();
  }

 private:
  std::vector<std::pair<std::string, std::vector<double>>> columns_;
};

}  // namespace sl::queues
