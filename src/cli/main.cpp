// serving-lab: the teacher's and CI's door to the same cells the page runs.
//   serving-lab list [--json]                         labs, cells, parameters with defaults, ranges, units
//   serving-lab run <lab>/<cell> [--<param> v]... [--seed N] [--json] [--progress]
//   serving-lab validate <lab>/<cell> [--<param> v]... [--seed N] [--json]   run's refusal, without running
//   serving-lab validate --batch                      the same for JSON lines on stdin, one line out for each
//   serving-lab search [--<param> v]... [--threads N] [--shard i/n] [--format jsonl|csv]   (cli/search.h)
//   serving-lab check [--json]                        every book row at its scenario (defaults + its `when`); exit 1 on a miss
// Bad input: one line `error: <message>` on stderr, exit 2.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/presets.h"
#include "cli/read_files.h"
#include "cli/search.h"
#include "cli/to_json.h"
#include "core/clock.h"
#include "core/registry.h"
#include "core/text.h"

namespace {

using sl::format_number;

constexpr int kBadInput = 2;

int fail(const sl::Error& e) {
  std::cerr << "error: " << sl::printable(e).message << "\n";  // one line of valid UTF-8
  return kBadInput;
}

void print_usage() {
  std::cout << "usage: serving-lab list [--json]\n"
               "       serving-lab presets [--json]   (the model and GPU presets, with their sources)\n"
               "       serving-lab run <lab>/<cell> [--preset ID] [--<param> <value>]... [--seed N] [--json] [--progress]\n"
               "       serving-lab validate <lab>/<cell> [--<param> <value>]... [--seed N] [--json]\n"
               "       serving-lab validate --batch   (JSON lines on stdin: {\"cell\": id, \"inputs\": {name: text}})\n"
               "       serving-lab search [--<param> <value>]... [--seed N] [--threads N] [--shard i/n] [--format jsonl|csv]\n"
               "                          (llm/capacity-search's grid on every core, one line per point)\n"
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
    for (const auto& preset : c.presets) {
      std::cout << "      --preset " << preset.id << ":";
      for (const auto& [name, text] : preset.values) std::cout << " --" << name << " " << text;
      std::cout << "\n";
    }
  }
  return 0;
}

/// "ok", "MISS", "n/a", or for a row expected to differ "✗ explained" (outside its tolerance, as it
/// should be) and "MISS" (it came within).
const char* verdict(const sl::BookCheck& c) {
  if (!c.applies) return "n/a";
  if (c.expect_differs) return c.ok ? "✗ explained" : "MISS";
  return c.ok ? "ok" : "MISS";
}

void print_book_row(const sl::BookCheck& c) {
  std::printf("  %-11s %-11s %-10s %-48s book %-12s ours %-14s %s", verdict(c), c.kind.c_str(), c.ref.c_str(),
              c.label.c_str(), format_number(c.book).c_str(), format_number(c.ours).c_str(), c.unit.c_str());
  if (c.tol_kind == "se") std::printf("  (±%s: %s × SE)", format_number(c.allowed).c_str(), format_number(c.tolerance).c_str());
  if (!c.applies) std::printf("  (book scenario: %s)", c.when.c_str());
  std::printf("\n");
}

void print_book(const sl::RunResult& r) {
  for (const auto& c : r.book) print_book_row(c);
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
  for (const auto& f : r.fills) {
    std::cout << "fill " << f.name << (f.whole_page ? " (every cell):" : ":");
    for (const auto& [name, value] : f.values) std::cout << " --" << name << " " << value;
    std::cout << "\n";
  }
}

/// Progress on stderr ("progress: 42 %"), once a run has taken a second and then at most every second;
/// silent for shorter runs. Ends its line when the run ends.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled), start_s_(sl::wall_now_s()) {}
  ~ProgressLine() {
    if (shown_) std::cerr << "\n";
  }
  void operator()(double frac) {
    const double now_s = sl::wall_now_s();
    if (!enabled_ || now_s - start_s_ < 1 || now_s - last_s_ < 1) return;
    last_s_ = now_s;
    shown_ = true;
    std::cerr << "\rprogress: " << static_cast<int>(100 * frac) << " %" << std::flush;
  }

 private:
  bool enabled_;
  double start_s_;
  double last_s_ = -1;
  bool shown_ = false;
};

