// Old links keep working: a parameter's earlier names (spec.params[i].aliases, from `serving-lab list
// --json`) are accepted as URL keys, in embed form (`<old>=`) and full-page form (`<cell>.<old>=`), give
// the same numbers as the new name, and the page rewrites the URL with the new name; the CLI gives the
// same JSON for `--old` and `--new`. Deterministic cells only (a timing differs run to run), at most 3 of
// them, so the suite stays fast. Nothing is synthesized: with no aliased parameter the test is skipped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, axe_violations, new_context, open, tab_of, with_site } from './helpers.mjs';

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

describe('old parameter names in links and flags; what a link sets that the page does not read', () => {
  const site = with_site();

  // One browser context and one tab for the spec (tab_of): each link loads as a new document in it, which costs
  // ~2 CPU-s less than a new tab, and shares the HTTP cache (the module, scripts and lab files).
  let context = null;
  /**
   * Opens the page at `query`, waits for the cell's first run; returns its outputs' text, the URL's query and the
   * notice naming what the link sets that the page does not read ('' when there is none).
   */
  async function outputs_at(short, query, { axe = false } = {}) {
    context ??= await new_context(site.browser, { width: 900, height: 900 });
    const page = await tab_of(site.browser, context);
    await open(page, `${site.server.url}lab.html?${query}`);
    await page.waitForSelector(`#${short}[data-state="done"]`, { timeout: 60_000 });
    const text = await page.textContent(`#${short} .sl-outputs`);
    const search = new URL(page.url()).searchParams;
    const unread = (await page.locator('.sl-url-unread').allTextContents()).join(' ');
    if (axe) assert.deepEqual(await axe_violations(page), []);
    assert.deepEqual(page.problems, []);
    return { text, search, unread };
  }

  test('a mistyped key and an unknown preset are named on the page, in English and Vietnamese, axe clean; the cell runs at its defaults', async () => {
    const embed = 'lab=queues&cell=littles-law&embed=1';
    const clean = await outputs_at('littles-law', embed);
    assert.equal(clean.unread, '', 'a link the page reads in full shows no notice');
    const typo = await outputs_at('littles-law', `${embed}&lamda=200&preset=no-such-preset`, { axe: true });
    assert.match(typo.unread, /This link sets what no cell here reads/);
    assert.match(typo.unread, /lamda=200, preset=no-such-preset/);
    assert.equal(typo.text, clean.text, 'the keys it cannot read change nothing');
    const vi = await outputs_at('littles-law', `${embed}&lang=vi&lamda=200`, { axe: true });
    assert.match(vi.unread, /không ô nào ở đây đọc.*lamda=200/);
    // A known preset, an old name and design A's keys are read: no notice.
    const known = await outputs_at('littles-law', `${embed}&preset=near-saturation&qps=100&A=1&A.lambda=50`);
    assert.equal(known.unread, '');
  });

  if (!aliased.length) {
    test('an old URL key and CLI flag give the same numbers as the new name', (t) => t.skip('no aliased parameter yet'));
    return;
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
