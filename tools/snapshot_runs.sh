#!/bin/bash
# tools/snapshot_runs.sh BIN OUTDIR: every deterministic cell at its defaults, seed 1, as JSON (for tools/compare_runs.mjs)
BIN=$1; OUT=$2; mkdir -p $OUT
$BIN list --json > $OUT/list.json
node -e "
const l=require('$OUT/list.json'); const cells=(l.cells||l);
for (const c of cells) if (c.deterministic!==false) console.log(c.id);
" > $OUT/cells.txt
while read c; do $BIN run $c --json > $OUT/$(echo $c | tr / _).json 2>&1; done < $OUT/cells.txt
$BIN check > $OUT/check.txt 2>&1
