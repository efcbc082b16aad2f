#!/usr/bin/env bash
# npm test: build everything and run every test — Catch2 (native), the book check, node against the wasm
# module, and the browser end-to-end suite in Debian's Chromium. Runs every stage even if one fails; exits
# non-zero if any failed, and ends with one summary line.
source "$(dirname "$0")/lib.sh"
ensure_system_deps --browser
ensure_node_deps
mkdir -p test-artifacts
LOGS=test-artifacts/logs
mkdir -p "$LOGS"
passed=0; failed=0; failed_stages=()

count_node() {  # node --test summary lines: "# pass N" / "# fail N"
  local log=$1 p f
  p=$(grep -E '^# pass [0-9]+' "$log" | tail -1 | awk '{print $3}'); f=$(grep -E '^# fail [0-9]+' "$log" | tail -1 | awk '{print $3}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
}

count_catch() {  # Catch2 v2 summary: "All tests passed (… in N test cases)" or "test cases: N | P passed | F failed";
  # with --none-is-ok, "No tests ran" (no test matched the filter; Catch2 v2 exits 0 then) counts as 0 passed.
  local log=$1 line
  line=$(grep -E 'All tests passed|^test cases:|^No tests ran' "$log" | tail -1)
  if [[ $line =~ in\ ([0-9]+)\ test\ case ]]; then passed=$((passed + BASH_REMATCH[1]))
  elif [[ $line =~ ([0-9]+)\ passed\ \|\ ([0-9]+)\ failed ]]; then passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
  elif [[ $line == "No tests ran" && ${2:-} == --none-is-ok ]]; then :
  else failed=$((failed + 1)); fi
}

stage_times=()   # "name seconds", printed with the summary: where the suite's time goes
stage() {  # stage NAME COMMAND...: run, tee the log, remember failure and time
  local name=$1; shift
  say "$name"
  local start=$SECONDS status=0
  "$@" 2>&1 | tee "$LOGS/$name.log" || status=1
  stage_times+=("$name $((SECONDS - start))")
  [ "$status" -eq 0 ] && return 0
  failed_stages+=("$name"); return 1
}

stage lab-files node --test --test-reporter=tap tests/labs/ || true   # schema (ajv), canonical layout, file:line errors
count_node "$LOGS/lab-files.log"
stage native-build build_native || true
# What the lab files name (headline outputs, summary placeholders, key parameters, tables), checked against the
# CLI's `list --json` as soon as it is built: a typo fails here, minutes before the wasm stage.
if [ -x build/native/serving-lab ]; then
  stage declarations node --test --test-reporter=tap tests/declarations/ || true
  count_node "$LOGS/declarations.log"
fi
# Catch2 v2 has no sharding: the unit tests run in two lanes at once (2 cores), each a test spec, the second
# its exact complement — the llm and lab-file cases (the book-row sweep alone is ~26 s), then the long [.slow]
# ones; and the rest, then `serving-lab check`. Each part has its own log and summary line. Side by side here the
# lanes took 63 + 9 s and 36 + 17 s with [request] (~9 s) in the first: it is in the second now.
unit_tests_in_two_lanes() {
  ( build/native/unit_tests "[llm],[labs]" > "$LOGS/unit-tests-a.log" 2>&1; a=$?
    # Long cases, hidden from the default run by their [.slow] tag, in their own invocation.
    build/native/unit_tests "[.slow]" > "$LOGS/slow-unit-tests.log" 2>&1; s=$?; [ $a -eq 0 ] && [ $s -eq 0 ] ) &
  local lane_a=$!
  build/native/unit_tests "~[llm]~[labs]" > "$LOGS/unit-tests-b.log" 2>&1; local b=$?
  build/native/serving-lab check > "$LOGS/book-check.log" 2>&1; local check=$?
  wait "$lane_a"; local a=$?
  cat "$LOGS/unit-tests-a.log" "$LOGS/slow-unit-tests.log" "$LOGS/unit-tests-b.log" "$LOGS/book-check.log"
  [ "$check" -eq 0 ] && echo 0 > "$LOGS/book-check.rc" || echo 1 > "$LOGS/book-check.rc"
  [ "$a" -eq 0 ] && [ "$b" -eq 0 ] && [ "$check" -eq 0 ]
}
if [ -x build/native/unit_tests ]; then
  stage unit-tests unit_tests_in_two_lanes || true
  count_catch "$LOGS/unit-tests-a.log"
  count_catch "$LOGS/unit-tests-b.log"
  count_catch "$LOGS/slow-unit-tests.log" --none-is-ok
  # `serving-lab check` (every book comparison at the defaults) counts as one test.
  if [ "$(cat "$LOGS/book-check.rc")" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); failed_stages+=(book-check); fi
fi
# ASan + UBSan (-fno-sanitize-recover=all): only the targets this stage runs are built, in build/asan — the core,
# CLI and JPEG tests with the fuzz corpus (sanitizer_tests), the book check, and a short seeded fuzz run per target.
# The [every-cell] cases run every cell again (the cells are not instrumented here; `check` already drives the
# instrumented core through every cell and scenario), so this stage leaves them to unit-tests.
sanitizers() {
  cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Release -DSERVING_LAB_SANITIZE=ON >/dev/null &&
    ninja -C build/asan -j "$JOBS" sanitizer_tests serving-lab sl_fuzz &&
    build/asan/sanitizer_tests "~[every-cell]" && build/asan/serving-lab check >/dev/null &&
    build/asan/sl_fuzz inputs 20000 && build/asan/sl_fuzz jpeg 20000
}
# The scaffold (npm run new-cell, docs/adding-a-cell.md) on every run: a cell it writes into this tree builds and
# its tests pass with nothing edited but its placeholders; then every file it wrote is removed, the three it changed
# are put back from copies taken first (new mtimes, so ninja rebuilds them), and the native build follows.
SCAFFOLD_ID=queues/scaffold-check
SCAFFOLD_CHANGED=(src/queues/cells.h src/queues/cells.cpp labs/queues/lab.json)
scaffold_restore() {
  [ -n "${scaffold_keep:-}" ] || return 0
  if [ -f "$scaffold_keep/files" ]; then
    while read -r mark path; do if [ "$mark" = + ]; then rm -f "$path"; fi; done < "$scaffold_keep/files"
  fi
  for f in "${SCAFFOLD_CHANGED[@]}"; do cp "$scaffold_keep/$f" "$f"; done
  rm -rf "$scaffold_keep"; scaffold_keep=
}
scaffold_check() {
  local status=0
  scaffold_keep=$(mktemp -d)
  for f in "${SCAFFOLD_CHANGED[@]}"; do mkdir -p "$scaffold_keep/$(dirname "$f")"; cp "$f" "$scaffold_keep/$f"; done
  trap 'scaffold_restore' EXIT
  trap 'scaffold_restore; exit 130' INT TERM
  { node scripts/new_cell.mjs "$SCAFFOLD_ID" --print-files > "$scaffold_keep/files" && cat "$scaffold_keep/files" &&
    ninja -C build/native -j "$JOBS" unit_tests &&
    build/native/unit_tests "[scaffold_check],[labs],[core]"; } || status=1
  scaffold_restore
  trap - EXIT INT TERM
  ninja -C build/native -j "$JOBS" unit_tests serving-lab >/dev/null || status=1
  return $status
}
if [ -x build/native/unit_tests ]; then
  if stage scaffold scaffold_check; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
fi
stage wasm-build build_wasm || true
if [ -f build/wasm/serving_lab.wasm ] && [ -x build/native/serving-lab ]; then
  stage wasm-tests node --test --test-reporter=tap tests/wasm/ || true
  count_node "$LOGS/wasm-tests.log"
fi
# The sanitizer stage runs in the background beside the browser suite, which leaves most of the second core
# idle; at a lower priority (nice 10), so the browser's waits are not stretched. Its log is shown once both are done.
sanitizers_in_background() {
  say "sanitizers (in the background, beside the browser suite; its log follows it)"
  rm -f "$LOGS/sanitizers.rc"
  ( renice -n 10 -p "$BASHPID" >/dev/null 2>&1 || true
    start=$SECONDS
    if sanitizers > "$LOGS/sanitizers.log" 2>&1; then echo 0; else echo 1; fi > "$LOGS/sanitizers.rc"
    echo "$((SECONDS - start))" > "$LOGS/sanitizers.seconds" ) &
  sanitizers_pid=$!
}
wait_for_sanitizers() {
  wait "$sanitizers_pid"
  say "sanitizers"
  cat "$LOGS/sanitizers.log"
  stage_times+=("sanitizers(background) $(cat "$LOGS/sanitizers.seconds" 2>/dev/null || echo ?)")
  if [ "$(cat "$LOGS/sanitizers.rc" 2>/dev/null)" = 0 ]; then passed=$((passed + 1))
  else failed=$((failed + 1)); failed_stages+=(sanitizers); fi
}
if stage site-build build_site; then
  sanitizers_in_background
  stage e2e-tests node --test --test-concurrency=1 --test-reporter=tap tests/e2e/ || true
  count_node "$LOGS/e2e-tests.log"
  wait_for_sanitizers
elif stage sanitizers sanitizers; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

echo
echo "stage times (s): ${stage_times[*]/%/,} total ${SECONDS}"
if [ ${#failed_stages[@]} -gt 0 ]; then echo "failed stages: ${failed_stages[*]} (logs in $LOGS/)"; fi
echo "$passed passed, $failed failed"
[ ${#failed_stages[@]} -eq 0 ] && [ "$failed" -eq 0 ]
