// The lab files (labs/<lab>/lab.json, one labs/<lab>/<cell>.json per cell and its book rows in
// labs/<lab>/book/<cell>.json) hold only what C++ lacks: text, chart specs and book references (their form is checked against labs/schema/ by the generator and
// tests/labs/). This test fails when a lab file names a cell, parameter, output or table that the registry
// does not have, or when a registered cell is missing from its lab.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cell_runner.h"
#include "core/registry.h"

namespace SL_UNITY_ID {

namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

fs::path labs_dir() { return fs::path(SERVING_LAB_SOURCE_DIR) / "labs"; }

/// Every lab folder (labs/<lab>/lab.json), sorted.
std::vector<fs::path> lab_folders() {
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(labs_dir()))
    if (e.is_directory() && fs::exists(e.path() / "lab.json")) folders.push_back(e.path());
  std::sort(folders.begin(), folders.end());
  return folders;
}

struct CellFile {
  std::string id;  ///< "<lab>/<cell>"
  std::string lab;
  nlohmann::json doc;
  nlohmann::json book;  ///< its book rows (labs/<lab>/book/<cell>.json), an empty array without that file
  nlohmann::json lab_params;  ///< the lab's shared parameter labels (lab.json "params"), an empty object without them
  nlohmann::json lab_outputs;  ///< the lab's shared output labels (lab.json "outputs"), likewise

  /// The label entry of a parameter: the cell's own, else the lab's shared one; null when neither has it.
  const nlohmann::json* param(const std::string& name) const {
    if (doc["params"].contains(name)) return &doc["params"][name];
    if (lab_params.contains(name)) return &lab_params[name];
    return nullptr;
  }
  /// The label entry of an output, looked up as param() looks up a parameter's.
  const nlohmann::json* output(const std::string& name) const {
    if (doc["outputs"].contains(name)) return &doc["outputs"][name];
    if (lab_outputs.contains(name)) return &lab_outputs[name];
    return nullptr;
  }
};

nlohmann::json book_rows(const fs::path& folder, const std::string& cell) {
  const fs::path path = folder / "book" / (cell + ".json");
  return fs::exists(path) ? read_json(path)["book"] : nlohmann::json::array();
}

/// Every cell file, in page order within each lab.
std::vector<CellFile> cell_files() {
  std::vector<CellFile> cells;
  for (const auto& folder : lab_folders()) {
    const auto lab = read_json(folder / "lab.json");
    const std::string lab_id = folder.filename().string();
    for (const auto& name : lab["cells"]) {
      const std::string cell = name.get<std::string>();
      cells.push_back({lab_id + "/" + cell, lab_id, read_json(folder / (cell + ".json")), book_rows(folder, cell),
                       lab.contains("params") ? lab["params"] : nlohmann::json::object(),
                       lab.contains("outputs") ? lab["outputs"] : nlohmann::json::object()});
    }
  }
  return cells;
}

void check_text(const nlohmann::json& text, const std::string& where) {
  INFO(where);
  REQUIRE(text.is_object());
  CHECK(text.contains("en"));
  CHECK(text.contains("vi"));
  for (const auto& lang : {"en", "vi"}) {
    if (!text.contains(lang)) continue;
    const auto& t = text[lang];
    CHECK((t.is_string() ? !t.get<std::string>().empty() : !t.empty()));
  }
}

}  // namespace

TEST_CASE("Four labs exist, each with English and Vietnamese titles and its own order", "[labs]") {
  const auto folders = lab_folders();
  CHECK(folders.size() == 4);
  std::set<int> orders;
  for (const auto& f : folders) {
    const auto lab = read_json(f / "lab.json");
    check_text(lab["title"], f.string() + " title");
    check_text(lab["summary"], f.string() + " summary");
    orders.insert(lab["order"].get<int>());
  }
  CHECK(orders == std::set<int>{1, 2, 3, 4});
}

TEST_CASE("The registry's cells are exactly the lab files' cells, in the lab files' order", "[labs]") {
  std::vector<std::string> listed;
  std::vector<std::pair<int, std::string>> labs;
  for (const auto& f : lab_folders()) labs.emplace_back(read_json(f / "lab.json")["order"].get<int>(), f.filename().string());
  std::sort(labs.begin(), labs.end());
  for (const auto& [order, lab] : labs) {
    const auto doc = read_json(labs_dir() / lab / "lab.json");
    for (const auto& name : doc["cells"]) listed.push_back(lab + "/" + name.get<std::string>());
  }
  std::vector<std::string> registered;
  for (const auto& cell : sl::all_cells()) registered.push_back(cell.id);
  CHECK(registered == listed);
  CHECK(sl::cell_order() == listed);
}

