#pragma once
#include "core/table_columns.h"
#include "queues/confidence_intervals.h"

namespace sl::queues {

/// core's TableColumns, with the queues' estimates (a value and its 95 % interval) as three columns.
class TableColumns : public sl::TableColumns {
 public:
  /// An estimate as three columns (value, lo, hi), each times `scale`: names written out in full, so
  /// that grep finds them ("mm1_W_ms", "mm1_W_lo_ms", "mm1_W_hi_ms").
  void put_estimate(const char* name, const char* lo_name, const char* hi_name, const Estimate& e, double scale) {
    put(name, scale * e.value);
    put(lo_name, scale * e.lo);
    put(hi_name, scale * e.hi);
  }
};

}  // namespace sl::queues
