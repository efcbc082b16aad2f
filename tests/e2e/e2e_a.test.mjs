// The e2e specs in two halves, one node process each (each spec starts its own server and browser), so that
// `node --test --test-concurrency=2 tests/e2e/` (Node 20 only discovers *.test.mjs in a directory) runs both at
// once on a 2-core machine: most of a test's time is the page waiting on one wasm worker, so the other core is
// idle. The halves are balanced by the specs' durations in a serial run (seconds in the comments; ~420 s each).
// Every *.spec.mjs is in exactly one half (e2e_halves.test.mjs checks it); one spec alone: node --test FILE.
import './cells.spec.mjs';        // 178
import './explorable.spec.mjs';   // 97
import './challenges.spec.mjs';   // 57
import './lab.spec.mjs';          // 33
import './probes.spec.mjs';       // 15
import './embed.spec.mjs';        // 14
import './roofline.spec.mjs';     // 9
import './fleet.spec.mjs';        // 8
import './photo.spec.mjs';        // 7
import './landing.spec.mjs';      // 4