/// A lab's shared labels of one kind (lab.json "params" or "outputs"): each is labelled in both languages, names
/// something a cell of the lab declares (`declares`), and no cell repeats it word for word.
template <class Declares>
void check_shared_labels(const std::string& kind, Declares declares) {
  for (const auto& folder : lab_folders()) {
    const auto lab = read_json(folder / "lab.json");
    if (!lab.contains(kind)) continue;
    const std::string lab_id = folder.filename().string();
    for (const auto& [name, entry] : lab[kind].items()) {
      INFO(lab_id << " shared " << kind << " " << name);
      check_text(entry["label"], lab_id + " " + name);
      bool declared = false;
      for (const auto& file : cell_files()) {
        if (file.lab != lab_id) continue;
        const sl::CellSpec* spec = sl::find_cell(file.id);
        REQUIRE(spec != nullptr);
        declared = declared || declares(*spec, name);
        INFO(file.id);
        CHECK_FALSE((file.doc[kind].contains(name) && file.doc[kind][name] == entry));
      }
      CHECK(declared);
    }
  }
}

TEST_CASE("A lab's shared parameter labels name parameters its cells declare, and no cell repeats one word for word",
          "[labs]") {
  check_shared_labels("params", [](const sl::CellSpec& spec, const std::string& name) {
    return std::any_of(spec.params.begin(), spec.params.end(), [&](const sl::ParamSpec& p) { return p.name == name; });
  });
}

TEST_CASE("A lab's shared output labels name outputs its cells declare, and no cell repeats one word for word",
          "[labs]") {
  check_shared_labels("outputs", [](const sl::CellSpec& spec, const std::string& name) {
    return spec.find_output(name) != nullptr;
  });
}

TEST_CASE("Lab files name only cells, parameters, outputs and tables the registry has", "[labs]") {
  std::set<std::string> described;
  for (const auto& file : cell_files()) {
    {
      const auto& c = file.doc;
      const std::string& id = file.id;
      INFO(id);
      described.insert(id);
      const sl::CellSpec* spec = sl::find_cell(id);
      REQUIRE(spec != nullptr);
      CHECK(spec->lab() == file.lab);
      check_text(c["title"], id + " title");
      check_text(c["text"], id + " text");
      // Each declared parameter and output has a label, the cell's own or the lab's shared one.
      const auto check_labelled = [&](const char* what, const auto& declared, auto entry_of) {
        for (const auto& d : declared) {
          INFO(what << " " << d.name << " has a label (the cell's own or the lab's shared one)");
          const nlohmann::json* entry = entry_of(d.name);
          REQUIRE(entry != nullptr);
          check_text((*entry)["label"], id + " " + d.name);
        }
      };
      check_labelled("param", spec->params, [&](const std::string& name) { return file.param(name); });
      for (const auto& [name, _] : c["params"].items()) {
        bool known = false;
        for (const auto& p : spec->params) known = known || p.name == name;
        CHECK(known);
      }
      // Outputs and tables are declared in C++ (CellSpec::outputs, ::tables); the lab file labels each
      // declared output, nothing else, and charts only declared tables (tests/unit/core/cell_test.cpp
      // checks the runs against the declarations).
      check_labelled("declared output", spec->outputs, [&](const std::string& name) { return file.output(name); });
      for (const auto& [name, entry] : c["outputs"].items()) {
        INFO("labelled output " << name << " is declared in C++");
        CHECK(spec->find_output(name) != nullptr);
      }
      for (const auto& chart : c["charts"]) {
        const std::string table = chart["spec"]["data"]["name"];
        INFO("chart table " << table << " is declared in C++");
        CHECK((table == "book" || spec->find_table(table) != nullptr));
        check_text(chart["title"], id + " chart");
      }
      for (const auto& b : file.book) {
        INFO("book " << b["ref"] << " " << b["output"]);
        CHECK(file.output(b["output"].get<std::string>()) != nullptr);
        check_text(b["label"], id + " book label");
      }
    }
  }
  for (const auto& cell : sl::all_cells()) {
    INFO("registered cell " << cell.id << " is described in its lab file");
    CHECK(described.count(cell.id) == 1);
  }
}

