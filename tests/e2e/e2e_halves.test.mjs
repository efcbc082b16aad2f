// Every e2e spec runs in exactly one of the two halves (e2e_a.test.mjs, e2e_b.test.mjs): a new spec left out of
// both would never run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

test('every *.spec.mjs is imported by exactly one e2e half', async () => {
  const specs = (await readdir(HERE)).filter((name) => name.endsWith('.spec.mjs')).sort();
  const imported = [];
  for (const half of ['e2e_a.test.mjs', 'e2e_b.test.mjs']) {
    const text = await readFile(`${HERE}/${half}`, 'utf8');
    imported.push(...[...text.matchAll(/^import '\.\/([^']+\.spec\.mjs)';/gm)].map((m) => m[1]));
  }
  assert.deepEqual(imported.slice().sort(), specs);
});