int run(const sl::cli::Args& args) {
  ProgressLine progress(!args.json || args.progress);  // --json: quiet unless --progress
  sl::RunControl ctl([&progress](double frac) { progress(frac); });
  auto params = sl::cli::read_files(args.cell, args.params);
  if (!params.ok()) return fail(params.error());
  auto result = sl::run_cell(args.cell, params.value(), args.seed, ctl);
  if (!result.ok()) {
    if (args.json) std::cout << sl::cli::to_json(sl::printable(result.error())).dump() << "\n";
    return fail(result.error());
  }
  if (args.json)
    std::cout << sl::cli::to_json(result.value()).dump() << "\n";
  else
    print_result(result.value());
  return 0;
}

/// The refusal `run` gives these inputs before it simulates anything, or none: run_cell's own checks (the cell, the
/// inputs, the seed), then the cell's validation, budget included, with RunControl::validate_only.
std::optional<sl::Error> validation_error(const std::string& cell_id, const std::map<std::string, std::string>& raw,
                                          const std::string& seed_text) {
  sl::RunControl validation_alone;
  validation_alone.validate_only = true;
  auto accepted = sl::run_cell(cell_id, raw, seed_text, validation_alone);
  if (accepted.ok()) return std::nullopt;
  return accepted.error();
}

/// `validate <cell>`: "ok" (exit 0), or the error `run` would give (exit 2); --json prints {"ok": true} or the
/// error as `run --json` prints it.
int validate(const sl::cli::Args& args) {
  auto params = sl::cli::read_files(args.cell, args.params);
  std::optional<sl::Error> error = params.ok() ? validation_error(args.cell, params.value(), args.seed)
                                               : std::optional<sl::Error>(sl::printable(params.error()));
  if (!error) {
    std::cout << (args.json ? "{\"ok\":true}" : "ok") << "\n";
    return 0;
  }
  if (args.json) std::cout << sl::cli::to_json(*error).dump() << "\n";
  return fail(*error);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// "6e0a" -> "n\n"; nothing when the text is not pairs of hex digits.
std::optional<std::string> from_hex(const std::string& text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string bytes;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes += static_cast<char>(hi * 16 + lo);
  }
  return bytes;
}

/// One line of `validate --batch`: {"cell": id, "inputs": {name: text}, "seed": text, "run": bool, "hex": bool}.
/// The inputs are taken as they are, as run_cell (and the page's module) takes them: a file parameter's text is
/// its content (no @path) and sets no choice. With "hex": true the cell id, the names and the texts are hex, so a
/// case may hold any bytes (NUL, invalid UTF-8); with "run": true a case the validation accepts is run, and the
/// run's refusal, if any, reported. Out: {"ok": true}, or the error as `run --json` prints it.
nlohmann::ordered_json validate_case(const std::string& line, int number) {
  const auto malformed = [&](const std::string& why) {
    return sl::cli::to_json(sl::invalid("", "validate --batch, line " + std::to_string(number) + ": " + why));
  };
  const nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return malformed("not a JSON object");
  const auto flag = [&](const char* name) {
    const auto it = json.find(name);
    return it != json.end() && it->is_boolean() && it->get<bool>();
  };
  const bool hex = flag("hex");
  const auto text = [&](const nlohmann::json& value) -> std::optional<std::string> {
    if (!value.is_string()) return std::nullopt;
    return hex ? from_hex(value.get<std::string>()) : std::optional<std::string>(value.get<std::string>());
  };
  const auto cell_it = json.find("cell");
  const auto cell_id = cell_it == json.end() ? std::nullopt : text(*cell_it);
  if (!cell_id) return malformed(hex ? "\"cell\" must be hex text" : "\"cell\" must be text");
  std::map<std::string, std::string> raw;
  if (const auto inputs = json.find("inputs"); inputs != json.end()) {
    if (!inputs->is_object()) return malformed("\"inputs\" must be an object");
    for (const auto& [name, value] : inputs->items()) {
      const auto key = hex ? from_hex(name) : std::optional<std::string>(name);
      const auto data = text(value);
      if (!key || !data) return malformed(hex ? "every input name and value must be hex text" : "every input value must be text");
      raw[*key] = *data;
    }
  }
  std::string seed = "1";
  if (const auto it = json.find("seed"); it != json.end()) {
    const auto given = text(*it);
    if (!given) return malformed("\"seed\" must be text");
    seed = *given;
  }
  std::optional<sl::Error> error = validation_error(*cell_id, raw, seed);
  if (!error && flag("run")) {
    sl::RunControl ctl;
    auto result = sl::run_cell(*cell_id, raw, seed, ctl);
    if (!result.ok()) error = result.error();
  }
  if (error) return sl::cli::to_json(*error);
  return nlohmann::ordered_json{{"ok", true}};
}

