//! The compression of snapshot payloads: zstd over the columnar layout.
//!
//! zstd pairs LZ77 matches with entropy coding (Huffman and finite-state
//! entropy), which is what the byte planes of the columnar layout need: their
//! sign and exponent bytes take few values without repeating exactly, and
//! LZ4, which only finds repeats, leaves them as they are. Level 1 is chosen
//! for speed; higher levels save a few percent of the size at several times
//! the time.
//!
//! The compressed payload is the length of the columnar bytes (an LEB128
//! varint) followed by one zstd frame. Reading stops at that length, so that
//! damaged or crafted bytes cannot make it allocate without bound.

use std::io::Read;

/// zstd's compression level for snapshots.
const LEVEL: i32 = 1;

/// `bytes`, compressed.
pub(crate) fn compress(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() / 3 + 16);
    let mut len = bytes.len() as u64;
    while len >= 0x80 {
        out.push(len as u8 | 0x80);
        len >>= 7;
    }
    out.push(len as u8);
    let mut encoder = zstd::stream::write::Encoder::new(out, LEVEL).expect("zstd accepts its own level");
    encoder.set_pledged_src_size(Some(bytes.len() as u64)).expect("a size before any data");
    std::io::Write::write_all(&mut encoder, bytes).expect("writing to memory cannot fail");
    encoder.finish().expect("writing to memory cannot fail")
}

/// The bytes [`compress`] was given, or why `packed` does not hold them.
pub(crate) fn decompress(packed: &[u8]) -> Result<Vec<u8>, String> {
    let mut rest = packed;
    let mut len = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, tail) = rest.split_first().ok_or("the compressed payload ends in its length")?;
        rest = tail;
        len |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            break;
        }
    }
    let decoder = zstd::stream::read::Decoder::with_buffer(rest).map_err(|e| e.to_string())?;
    // Past a size the frame itself must justify, memory is given as the
    // bytes arrive, never on the length's word alone.
    let mut out = Vec::with_capacity(len.min(64 * packed.len() as u64) as usize);
    decoder.take(len.saturating_add(1)).read_to_end(&mut out).map_err(|e| format!("zstd: {e}"))?;
    if out.len() as u64 != len {
        return Err(format!("{} bytes uncompressed where the payload says {len}", out.len()));
    }
    Ok(out)
}
