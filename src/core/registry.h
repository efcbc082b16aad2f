#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/cell.h"

namespace sl {

/// Every cell of every lab, in page order (cell_order()). Built once from each lab's explicit cells() list (no static
/// self-registration: the linker drops unreferenced objects from static libraries).
const std::vector<CellSpec>& all_cells();

/// The cell with this id, or nullptr.
const CellSpec* find_cell(const std::string& id);

/// Validates inputs and seed, runs the cell and attaches the book comparisons. The one entry point of the
/// CLI, the wasm export and the tests.
Result<RunResult> run_cell(const std::string& id, const std::map<std::string, std::string>& raw_inputs,
                           const std::string& seed, RunControl& ctl);

/// The host measurements a run with these inputs can use (empty for most cells). The worker takes them
/// and passes the samples to run_cell as "measured.<probe>.<key>" inputs.
Result<std::vector<ProbeTask>> plan_probes(const std::string& id, const std::map<std::string, std::string>& raw_inputs);

/// Cell ids in page order: the labs in their order, each lab's cells as its labs/<lab>/lab.json lists them.
/// The one source of the order; generated at build time (book_refs.generated.cpp).
const std::vector<std::string>& cell_order();

/// A book number a lab reproduces: generated at build time from labs/<lab>/*.json (book_refs.generated.cpp).
struct BookRef {
  std::string cell;
  std::string ref;
  std::string output;
  std::string label;
  std::string unit;
  double value;
  double tolerance;  ///< rel: a fraction of |value|; abs: in the unit; se: the z multiple of the combined SE
  std::string tol_kind;  ///< "rel", "abs" or "se"
  std::vector<std::pair<std::string, std::string>> when;  ///< param = value for the book's scenario
  std::string kind;       ///< "formula", "simulation", "measurement" or "arithmetic"
  std::string source;     ///< "book" or "notebook"
  std::string se_output;  ///< tol_kind se: the output holding our standard error of `output`
  double ref_se;          ///< tol_kind se: the reference's standard error
  bool expect_differs;    ///< passes only while outside its tolerance (the lab file says why)
};
const std::vector<BookRef>& book_refs();

/// Compares a result's outputs with the book references of its cell. A row passes when |ours - book| is
/// within rel × |book|, abs, or (se) tolerance × sqrt(ours_se² + ref_se²); an expect-differs row when it is not.
std::vector<BookCheck> compare_with_book(const CellSpec& cell, const RunResult& result);

/// One run `serving-lab check` makes of a cell: raw inputs (the defaults overridden by a row's `when`) and
/// the references judged in that run. The first scenario is the defaults (every row whose `when` the
/// defaults satisfy), then one per distinct `when` set the defaults do not satisfy; every reference of the
/// cell is in exactly one scenario.
struct BookScenario {
  std::map<std::string, std::string> inputs;
  std::vector<const BookRef*> refs;
};
std::vector<BookScenario> book_scenarios(const CellSpec& cell);

}  // namespace sl
