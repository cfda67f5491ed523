//! The hasher of the world's lookup of contacts by collider pair.
//!
//! The lookup is only ever searched, never iterated, so its hash function
//! cannot change a result; what matters is speed on a pair of 64-bit keys,
//! where the standard library's DoS-resistant SipHash costs several times
//! the lookup itself (rebuilding the lookup of a restored snapshot of 15,000
//! contacts took a millisecond). This is the multiply-rotate scheme of the
//! Firefox and rustc hashers, as in the broad phase.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ContactKey;
use crate::broad_phase::ProxyKey;

/// The odd multiplier (from rustc's hasher): its high bits spread every input
/// bit across the word.
const SEED: u64 = 0xf135_7aea_2e62_a9c5;

/// Multiply-rotate hasher state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairHasher {
    hash: u64,
}

impl Hasher for PairHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.hash = self.hash.wrapping_add(word).wrapping_mul(SEED);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits weakest; hash tables index with them.
        self.hash.rotate_left(26)
    }
}

/// The contact of each pair of colliders that has one, by the colliders'
/// keys without the world's tag (as the broad phase's pair events name them).
pub(crate) type ContactOfPair = HashMap<(ProxyKey, ProxyKey), ContactKey, BuildHasherDefault<PairHasher>>;
