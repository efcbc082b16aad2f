// serving-lab: the teacher's and CI's door to the same cells the page runs.
//   serving-lab list [--json]                         labs, cells, parameters with defaults, ranges, units
//   serving-lab run <lab>/<cell> [--<param> v]... [--seed N] [--json]
//   serving-lab check [--json]                        every cell at its defaults against the book; exit 1 on a miss
// Bad input: one line `error: <message>` on stderr, exit 2.
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/read_files.h"
#include "cli/to_json.h"
#include "core/registry.h"

namespace {

using sl::format_number;

constexpr int kBadInput = 2;

int fail(const sl::Error& e) {
  std::cerr << "error: " << e.message << "\n";
  return kBadInput;
}

void print_usage() {
  std::cout << "usage: serving-lab list [--json]\n"
               "       serving-lab run <lab>/<cell> [--<param> <value>]... [--seed N] [--json]\n"
               "       serving-lab check [--json]\n";
}

std::string describe(const sl::ParamSpec& p) {
  if (p.kind == sl::ParamSpec::Kind::Bytes)
    return "--" + p.name + " @file (" + p.accept + ", at most " + format_number(p.max) + " bytes; default: the built-in one)";
  if (p.kind == sl::ParamSpec::Kind::Choice) {
    std::string list;
    for (const auto& c : p.choices) list += (list.empty() ? "" : "|") + c;
    return "--" + p.name + " " + list + " (default " + p.default_choice + ")";
  }
  return "--" + p.name + " " + (p.kind == sl::ParamSpec::Kind::Count ? "integer" : "number") + " in [" +
         format_number(p.min) + ", " + format_number(p.max) + "]" + (p.unit.empty() ? "" : " " + p.unit) +
         " (default " + format_number(p.default_value) + ")";
}

std::string used_when_text(const sl::ParamSpec& p) {
  if (p.used_when_param.empty()) return "";
  std::string values;
  for (const auto& v : p.used_when_values) values += (values.empty() ? "" : "|") + v;
  return "  [used when --" + p.used_when_param + " " + values + "]";
}

int list(bool json) {
  if (json) {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const auto& c : sl::all_cells()) all.push_back(sl::cli::to_json(c));
    std::cout << all.dump(2) << "\n";
    return 0;
  }
  std::string lab;
  for (const auto& c : sl::all_cells()) {
    if (c.lab() != lab) std::cout << (lab.empty() ? "" : "\n") << "lab " << (lab = c.lab()) << "\n";
    std::cout << "  " << c.id << (c.uses_seed ? "  [--seed N]" : "") << "\n";
    for (const auto& p : c.params) std::cout << "      " << describe(p) << used_when_text(p) << "\n";
    for (const auto& line : c.budget) std::cout << "      budget: " << line << "\n";
  }
  return 0;
}

void print_book(const sl::RunResult& r) {
  for (const auto& c : r.book) {
    const char* verdict = !c.applies ? "n/a" : c.ok ? "ok" : "MISS";
    std::printf("  %-4s %-12s %-48s book %-12s ours %-14s %s", verdict, c.ref.c_str(), c.label.c_str(),
                format_number(c.book).c_str(), format_number(c.ours).c_str(), c.unit.c_str());
    if (!c.applies) std::printf("  (book scenario: %s)", c.when.c_str());
    std::printf("\n");
  }
}

void print_result(const sl::RunResult& r) {
  std::cout << r.cell << "  seed " << r.seed << "\n";
  for (const auto& n : r.notices) std::cout << "notice: " << n.message << "\n";
  std::cout << "outputs\n";
  for (const auto& [name, value] : r.outputs) std::printf("  %-28s %s\n", name.c_str(), format_number(value).c_str());
  if (!r.book.empty()) std::cout << "book\n";
  print_book(r);
  for (const auto& t : r.tables)
    std::cout << "table " << t.name << ": " << t.columns.size() << " columns x "
              << (t.columns.empty() ? 0 : t.columns.front().second.size()) << " rows (--json for values)\n";
}

int run(const sl::cli::Args& args) {
  sl::RunControl ctl;
  auto params = sl::cli::read_files(args.cell, args.params);
  if (!params.ok()) return fail(params.error());
  auto result = sl::run_cell(args.cell, params.value(), args.seed, ctl);
  if (!result.ok()) {
    if (args.json) std::cout << sl::cli::to_json(result.error()).dump() << "\n";
    return fail(result.error());
  }
  if (args.json)
    std::cout << sl::cli::to_json(result.value()).dump() << "\n";
  else
    print_result(result.value());
  return 0;
}

int check(bool json) {
  int num_ok = 0, num_miss = 0, num_na = 0;
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const auto& cell : sl::all_cells()) {
    sl::RunControl ctl;
    auto result = sl::run_cell(cell.id, {}, "1", ctl);
    if (!result.ok()) {
      std::cerr << cell.id << ": " << result.error().message << "\n";
      ++num_miss;
      continue;
    }
    if (json) {
      all.push_back(sl::cli::to_json(result.value()));
    } else {
      std::cout << cell.id << "\n";
      print_book(result.value());
    }
    for (const auto& c : result.value().book) (c.applies ? (c.ok ? num_ok : num_miss) : num_na) += 1;
  }
  if (json) std::cout << all.dump() << "\n";
  std::cerr << "check: " << num_ok << " within tolerance, " << num_miss << " outside, " << num_na
            << " not at the book's inputs\n";
  return num_miss == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  auto args = sl::cli::parse_args(std::vector<std::string>(argv + 1, argv + argc));
  if (!args.ok()) return fail(args.error());
  const auto& a = args.value();
  if (a.command == "help") {
    print_usage();
    return 0;
  }
  if (a.command == "list") return list(a.json);
  if (a.command == "run") return run(a);
  if (a.command == "check") return check(a.json);
  print_usage();
  return fail(sl::invalid("", "unknown command '" + a.command + "'"));
}
