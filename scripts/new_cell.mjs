// npm run new-cell -- <lab>/<cell-id> [--in <sub-domain>]: a new cell in today's shape, which builds and whose tests
// pass before any edit but its placeholders (docs/adding-a-cell.md). It writes, in src/<lab>/ or, with --in, in the
// lab's sub-domain src/<lab>/<sub-domain>/ (llm/engine, request/wire...), and likewise under tests/unit/:
//   src/<lab>/[<sub-domain>/]<cell_id>_cell.cpp   the cell: typed params, validate_<cell>, run_<cell>, checked_cell
//   src/<lab>/[<sub-domain>/]<cell_id>.{h,cpp}    its model (a placeholder: a straight line)
//   tests/unit/<lab>/[<sub-domain>/]<cell_id>_test.cpp and <cell_id>_cell_test.cpp   Catch2 tests of both
//   labs/<lab>/<cell-id>.json         every field the lab-file tests require, EN/VI text marked TODO(new-cell)
// and registers the cell: src/<lab>/cells.h, src/<lab>/cells.cpp and labs/<lab>/lab.json "cells". The lab-file
// tests (tests/labs/) refuse to ship a file that still says TODO(new-cell), so the page never shows a placeholder.
// It never overwrites a file. --print-files lists every file it created or changed (one per line, "+" created,
// "~" changed), which scripts/test.sh uses to put the tree back after checking the scaffold.
import { readFile, writeFile, mkdir, access } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MARK = 'TODO(new-cell)';

function usage(message) {
  console.error(`${message}\nusage: npm run new-cell -- <lab>/<cell-id> [--in <sub-domain>] [--print-files]   ` +
    'e.g. npm run new-cell -- queues/erlang-b, npm run new-cell -- llm/spec-decode --in engine');
  process.exit(2);
}

const exists = (path) => access(path).then(() => true, () => false);
const pascal = (snake) => snake.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

/** The text of every new file, for a cell `lab/cell_id` (cell-id with dashes; C++ names with underscores), in the
 * lab's folder or in its sub-domain `sub` (src/<lab>/<sub>/, tests/unit/<lab>/<sub>/). */
