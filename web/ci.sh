#!/usr/bin/env bash
# Everything CI needs for the npm package, in one command: the tools (when
# missing), both wasm builds and the package (build.sh), formatting and lints
# of the web workspace, the native hashes of the determinism scenes, the
# Node test suite, and, with the npm devDependencies, the demo page in
# headless Chromium and a smoke run of the benchmark.
set -euo pipefail
cd "$(dirname "$0")"

section() { printf '== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
export CARGO_INCREMENTAL=0

section "build.sh: tools, the two wasm builds, web/pkg"
bash build.sh

section "cargo fmt and clippy (the web workspace, native target)"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings

section "the native state hashes of the determinism scenes (1 and 2 threads)"
cargo run --quiet --profile hashes -p lamina2d-native-hashes > target/native-hashes.json
cat target/native-hashes.json

section "node --test test/*.test.mjs (the Node suite: no npm dependencies)"
LAMINA_NATIVE_HASHES="$PWD/target/native-hashes.json" node --test test/*.test.mjs

section "npm ci: playwright-core and the benchmark's engines, as package-lock.json pins them"
npm ci --no-audit --no-fund

section "the demo page in headless Chromium (test/browser)"
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then as_root=(); else as_root=(sudo); fi
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium
fi
# A missing browser or playwright-core fails here rather than skipping.
LAMINA_REQUIRE_BROWSER=1 node --test test/browser/*.test.mjs

section "the benchmark against planck.js, matter.js and Rapier, a few steps of each (does it run?)"
node bench/compare.mjs --quick

section "web CI passed"
