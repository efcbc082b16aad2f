import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, new_page, open, screenshot, with_site } from './helpers.mjs';

describe('the landing page', () => {
  const site = with_site();

  test('the landing page lists the four labs in order, links the ready ones and marks the coming ones', async () => {
    const { labs } = JSON.parse(await readFile(join(DIST, 'labs', 'index.json'), 'utf8'));
    assert.equal(labs.length, 4);
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}index.html`);
    const items = await page.$$eval('.sl-lab-card', (cards) => cards.map((card) => ({
      id: card.dataset.lab,
      status: card.dataset.status,
      href: card.querySelector('a')?.getAttribute('href') ?? null,
      badge: card.querySelector('.sl-badge')?.textContent ?? null,
    })));
    assert.deepEqual(items.map((item) => item.id), labs.map((lab) => lab.id));
    for (const item of items) {
      if (item.status === 'ready') {
        assert.equal(item.href, `lab.html?lab=${item.id}`);
        assert.equal(item.badge, null);
      } else {
        assert.equal(item.href, null, `${item.id} is coming and must not be a link`);
        assert.match(item.badge, /coming/i);
      }
    }
    assert.ok(items.some((item) => item.status === 'ready'));
    await screenshot(page, 'landing');
    assert.deepEqual(page.problems, []);
  });
});
