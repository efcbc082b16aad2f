// The lab files (labs/<lab>/lab.json, one labs/<lab>/<cell>.json per cell and its book rows in
// labs/<lab>/book/<cell>.json) hold only what C++ lacks: text, chart specs and book references (their form is checked against labs/schema/ by the generator and
// tests/labs/). This test fails when a lab file names a cell, parameter, output or table that the registry
// does not have, or when a registered cell is missing from its lab.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cell_runner.h"
#include "core/registry.h"

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
      for (const auto& p : spec->params) {
        INFO("param " << p.name << " has a label (the cell's own or the lab's shared one)");
        const nlohmann::json* entry = file.param(p.name);
        REQUIRE(entry != nullptr);
        check_text((*entry)["label"], id + " " + p.name);
      }
      for (const auto& [name, _] : c["params"].items()) {
        bool known = false;
        for (const auto& p : spec->params) known = known || p.name == name;
        CHECK(known);
      }
      // Outputs and tables are declared in C++ (CellSpec::outputs, ::tables); the lab file labels each
      // declared output, nothing else, and charts only declared tables (tests/unit/core/cell_test.cpp
      // checks the runs against the declarations).
      for (const auto& o : spec->outputs) {
        INFO("declared output " << o.name << " has a label (the cell's own or the lab's shared one)");
        const nlohmann::json* entry = file.output(o.name);
        REQUIRE(entry != nullptr);
        check_text((*entry)["label"], id + " " + o.name);
      }
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
        CHECK(c["outputs"].contains(b["output"].get<std::string>()));
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
