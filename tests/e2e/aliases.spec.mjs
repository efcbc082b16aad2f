// Old links keep working: a parameter's earlier names (spec.params[i].aliases, from `serving-lab list
// --json`) are accepted as URL keys, in embed form (`<old>=`) and full-page form (`<cell>.<old>=`), give
// the same numbers as the new name, and the page rewrites the URL with the new name; the CLI gives the
// same JSON for `--old` and `--new`. Deterministic cells only (a timing differs run to run), at most 3 of
// them, so the suite stays fast. Nothing is synthesized: with no aliased parameter the test is skipped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, new_page, new_context, open, with_site } from './helpers.mjs';

const CLI = join(ROOT, 'build/native/serving-lab');
const specs = JSON.parse(execFileSync(CLI, ['list', '--json'], { encoding: 'utf8' }));
const MAX_CELLS = 3;
const aliased = specs
  .filter((spec) => spec.deterministic !== false && spec.params.some((p) => p.kind !== 'bytes' && p.aliases?.length))
  .slice(0, MAX_CELLS);

/** A value inside the range that differs from the default (as cells.spec.mjs picks it). */
function changed_value(param) {
  if (param.kind === 'choice') return param.choices.find((c) => c !== param.default);
  if (param.kind === 'count') return String(param.default + 1 <= param.max ? param.default + 1 : param.default - 1);
  const up = param.default === 0 ? Math.min(param.max, 1) : param.default * 1.1;
  return String(up <= param.max && up >= param.min ? up : (param.min + param.default) / 2);
}

function cli_json(id, flag, value) {
  return execFileSync(CLI, ['run', id, '--json', '--seed', '7', `--${flag}`, value], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

describe('old parameter names in links and flags', () => {
  if (!aliased.length) {
    test('an old URL key and CLI flag give the same numbers as the new name', (t) => t.skip('no aliased parameter yet'));
    return;
  }
  const site = with_site();

  // One browser context for the spec: its pages share the HTTP cache (the module, scripts and lab files).
  let context = null;
  /** Opens the page at `query`, waits for the cell's first run; returns its outputs' text and the URL's query. */
  async function outputs_at(short, query) {
    context ??= await new_context(site.browser, { width: 900, height: 900 });
    const page = await new_page(site.browser, { context });
    await open(page, `${site.server.url}lab.html?${query}`);
    await page.waitForSelector(`#${short}[data-state="done"]`, { timeout: 60_000 });
    const text = await page.textContent(`#${short} .sl-outputs`);
    const search = new URL(page.url()).searchParams;
    assert.deepEqual(page.problems, []);
    await page.close();
    return { text, search };
  }

  for (const spec of aliased) {
    const [lab, short] = spec.id.split('/');
    const params = spec.params.filter((p) => p.kind !== 'bytes' && p.aliases?.length);
    params.forEach((param, i) => {
      const value = changed_value(param);
      for (const old of param.aliases) {
        test(`${spec.id}: the old name ${old} of ${param.name} gives the same numbers as the new one, on the page and the CLI`, async () => {
          assert.equal(cli_json(spec.id, old, value), cli_json(spec.id, param.name, value), `--${old} vs --${param.name}`);
          const embed = `lab=${lab}&cell=${short}&embed=1`;
          const fresh = await outputs_at(short, `${embed}&${param.name}=${encodeURIComponent(value)}`);
          const via_old = await outputs_at(short, `${embed}&${old}=${encodeURIComponent(value)}`);
          assert.equal(via_old.text, fresh.text, `embed ?${old}= vs ?${param.name}=`);
          assert.equal(via_old.search.get(param.name), value, 'the URL is rewritten with the new name');
          assert.equal(via_old.search.has(old), false);
          if (i === 0 && old === param.aliases[0]) {  // the full page runs the whole lab: once per cell
            const full = await outputs_at(short, `lab=${lab}&${short}.${old}=${encodeURIComponent(value)}`);
            assert.equal(full.text, fresh.text, `full page ?${short}.${old}= vs embed ?${param.name}=`);
            assert.equal(full.search.get(`${short}.${param.name}`), value);
            assert.equal(full.search.has(`${short}.${old}`), false);
          }
        });
      }
    });
  }
});