export function files_of(lab, cell, sub = '') {
  const id = `${lab}/${cell}`;
  const dir = sub ? `${lab}/${sub}` : lab;
  const snake = cell.replace(/-/g, '_');
  const Params = `${pascal(snake)}Params`, Point = `${pascal(snake)}Point`;
  const todo = (what) => ({ en: `${MARK}: ${what}`, vi: `${MARK}: ${what} (tiếng Việt)` });
  const model_h = `#pragma once
// ${MARK}: the model of ${id}, in a few lines: what it computes, and where its form comes from (the book's
// equation, a paper, vLLM's source). A placeholder: the straight line y = slope x.
#include <cstdint>
#include <vector>

namespace sl::${lab} {

struct ${Point} {
  double x = 0;
  double y = 0;
};

/// ${MARK}: the model. \`points\` evenly spaced x in [0, x_max] (points >= 2), each with y = slope x.
std::vector<${Point}> ${snake}_curve(double slope, double x_max, std::int64_t points);

}  // namespace sl::${lab}
`;
  const model_cpp = `#include "${dir}/${snake}.h"

namespace sl::${lab} {

std::vector<${Point}> ${snake}_curve(double slope, double x_max, std::int64_t points) {
  std::vector<${Point}> curve;
  curve.reserve(static_cast<std::size_t>(points));
  for (std::int64_t i = 0; i < points; ++i) {
    const double x = x_max * static_cast<double>(i) / static_cast<double>(points - 1);
    curve.push_back({x, slope * x});
  }
  return curve;
}

}  // namespace sl::${lab}
`;
  const cell_cpp = `// Cell ${id}. ${MARK}: 3-6 lines stating the model and what the reader sees (docs/adding-a-cell.md).
#include <cstdint>
#include <vector>

#include "core/checked_run.h"
#include "core/preset.h"
#include "${lab}/cells.h"
#include "${dir}/${snake}.h"

namespace sl::${lab} {
namespace {

/// The cell's inputs, checked; fields carry units in their names (docs/style.md).
struct ${Params} {
  double slope = 0;
  double x_max = 0;
  std::int64_t num_points = 0;
};

/// The one place that reads Inputs by name: parse_inputs has checked each range; the cell's own rules go here, as
/// errors naming the parameter (core/error.h), and a cost model if the work grows with the inputs (core/budget.h).
Result<${Params}> validate_${snake}(const Inputs& in) {
  return ${Params}{in.real("slope"), in.real("x_max"), in.count("points")};
}

Result<RunResult> run_${snake}(const ${Params}& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  const std::vector<${Point}> curve = ${snake}_curve(p.slope, p.x_max, p.num_points);
  std::vector<double> xs, ys;
  double area = 0;  // the trapezoid rule under the curve
  for (std::size_t i = 0; i < curve.size(); ++i) {
    xs.push_back(curve[i].x);
    ys.push_back(curve[i].y);
    if (i > 0) area += 0.5 * (curve[i].y + curve[i - 1].y) * (curve[i].x - curve[i - 1].x);
  }
  RunResult result;
  result.output("y_max", curve.back().y);
  result.output("area", area);
  result.output("points", static_cast<double>(curve.size()));
  result.table("curve").column("x", xs).column("y", ys);
  return result;
}

}  // namespace

CellSpec ${snake}_cell() {
  CellSpec cell = checked_cell<&validate_${snake}, &run_${snake}>("${id}",
      {explored(real("slope", "", 2, -1e6, 1e6), -10, 10), real("x_max", "", 10, 1e-6, 1e6),
       count("points", "points", 50, 2, 400)});
  cell.uses_seed = false;  // ${MARK}: a simulation draws from Rng::stream(seed, ...) and keeps the seed
  // ${MARK}: one or more meaningful presets (the page's preset menu, --preset ID), labelled in the lab file.
  cell.presets = presets_of({{"steep", "slope=5"}});
${lab === 'llm' ? `  // ${MARK}: each parameter's group (a name src/llm/param_groups.cpp does not list keeps its own).
  for (ParamSpec& p : cell.params) p.group = "workload";
` : ''}  cell.outputs = {out("y_max", ""), out("area", ""), out("points", "points")};
  cell.tables = {table("curve")};
  return cell;
}

}  // namespace sl::${lab}
`;
  const model_test = `#include "${dir}/${snake}.h"

#include <catch2/catch.hpp>

namespace SL_UNITY_ID {

using namespace sl::${lab};

// ${MARK}: the model's properties, each with its tolerance derived in a comment (docs/style.md, "Tests").
TEST_CASE("${snake}_curve: evenly spaced points on the line y = slope x, from 0 to x_max", "[${lab}][${snake}]") {
  const auto curve = ${snake}_curve(2, 10, 11);
  REQUIRE(curve.size() == 11);
  CHECK(curve.front().x == 0);
  CHECK(curve.front().y == 0);
  CHECK(curve[5].x == Approx(5));
  CHECK(curve.back().y == Approx(20));
}

}  // namespace SL_UNITY_ID
`;
  const cell_test = `// ${id} through the registry, as the CLI and the page run it.
#include <catch2/catch.hpp>

#include "core/registry.h"

namespace SL_UNITY_ID {

// ${MARK}: book numbers from the lab file (cell_test::book_value), simulations within their confidence interval.
TEST_CASE("${id} runs at its defaults: the line's end and the area under it", "[${lab}][${snake}]") {
  sl::RunControl quiet;
  auto r = sl::run_cell("${id}", {}, "1", quiet);
  REQUIRE(r.ok());
  CHECK(*r.value().find_output("y_max") == Approx(20));   // slope 2 x x_max 10
  CHECK(*r.value().find_output("area") == Approx(100));   // a line's trapezoids are exact: 2 x 10^2 / 2
}

TEST_CASE("${id} refuses fewer than two points, naming the parameter", "[${lab}][${snake}]") {
  sl::RunControl quiet;
  auto r = sl::run_cell("${id}", {{"points", "1"}}, "1", quiet);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().param == "points");
}

}  // namespace SL_UNITY_ID
`;
  const lab_file = {
    title: todo('the title, what the reader will see'),
    text: {
      en: [`${MARK}: one paragraph of at most three sentences and 500 characters that frames the cell.`],
      vi: [`${MARK}: một đoạn, nhiều nhất ba câu và 500 ký tự.`],
    },
    params: {
      slope: { label: todo('label of slope') }, x_max: { label: todo('label of x_max') },
      points: { label: todo('label of points') },
    },
    outputs: {
      y_max: { label: todo('label of y_max') }, area: { label: todo('label of area') },
      points: { label: todo('label of the points output') },
    },
    main_chart: 'curve',
    key_params: ['slope'],
    presets: { steep: todo('label of the preset "steep"') },
    headline: ['y_max', 'area', 'points'],
    charts: [{
      id: 'curve', title: todo('the chart title'),
      spec: {
        data: { name: 'curve' }, mark: { type: 'line' },
        encoding: {
          x: { field: 'x', type: 'quantitative', title: todo('x axis, with its unit') },
          y: { field: 'y', type: 'quantitative', title: todo('y axis, with its unit') },
        },
      },
      summary: { en: `${MARK}: one sentence with the numbers, e.g. the line ends at {y_max}.`, vi: `${MARK}: một câu, ví dụ {y_max}.` },
    }],
  };
  return {
    [`src/${dir}/${snake}.h`]: model_h,
    [`src/${dir}/${snake}.cpp`]: model_cpp,
    [`src/${dir}/${snake}_cell.cpp`]: cell_cpp,
    [`tests/unit/${dir}/${snake}_test.cpp`]: model_test,
    [`tests/unit/${dir}/${snake}_cell_test.cpp`]: cell_test,
    [`labs/${lab}/${cell}.json`]: JSON.stringify(lab_file, null, 2) + '\n',
  };
}

