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
  /// An estimate as three columns, <name><unit>, <name>_lo<unit> and <name>_hi<unit>, each times `scale`.
  void put(const std::string& name, const std::string& unit, const Estimate& e, double scale) {
    put(name + unit, scale * e.value);
    put(name + "_lo" + unit, scale * e.lo);
    put(name + "_hi" + unit, scale * e.hi);
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
