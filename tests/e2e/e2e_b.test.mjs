// The second half of the e2e specs (see e2e_a.test.mjs).
import './paste.spec.mjs';            // 70
import './compare.spec.mjs';          // 72
import './capacity_search.spec.mjs';  // 37
import './offline.spec.mjs';          // 36
import './assignment.spec.mjs';       // 31
import './aliases.spec.mjs';          // 31
import './replay.spec.mjs';           // 27
import './models.spec.mjs';           // 21
import './trace.spec.mjs';            // 20
import './takeover.spec.mjs';         // 17
import './budgets.spec.mjs';          // 15
import './csp.spec.mjs';              // 13
import './lab_fetch.spec.mjs';        // 8
import './isolation.spec.mjs';        // 7
