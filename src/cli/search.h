#pragma once
// serving-lab search: llm/capacity-search's grid on every core, one line per point (JSON or CSV) in grid order.
//   serving-lab search [--<param> v]... [--seed N] [--threads N] [--shard i/n] [--format jsonl|csv] [--progress]
// --threads (default: every core) takes designs in turn; the lines come out in grid order whatever the count.
// --shard i/n runs the i-th of n contiguous blocks of designs: the n shards' outputs, concatenated in order, are
// the unsharded run's byte for byte (the CSV header is printed by shard 1 only). The counts and the cheapest
// point meeting every SLO go to stderr.
#include <iostream>
#include <map>
#include <string>

#include "core/error.h"

namespace sl::cli {

/// The lines go to `out`, the counts and the winner to `err`; an error goes through `fail` (which prints it) and
/// its return is returned.
int search(const std::map<std::string, std::string>& params, const std::string& seed, bool show_progress,
           int (*fail)(const Error&), std::ostream& out = std::cout, std::ostream& err = std::cerr);

}  // namespace sl::cli
