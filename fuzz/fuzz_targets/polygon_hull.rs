#![no_main]
//! libFuzzer's entry to `lamina_fuzz::polygon_hull`: see that module for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| lamina_fuzz::polygon_hull::run(data));
