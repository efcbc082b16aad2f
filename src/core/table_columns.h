#pragma once
// A result table built row by row: each row puts one value per column, by the column's literal name, so a
// column is named once, where its value is computed, instead of once for a vector and again for the table.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/cell.h"

namespace sl {

/// Columns of a result table filled row by row (one put per column per row), in first-use order.
class TableColumns {
 public:
  void put(const std::string& name, double value) {
    for (auto& c : columns_)
      if (c.first == name) return c.second.push_back(value);
    columns_.push_back({name, {value}});
  }
  /// One value for each of several columns, in the order given.
  void put(std::initializer_list<std::pair<const char*, double>> named_values) {
    for (const auto& [name, value] : named_values) put(name, value);
  }
  /// The same from a list built elsewhere (a row's fields declared once for a table and a file).
  void put(const std::vector<std::pair<const char*, double>>& named_values) {
    for (const auto& [name, value] : named_values) put(name, value);
  }
  /// One value for each of several columns in one unit, each value times `scale` (seconds shown in ms).
  void put_scaled(double scale, std::initializer_list<std::pair<const char*, double>> named_values) {
    for (const auto& [name, value] : named_values) put(name, value * scale);
  }
  /// Moves the columns into `table`.
  void into(Table& table) {
    for (auto& c : columns_) table.column(c.first, std::move(c.second));
    columns_.clear();
  }

 private:
  std::vector<std::pair<std::string, std::vector<double>>> columns_;
};

}  // namespace sl
