#!/usr/bin/env bash
# Runs Lamina's fuzz targets side by side for a fixed time each, starting
# from (and adding to) the committed corpus, and fails if any crashes.
#
#   bash fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#   FUZZ_RUNS=40000 FUZZ_SEED=1 bash fuzz/run.sh [TARGET...]
#
# With FUZZ_RUNS set, each target instead runs that many inputs from a fixed
# seed (FUZZ_SEED, default 1): the same inputs on every machine, so a check
# that passes once passes again. CI fuzzes that way, as it fixes proptest's
# seed; fuzzing for time (above) is how new faults are found. libFuzzer runs
# its seed inputs in the order it read them (shuffled by the seed, then
# sorted by size, ties kept): read from a folder, that order is the file
# system's, which differs from machine to machine. So in this mode the
# committed inputs are handed over as one sorted list (`-seed_inputs`), and
# what the run finds goes to target/fuzz-finds/TARGET, not to corpus/, so
# that the next run starts from the same inputs.
#
# Installs cargo-fuzz when it is missing. The targets build with the stable
# toolchain (RUSTC_BOOTSTRAP=1 admits the unstable flags libFuzzer needs) and
# without a sanitizer: Lamina's code is safe Rust but for its SIMD lanes, so
# the checks that matter are the harness's own. A crash leaves its input under
# fuzz/artifacts/TARGET/ (once fixed, keep it in fuzz/regressions/TARGET/ and
# name a test for it in tests/fuzz_regressions.rs); replay it with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none -O TARGET fuzz/artifacts/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")"
if [ -n "${FUZZ_RUNS:-}" ]; then
  budget=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
  what="$FUZZ_RUNS inputs from seed ${FUZZ_SEED:-1}"
else
  seconds="${1:-60}"
  shift || true
  budget=(-max_total_time="$seconds")
  what="${seconds}s"
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(world_commands pair_queries polygon_hull)

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked --version 0.13.2
fi
export RUSTC_BOOTSTRAP=1
cargo fuzz build --sanitizer none -O
# Each target runs on one core: they run side by side, each into its own log,
# shown when all have ended. A crash in any fails the run.
fuzz_one() { # $1: the target
  local target="$1"
  mkdir -p "corpus/$target"
  echo "== fuzzing $target: $what"
  # New finds go to corpus/ (with FUZZ_RUNS, to target/fuzz-finds/); regressions/
  # holds inputs that once failed, read only.
  mkdir -p "regressions/$target"
  local inputs=("corpus/$target" "regressions/$target") seeds=()
  if [ -n "${FUZZ_RUNS:-}" ]; then
    local finds="$PWD/target/fuzz-finds/$target" list="$PWD/target/fuzz-seeds-$target.txt"
    rm -rf "$finds"
    mkdir -p "$finds"
    # libFuzzer reads the list as one line of comma-separated paths.
    find "$PWD/corpus/$target" "$PWD/regressions/$target" -type f | LC_ALL=C sort | paste -sd, - > "$list"
    inputs=("$finds")
    [ -s "$list" ] && seeds=(-seed_inputs="@$list")
  fi
  cargo fuzz run --sanitizer none -O "$target" "${inputs[@]}" -- \
    "${budget[@]}" "${seeds[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 \
    | grep -E '^(INFO: seed corpus|#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|stat::peak_rss)|panicked|ERROR|SUMMARY|Test unit written' \
    || true
}
mkdir -p target
pids=()
for target in "${targets[@]}"; do
  fuzz_one "$target" > "target/fuzz-$target.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  wait "$pid"
done
failed=0
for target in "${targets[@]}"; do
  cat "target/fuzz-$target.log"
  if compgen -G "artifacts/$target/*" >/dev/null; then
    echo "fuzz target $target found a failing input:" artifacts/"$target"/*
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
echo "fuzzing passed: ${targets[*]} ($what each)"
