// Runs every e2e spec in one process, for `node --test tests/e2e/` (Node 20 only discovers *.test.mjs
// in a directory). `node --test --test-concurrency=1 tests/e2e/*.spec.mjs` runs them one file at a time.
import './landing.spec.mjs';
import './lab.spec.mjs';
import './embed.spec.mjs';
import './isolation.spec.mjs';
import './cells.spec.mjs';
import './probes.spec.mjs';
import './photo.spec.mjs';
import './paste.spec.mjs';
import './models.spec.mjs';
import './aliases.spec.mjs';
import './lab_fetch.spec.mjs';
import './explorable.spec.mjs';
import './offline.spec.mjs';
import './csp.spec.mjs';
import './budgets.spec.mjs';
import './takeover.spec.mjs';
import './roofline.spec.mjs';
import './capacity_search.spec.mjs';
import './compare.spec.mjs';
import './fleet.spec.mjs';
import './replay.spec.mjs';
import './trace.spec.mjs';
import './challenges.spec.mjs';
import './assignment.spec.mjs';
