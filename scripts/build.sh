#!/usr/bin/env bash
# npm run build: the static site in dist/ (wasm + bundled JS + lab files), relative URLs, no server code.
source "$(dirname "$0")/lib.sh"
ensure_system_deps
ensure_node_deps
build_wasm
build_site
echo "dist/ is ready: serve it from any static host (any sub-path)."
