#!/usr/bin/env bash
# npm start: build what is stale and serve the lab on http://127.0.0.1:${PORT:-8080}/
source "$(dirname "$0")/lib.sh"
ensure_system_deps
ensure_node_deps
build_wasm
build_site
say "serving dist/ (Ctrl-C stops)"
exec node scripts/serve.mjs --dir dist --port "${PORT:-8080}"