/// `validate --batch`: each line of stdin (blank lines skipped) gets one line out; exit 0.
int validate_batch() {
  std::string line;
  for (int number = 1; std::getline(std::cin, line); ++number)
    if (!line.empty()) std::cout << validate_case(line, number).dump() << "\n";
  return 0;
}

/// Passing and failing rows, for the summary.
struct Tally {
  int pass = 0, miss = 0;
  std::string text() const { return std::to_string(pass) + "/" + std::to_string(pass + miss); }
};

std::string scenario_text(const std::map<std::string, std::string>& inputs) {
  std::string text;
  for (const auto& [name, value] : inputs) text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

/// Every book row of every cell, each judged in the run of its scenario (sl::book_scenarios: the defaults,
/// then the defaults overridden by each distinct `when`); exit 0 only if every row passes.
int check(bool json) {
  Tally all_rows;
  std::map<std::string, Tally> by_kind, by_source;
  int num_explained = 0, num_runs = 0;
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  const auto tally = [&](const sl::BookRef& ref, bool pass) {
    for (Tally* t : {&all_rows, &by_kind[ref.kind], &by_source[ref.source]}) (pass ? t->pass : t->miss) += 1;
  };
  for (const auto& cell : sl::all_cells()) {
    const auto scenarios = sl::book_scenarios(cell);
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      const auto& scenario = scenarios[i];
      const std::string at = i == 0 ? "" : "  at " + scenario_text(scenario.inputs);
      sl::RunControl ctl;
      auto result = sl::run_cell(cell.id, scenario.inputs, "1", ctl);
      ++num_runs;
      if (!result.ok()) {
        std::cerr << cell.id << at << ": " << result.error().message << "\n";
        if (scenario.refs.empty()) all_rows.miss += 1;  // a cell must run at its defaults
        for (const auto* ref : scenario.refs) tally(*ref, false);
        continue;
      }
      sl::RunResult r = std::move(result.value());
      std::vector<sl::BookCheck> rows;  // this scenario's rows, in lab-file order
      if (!json) std::cout << cell.id << at << "\n";
      for (const auto* ref : scenario.refs) {
        const auto it = std::find_if(r.book.begin(), r.book.end(), [&](const sl::BookCheck& c) {
          return c.ref == ref->ref && c.output == ref->output && c.label == ref->label;  // one notebook cell, many rows
        });
        if (it == r.book.end()) {
          if (!json) std::printf("  MISS        %-11s %-10s %s: no output '%s' in this run\n", ref->kind.c_str(),
                                 ref->ref.c_str(), ref->label.c_str(), ref->output.c_str());
          tally(*ref, false);
          continue;
        }
        const bool pass = it->applies && it->ok;
        tally(*ref, pass);
        num_explained += pass && it->expect_differs;
        if (!json) print_book_row(*it);
        rows.push_back(*it);
      }
      if (json) {
        r.book = std::move(rows);
        auto entry = sl::cli::to_json(r);
        entry["scenario"] = scenario.inputs;
        all.push_back(std::move(entry));
      }
    }
  }
  if (json) std::cout << all.dump() << "\n";
  std::string kinds, sources;
  for (const auto& [kind, t] : by_kind) kinds += (kinds.empty() ? "" : ", ") + kind + " " + t.text();
  for (const auto& [source, t] : by_source) sources += (sources.empty() ? "" : ", ") + source + " " + t.text();
  std::cerr << "check: " << all_rows.pass << " of " << all_rows.pass + all_rows.miss << " rows pass (" << num_explained
            << " ✗ explained), " << all_rows.miss << " fail, in " << num_runs << " runs\n"
            << "  by kind: " << kinds << "\n  by source: " << sources << "\n";
  return all_rows.miss == 0 ? 0 : 1;
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
  if (a.command == "presets") {
    std::cout << (a.json ? sl::cli::presets_json() : sl::cli::presets_text());
    return 0;
  }
  if (a.command == "run") return run(a);
  if (a.command == "validate") return a.batch ? validate_batch() : validate(a);
  if (a.command == "check") return check(a.json);
  if (a.command == "search") return sl::cli::search(a.params, a.seed, a.progress, &fail);
  print_usage();
  return fail(sl::invalid("", "unknown command '" + a.command + "'"));
}