TEST_CASE("Every book reference of every cell passes in its scenario, and resolves to an output there",
          "[labs][book][every-cell]") {
  // The runs `serving-lab check` makes: the defaults, then the defaults overridden by each distinct `when`.
  std::size_t num_refs = 0;
  for (const auto& cell : sl::all_cells()) {
    for (const auto& scenario : sl::book_scenarios(cell)) {
      const sl::RunResult& r = cell_test::shared_run(cell.id, scenario.inputs);
      for (const auto* ref : scenario.refs) {
        ++num_refs;
        const auto& book = r.book;
        const auto c = std::find_if(book.begin(), book.end(),
                                    [&](const sl::BookCheck& b) { return b.ref == ref->ref && b.output == ref->output && b.label == ref->label; });
        INFO(cell.id << " " << ref->ref << " " << ref->output);
        REQUIRE(c != book.end());
        INFO(c->label << ": book " << c->book << ", ours " << c->ours << " (allowed ±" << c->allowed << ")");
        CHECK(c->applies);
        CHECK(c->ok);
      }
    }
  }
  CHECK(num_refs == sl::book_refs().size());
}

namespace {

/// The {name} placeholders of a chart summary sentence.
std::vector<std::string> placeholders(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    const std::size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    const std::string name = text.substr(open + 1, close - open - 1);
    if (!name.empty() && std::all_of(name.begin(), name.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }))
      names.push_back(name);
  }
  return names;
}

}  // namespace

// The explorable fields (tests/labs/explorable.test.mjs checks their shape): what they name is declared in C++, so a
// typo fails here, in the native stage, before any wasm is built (tests/wasm/lab_declarations checks the same against
// the module's list).
TEST_CASE("Key parameters, headline and predicted outputs, chart summaries and result tables name declared ones",
          "[labs]") {
  for (const auto& file : cell_files()) {
    const auto& c = file.doc;
    INFO(file.id);
    const sl::CellSpec* spec = sl::find_cell(file.id);
    REQUIRE(spec != nullptr);
    for (const auto& key : c.value("key_params", nlohmann::json::array())) {
      const std::string name = key.get<std::string>();
      INFO("key parameter " << name << " is a numeric parameter with a slider range");
      const auto p = std::find_if(spec->params.begin(), spec->params.end(), [&](const sl::ParamSpec& q) { return q.name == name; });
      REQUIRE(p != spec->params.end());
      CHECK((p->kind == sl::ParamSpec::Kind::Real || p->kind == sl::ParamSpec::Kind::Count));
      const double lo = p->slider_min == p->slider_max ? p->min : p->slider_min;
      const double hi = p->slider_min == p->slider_max ? p->max : p->slider_max;
      CHECK(lo < hi);
    }
    for (const auto& name : c.value("headline", nlohmann::json::array())) {
      INFO("headline " << name << " is a declared output");
      CHECK(spec->find_output(name.get<std::string>()) != nullptr);
    }
    if (c.contains("predict")) {
      INFO("predicted " << c["predict"]["output"] << " is a declared output");
      CHECK(spec->find_output(c["predict"]["output"].get<std::string>()) != nullptr);
    }
    for (const auto& chart : c["charts"]) {
      if (!chart.contains("summary")) continue;
      for (const char* lang : {"en", "vi"}) {
        for (const auto& name : placeholders(chart["summary"].value(lang, std::string()))) {
          INFO("chart " << chart["id"] << " summary (" << lang << ") names {" << name << "}, a declared output");
          CHECK(spec->find_output(name) != nullptr);
        }
      }
    }
    if (c.contains("result_table")) {
      INFO("result table " << c["result_table"]["table"] << " is declared");
      CHECK(spec->find_table(c["result_table"]["table"].get<std::string>()) != nullptr);
    }
    const nlohmann::json tables = c.value("tables", nlohmann::json::object());
    for (const auto& [name, _] : tables.items()) {
      INFO("tables." << name << " is a declared table");
      CHECK(spec->find_table(name) != nullptr);
    }
  }
}

}  // namespace SL_UNITY_ID
