# Shared steps of start.sh, test.sh and build.sh. Sourced, not run.
# Each step installs what is missing (apt as root, npm ci) or stops with the exact command to run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export NODE_PATH=/usr/share/nodejs   # Debian emscripten's optimizer needs Debian's acorn
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

say() { printf '\n== %s\n' "$*"; }

# Debian packages the build and the tests use: name of a file or command each provides -> package.
system_deps_missing() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v ninja >/dev/null || missing+=(ninja-build)
  command -v g++ >/dev/null || missing+=(g++)
  command -v em++ >/dev/null || missing+=(emscripten)
  [ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
  [ -f /usr/include/nlohmann/json.hpp ] || missing+=(nlohmann-json3-dev)
  [ -f /usr/include/stb/stb_image.h ] || missing+=(libstb-dev)
  [ -f /usr/include/rapidjson/reader.h ] || missing+=(rapidjson-dev)
  if [ "${1:-}" = "--browser" ]; then command -v chromium >/dev/null || missing+=(chromium); fi
  echo "${missing[@]:-}"
}

ensure_system_deps() {
  local missing
  missing="$(system_deps_missing "${1:-}")"
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ]; then
    say "installing Debian packages: $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null
  else
    echo "missing Debian packages: $missing" >&2
    echo "run:  sudo apt-get update && sudo apt-get install -y $missing" >&2
    exit 1
  fi
}

ensure_node_deps() {
  command -v npm >/dev/null || { echo "node and npm are needed; run: sudo apt-get install -y nodejs npm" >&2; exit 1; }
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

build_native() {
  say "native build (CLI, unit tests, benchmarks)"
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C build/native -j "$JOBS"
}

build_wasm() {
  say "wasm build (Emscripten)"
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C build/wasm -j "$JOBS"
}

build_site() {
  say "site bundle -> dist/"
  node scripts/build.mjs --out dist
}
