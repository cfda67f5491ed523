#!/usr/bin/env bash
# Builds the npm package `lamina2d` into web/pkg/: the engine compiled to
# WebAssembly twice (with and without the simd128 instructions; the loader
# picks the first where the runtime validates it), wasm-bindgen's JavaScript
# glue for `--target web`, the JavaScript API and its types.
#
# What it needs, it installs when missing:
# - a Rust toolchain for wasm32-unknown-unknown: rustup's, where its wasm32
#   target is installed; otherwise Debian's Rust (packages rustc-web,
#   cargo-web, rust-web-src), which builds std from source
#   (-Zbuild-std, allowed on a stable compiler by RUSTC_BOOTSTRAP=1), and
#   lld-22 for its linker `wasm-ld-22`;
# - clang-22 and llvm-22 (its archiver), which compile zstd's C sources
#   (snapshots) for wasm32;
# - wasm-bindgen-cli at the version of wasm-bindgen in web/Cargo.lock, into
#   $LAMINA_WEB_TOOLS/bin (default ~/.cache/lamina2d/web-tools: kept across
#   clean clones, so that a second build does not compile it again; never
#   onto the PATH of the machine).
#
# Usage: web/build.sh [--skip-install]
set -euo pipefail
cd "$(dirname "$0")"
WEB="$PWD"

section() { printf '== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

TARGET=wasm32-unknown-unknown
install=1
[ "${1:-}" = "--skip-install" ] && install=0

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# --- the toolchain -----------------------------------------------------------
rustup_sysroot="$(rustc --print sysroot 2>/dev/null || true)"
if [ -n "$rustup_sysroot" ] && [ -d "$rustup_sysroot/lib/rustlib/$TARGET/lib" ]; then
    route=rustup
    CARGO=cargo
    build_std=()
else
    route=debian
    missing=()
    [ -x /usr/bin/cargo ] && /usr/bin/cargo --version >/dev/null 2>&1 || missing+=(cargo-web)
    [ -x /usr/bin/rustc ] || missing+=(rustc-web)
    [ -d /usr/lib/rustlib/src/rust/library/std ] || missing+=(rust-web-src)
    command -v wasm-ld-22 >/dev/null || missing+=(lld-22)
    command -v clang-22 >/dev/null || missing+=(clang-22)
    command -v llvm-ar-22 >/dev/null || missing+=(llvm-22)
    if [ ${#missing[@]} -gt 0 ]; then
        [ "$install" = 1 ] || { echo "missing Debian packages: ${missing[*]}" >&2; exit 1; }
        section "apt-get install ${missing[*]}"
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
    # rustup's cargo and rustc come first on the PATH: Debian's by full path.
    CARGO=/usr/bin/cargo
    export RUSTC=/usr/bin/rustc
    export RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-22
    build_std=(-Zbuild-std=std,panic_abort)
fi
# zstd-sys compiles its C sources with the target's C compiler.
if command -v clang-22 >/dev/null; then
    export CC_wasm32_unknown_unknown=clang-22 AR_wasm32_unknown_unknown=llvm-ar-22
fi
# zstd built small (a third of the wasm otherwise): for size, without forced
# inlining, error strings and the decoders' fast variants; and without the
# block compressors of the strategies above level 1's (`fast`), the one
# snapshots use. The bytes a snapshot holds are the same.
zstd_flags=(-Oz -DZSTD_NO_INLINE -DZSTD_STRIP_ERROR_STRINGS -DHUF_FORCE_DECOMPRESS_X1
    -DZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT)
for strategy in DFAST GREEDY LAZY LAZY2 BTLAZY2 BTOPT BTULTRA; do
    zstd_flags+=("-DZSTD_EXCLUDE_${strategy}_BLOCK_COMPRESSOR")
done
export CFLAGS_wasm32_unknown_unknown="${zstd_flags[*]}"

# --- wasm-bindgen-cli, the version of the lock file ---------------------------
bindgen_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
TOOLS="${LAMINA_WEB_TOOLS:-$HOME/.cache/lamina2d/web-tools}"
WASM_BINDGEN="$TOOLS/bin/wasm-bindgen"
if ! { [ -x "$WASM_BINDGEN" ] && "$WASM_BINDGEN" --version | grep -qx "wasm-bindgen $bindgen_version"; }; then
    [ "$install" = 1 ] || { echo "missing wasm-bindgen $bindgen_version" >&2; exit 1; }
    section "cargo install wasm-bindgen-cli $bindgen_version into $TOOLS"
    # Not --locked: the CLI's own lock file pins crates this toolchain may not build.
    cargo install wasm-bindgen-cli --version "$bindgen_version" --root "$TOOLS"
fi

# --- the two wasm builds -------------------------------------------------------
build() { # $1: simd | nosimd
    local flags=""
    [ "$1" = simd ] && flags="-C target-feature=+simd128"
    section "cargo build --release --target $TARGET ($1, $route toolchain)"
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="$WEB/target/wasm-$1" \
        "$CARGO" build --release --target "$TARGET" -p lamina2d-wasm "${build_std[@]}"
    "$WASM_BINDGEN" --target web --no-typescript --remove-name-section --remove-producers-section \
        --out-name lamina2d_wasm \
        --out-dir "$WEB/target/bindgen-$1" "$WEB/target/wasm-$1/$TARGET/release/lamina2d_wasm.wasm"
}
build simd
build nosimd

section "the package in web/pkg"
# The glue is the same for both builds (it depends on the exports alone): one
# glue file, two wasm files.
if ! cmp -s target/bindgen-simd/lamina2d_wasm.js target/bindgen-nosimd/lamina2d_wasm.js; then
    echo "the glue of the two builds differs" >&2
    exit 1
fi
rm -rf pkg
mkdir -p pkg/raw
cp target/bindgen-simd/lamina2d_wasm.js pkg/raw/
cp target/bindgen-simd/lamina2d_wasm_bg.wasm pkg/raw/lamina2d_simd.wasm
cp target/bindgen-nosimd/lamina2d_wasm_bg.wasm pkg/raw/lamina2d_nosimd.wasm
cp js/*.js lamina2d.d.ts README.md pkg/
# The package's manifest, as published from web/pkg: its paths relative to
# pkg/, everything in it shipped, and no scripts or devDependencies (they
# serve the repository: the tests, the demo, the benchmark).
node -e '
const m = JSON.parse(require("fs").readFileSync("package.json", "utf8"));
const strip = (v) => (typeof v === "string" ? v.replace(/^\.\/pkg\//, "./") : v);
const walk = (v) => Array.isArray(v) ? v.map(walk)
    : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    : strip(v);
const out = walk(m);
delete out.files;
delete out.scripts;
delete out.devDependencies;
process.stdout.write(JSON.stringify(out, null, 2) + "\n");
' > pkg/package.json
for f in pkg/raw/*.wasm; do
    printf '%s: %d bytes, %d gzipped\n' "$f" "$(wc -c < "$f")" "$(gzip -9 -c "$f" | wc -c)"
done
section "built"
