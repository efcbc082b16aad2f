// The lab files (labs/*.json) hold only what C++ lacks: text, chart specs and book references. This test
// fails when a lab file names a cell, parameter, output or table that the registry does not have, or when
// a registered cell is missing from its lab file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/registry.h"

namespace {

nlohmann::json read_lab(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::vector<std::filesystem::path> lab_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(SERVING_LAB_SOURCE_DIR) / "labs"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
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

TEST_CASE("Four lab files exist, each with English and Vietnamese titles", "[labs]") {
  const auto files = lab_files();
  CHECK(files.size() == 4);
  std::set<int> orders;
  for (const auto& f : files) {
    const auto lab = read_lab(f);
    check_text(lab["title"], f.string() + " title");
    check_text(lab["summary"], f.string() + " summary");
    orders.insert(lab["order"].get<int>());
    CHECK(lab["id"] == f.stem().string());
  }
  CHECK(orders == std::set<int>{1, 2, 3, 4});
}

TEST_CASE("Lab files name only cells, parameters, outputs and tables the registry has", "[labs]") {
  std::set<std::string> described;
  for (const auto& f : lab_files()) {
    const auto lab = read_lab(f);
    for (const auto& c : lab["cells"]) {
      const std::string id = c["id"];
      INFO(f.string() << ": " << id);
      described.insert(id);
      const sl::CellSpec* spec = sl::find_cell(id);
      REQUIRE(spec != nullptr);
      CHECK(spec->lab() == lab["id"]);
      check_text(c["title"], id + " title");
      check_text(c["text"], id + " text");
      for (const auto& p : spec->params) {
        INFO("param " << p.name);
        REQUIRE(c["params"].contains(p.name));
        check_text(c["params"][p.name]["label"], id + " " + p.name);
      }
      for (const auto& [name, _] : c["params"].items()) {
        bool known = false;
        for (const auto& p : spec->params) known = known || p.name == name;
        CHECK(known);
      }
      sl::RunControl ctl;
      auto run = sl::run_cell(id, {}, "1", ctl);
      REQUIRE(run.ok());
      const auto& r = run.value();
      for (const auto& [name, _] : r.outputs) {
        INFO("output " << name << " has a label");
        REQUIRE(c["outputs"].contains(name));
        check_text(c["outputs"][name]["label"], id + " " + name);
      }
      for (const auto& [name, entry] : c["outputs"].items()) {
        // An output defined only at some inputs (a closed form when the queue is stable) is marked
        // "conditional": true in the lab file; every other labelled output must exist at the defaults.
        bool known = entry.value("conditional", false);
        for (const auto& [o, v] : r.outputs) known = known || o == name;
        INFO("labelled output " << name << " exists at the defaults or is marked conditional");
        CHECK(known);
      }
      for (const auto& chart : c["charts"]) {
        const std::string table = chart["spec"]["data"]["name"];
        // A chart of a table that only some runs have (a browser measurement) is marked "conditional".
        bool known = table == "book" || chart.value("conditional", false);
        for (const auto& t : r.tables) known = known || t.name == table;
        INFO("chart table " << table);
        CHECK(known);
        check_text(chart["title"], id + " chart");
      }
      for (const auto& b : c["book"]) {
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

TEST_CASE("Every book reference of every cell is within tolerance at the cell's defaults", "[labs][book]") {
  for (const auto& cell : sl::all_cells()) {
    sl::RunControl ctl;
    auto r = sl::run_cell(cell.id, {}, "1", ctl);
    REQUIRE(r.ok());
    for (const auto& c : r.value().book) {
      INFO(cell.id << " " << c.ref << " " << c.label << ": book " << c.book << ", ours " << c.ours);
      CHECK(c.applies);
      CHECK(c.ok);
    }
  }
}

TEST_CASE("Every book reference in the lab files resolves to an output", "[labs][book]") {
  for (const auto& ref : sl::book_refs()) {
    INFO(ref.cell << " " << ref.ref << " " << ref.output);
    const sl::CellSpec* spec = sl::find_cell(ref.cell);
    REQUIRE(spec != nullptr);
    sl::RunControl ctl;
    auto r = sl::run_cell(ref.cell, {}, "1", ctl);
    REQUIRE(r.ok());
    CHECK(r.value().find_output(ref.output) != nullptr);
  }
}