/** cells.h with the new cell's declaration before the namespace closes. */
function register_header(text, lab, cell, snake) {
  const close = text.lastIndexOf(`}  // namespace sl::${lab}`);
  if (close < 0) throw new Error(`src/${lab}/cells.h: no "}  // namespace sl::${lab}"`);
  return `${text.slice(0, close)}/// Cell \`${lab}/${cell}\`: ${MARK}, one line on what it shows.\nCellSpec ${snake}_cell();\n\n${text.slice(close)}`;
}

/** cells.cpp with the new cell last in cells()'s list (its page order is the lab file's). */
function register_source(text, lab, snake) {
  const m = /(std::vector<CellSpec> cells\(\) \{\s*(?:return|std::vector<CellSpec> \w+ =) \{[\s\S]*?)(\};)/.exec(text);
  if (!m) throw new Error(`src/${lab}/cells.cpp: no "return {...};" (or "std::vector<CellSpec> lab = {...};") in cells()`);
  return text.slice(0, m.index) + `${m[1].trimEnd()}, ${snake}_cell()${m[2]}` + text.slice(m.index + m[0].length);
}

async function main() {
  const args = process.argv.slice(2);
  const print_files = args.includes('--print-files');
  const in_at = args.indexOf('--in');
  const sub = in_at >= 0 ? args[in_at + 1] ?? '' : '';
  if (in_at >= 0 && !/^[a-z][a-z0-9_]*$/.test(sub)) {
    usage('--in takes a sub-domain folder of the lab (lower case, digits and underscores: engine)');
  }
  const ids = args.filter((a, i) => !a.startsWith('--') && !(in_at >= 0 && i === in_at + 1));
  if (ids.length !== 1) usage('give one cell id');
  const m = /^([a-z]+)\/([a-z][a-z0-9]*(?:-[a-z0-9]+)*)$/.exec(ids[0]);
  if (!m) usage(`"${ids[0]}" is not <lab>/<cell-id> (lower case, digits and dashes: queues/erlang-b)`);
  const [, lab, cell] = m;
  const snake = cell.replace(/-/g, '_');
  for (const needed of [`src/${lab}/cells.h`, `src/${lab}/cells.cpp`, `labs/${lab}/lab.json`]) {
    if (!(await exists(join(ROOT, needed)))) usage(`no lab "${lab}": ${needed} is missing (a lab has src/<lab>/ and labs/<lab>/)`);
  }
  const files = files_of(lab, cell, sub);
  for (const path of Object.keys(files)) if (await exists(join(ROOT, path))) usage(`${path} exists: pick another id`);
  const lab_json_path = join(ROOT, `labs/${lab}/lab.json`);
  const lab_json = JSON.parse(await readFile(lab_json_path, 'utf8'));
  if (lab_json.cells.includes(cell)) usage(`labs/${lab}/lab.json already lists "${cell}"`);
  const header = register_header(await readFile(join(ROOT, `src/${lab}/cells.h`), 'utf8'), lab, cell, snake);
  const source = register_source(await readFile(join(ROOT, `src/${lab}/cells.cpp`), 'utf8'), lab, snake);
  const changed = [`src/${lab}/cells.h`, `src/${lab}/cells.cpp`, `labs/${lab}/lab.json`];
  if (print_files) for (const path of changed) console.log(`~ ${path}`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(ROOT, path)), { recursive: true });
    await writeFile(join(ROOT, path), text, { flag: 'wx' });
    if (print_files) console.log(`+ ${path}`);
  }
  await writeFile(join(ROOT, `src/${lab}/cells.h`), header);
  await writeFile(join(ROOT, `src/${lab}/cells.cpp`), source);
  lab_json.cells.push(cell);
  await writeFile(lab_json_path, JSON.stringify(lab_json, null, 2) + '\n');
  execFileSync(process.execPath, [join(ROOT, 'scripts/labs/format.mjs'), '--write'], { stdio: 'ignore' });
  if (!print_files) {
    console.log(`${ids[0]}: wrote ${Object.keys(files).map((p) => relative(ROOT, join(ROOT, p))).join(', ')};\n` +
      `registered in ${changed.join(', ')}.\nNext: replace every ${MARK} (grep -rn '${MARK}' src tests labs), then\n` +
      `  ninja -C build/native && build/native/unit_tests "[${lab}],[labs],[core]" && node --test tests/labs/ tests/declarations/`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => { console.error(`new-cell: ${error.message}`); process.exit(1); });
}
