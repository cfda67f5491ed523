//! A small, fast hasher for the broad phase's lookup tables.
//!
//! The broad phase hashes only to *find* things (a key's proxy, a cell's region);
//! it never iterates a hash map to produce output, so the hash function has no
//! effect on results. What matters is speed on short integer keys, where the
//! standard library's DoS-resistant SipHash costs several times more than the
//! lookup itself. This is the multiply-rotate scheme of the Firefox/rustc hasher.

use std::hash::{BuildHasherDefault, Hasher};

/// The odd multiplier of the multiply-rotate hash (from rustc's hasher); its high
/// bits spread every input bit across the word.
const SEED: u64 = 0xf135_7aea_2e62_a9c5;

/// Multiply-rotate hasher state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FastHasher {
    hash: u64,
}

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = self.hash.wrapping_add(word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn write_i32(&mut self, i: i32) {
        self.add(u64::from(i as u32));
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits weakest; hash tables index with them.
        self.hash.rotate_left(26)
    }
}

/// Builds [`FastHasher`]s for `HashMap`.
pub(crate) type FastBuild = BuildHasherDefault<FastHasher>;
