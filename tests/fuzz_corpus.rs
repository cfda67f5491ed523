//! Replays the fuzz targets' committed corpus (`fuzz/corpus/TARGET/`, and the
//! inputs that once failed, `fuzz/regressions/TARGET/`) through
//! the same harness functions libFuzzer drives, so that every input the
//! fuzzer kept — the ones that reached new code, and the ones that once
//! failed — is checked again by the ordinary test command, on the stable
//! toolchain, in both precisions. Fuzzing itself: `bash fuzz/run.sh`.

#![allow(clippy::unnecessary_cast)] // casts to f64 are no-ops with the `f64` feature

#[path = "../fuzz/src/input.rs"]
mod input;
#[path = "../crates/narrowphase/tests/common/oracle.rs"]
mod oracle;
#[path = "../fuzz/src/pair_queries.rs"]
mod pair_queries;
#[path = "../fuzz/src/polygon_hull.rs"]
mod polygon_hull;
#[path = "../fuzz/src/world_commands.rs"]
mod world_commands;

use std::path::Path;

/// Runs `target` on every file of its corpus and of its failing inputs kept
/// for good (`fuzz/regressions/TARGET/`); returns how many it ran.
fn replay(target: &str, run: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files = Vec::new();
    for folder in [root.join("corpus").join(target), root.join("regressions").join(target)] {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        files
            .extend(entries.map(|entry| entry.expect("a corpus entry").path()).filter(|path| path.is_file()));
    }
    files.sort();
    for file in &files {
        let data = std::fs::read(file).expect("a corpus file");
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{target} fails on {}", file.display());
    }
    files.len()
}

#[test]
fn world_commands_corpus_holds() {
    assert!(replay("world_commands", world_commands::run) > 0, "the corpus is empty");
}

#[test]
fn pair_queries_corpus_holds() {
    assert!(replay("pair_queries", pair_queries::run) > 0, "the corpus is empty");
}

#[test]
fn polygon_hull_corpus_holds() {
    assert!(replay("polygon_hull", polygon_hull::run) > 0, "the corpus is empty");
}
