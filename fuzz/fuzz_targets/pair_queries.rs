#![no_main]
//! libFuzzer's entry to `lamina_fuzz::pair_queries`: see that module for what it checks.

libfuzzer_sys::fuzz_target!(|data: &[u8]| lamina_fuzz::pair_queries::run(data));
