//! Lamina's fuzz targets, as plain functions of the fuzzer's bytes: each
//! decodes its input, drives the public API with it, and panics when a
//! promise of that API breaks. `fuzz_targets/` hands them to libFuzzer; the
//! engine's test suite replays the committed corpus through the same
//! functions (`tests/fuzz_corpus.rs` at the project's root).

#![allow(clippy::unnecessary_cast)] // casts to f64 are no-ops with the `f64` feature

pub mod input;
#[path = "../../crates/narrowphase/tests/common/oracle.rs"]
pub mod oracle;
pub mod pair_queries;
pub mod polygon_hull;
pub mod world_commands;
