//! The compression of snapshot payloads: one zstd frame over the columns.
//!
//! zstd pairs LZ77 matches with entropy coding (Huffman and finite-state
//! entropy), which is what the byte planes of the columns need: their sign
//! and exponent bytes take few values without repeating exactly, and LZ4,
//! which only finds repeats, leaves them as they are. Level 1 is chosen for
//! speed; higher levels save a few percent of the size at several times the
//! time.
//!
//! Each thread keeps its zstd contexts between snapshots: a context sized for
//! a large world holds a megabyte or so of tables, which a fresh one would
//! allocate and clear on every call.
//!
//! The frame states the size of what it holds, and is decompressed in one
//! call into a buffer of that size. A frame that states more than
//! [`MAX_RATIO`] times its own size is read as a stream instead, memory given
//! as the bytes arrive, so that damaged or crafted bytes cannot make the
//! reader allocate without bound.

use std::cell::RefCell;
use std::io::{self, Read};
use std::thread::LocalKey;

use zstd::bulk::{Compressor, Decompressor};

use super::scratch::Scratch;
use zstd::zstd_safe::CParameter;

/// zstd's compression level for snapshots.
const LEVEL: i32 = 1;

/// Level 1's window and hash table, made smaller: matches in the columns lie
/// within a column or two, and tables that stay in the cache save the
/// pyramid's snapshot a twentieth of its compression time for a fifth of a
/// percent of its size.
const WINDOW_LOG: u32 = 17;
const HASH_LOG: u32 = 12;

/// The largest ratio of stated size to compressed size decompressed in one
/// call. Snapshots compress about 3 to 1; only a frame of nearly nothing but
/// repeats goes past this, and it is read as a stream.
const MAX_RATIO: u64 = 64;

thread_local! {
    /// This thread's compression context, made on first use.
    static COMPRESSOR: RefCell<Option<Compressor<'static>>> = const { RefCell::new(None) };
    /// This thread's decompression context, made on first use.
    static DECOMPRESSOR: RefCell<Option<Decompressor<'static>>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's context of `key`, made by `make` on first
/// use; with a context of its own in a thread tearing down its locals.
fn with_context<C: 'static, T>(
    key: &'static LocalKey<RefCell<Option<C>>>,
    make: impl Fn() -> io::Result<C>,
    f: impl FnOnce(&mut C) -> io::Result<T>,
) -> io::Result<T> {
    let mut f = Some(f);
    let mut run = |c: &mut C| (f.take().expect("f runs once"))(c);
    let kept = key.try_with(|cell| match &mut *cell.borrow_mut() {
        Some(c) => run(c),
        empty => run(empty.insert(make()?)),
    });
    kept.unwrap_or_else(|_| run(&mut make()?))
}

/// `bytes`, compressed into one frame that states their size.
pub(crate) fn compress(bytes: &[u8]) -> Vec<u8> {
    let make = || {
        let mut c = Compressor::new(LEVEL)?;
        c.set_parameter(CParameter::WindowLog(WINDOW_LOG))?;
        c.set_parameter(CParameter::HashLog(HASH_LOG))?;
        Ok(c)
    };
    with_context(&COMPRESSOR, make, |c| c.compress(bytes))
        .expect("zstd accepts its own level and sizes its own buffer")
}

/// The bytes [`compress`] was given, or why `frame` does not hold them.
pub(crate) fn decompress(frame: &[u8]) -> Result<Scratch<u8>, String> {
    let size = match zstd::zstd_safe::get_frame_content_size(frame) {
        Ok(Some(size)) => size,
        _ => return Err("the payload is not a zstd frame that states its size".into()),
    };
    if size <= MAX_RATIO.saturating_mul(frame.len() as u64) {
        let mut out = Scratch::with_capacity(size as usize);
        let read =
            with_context(&DECOMPRESSOR, Decompressor::new, |d| d.decompress_to_buffer(frame, &mut *out))
                .map_err(|e| format!("zstd: {e}"))?;
        return if read as u64 == size { Ok(out) } else { Err(format!("{read} bytes in a frame of {size}")) };
    }
    let decoder = zstd::stream::read::Decoder::with_buffer(frame).map_err(|e| e.to_string())?;
    let mut out = Scratch::with_capacity((MAX_RATIO * frame.len() as u64) as usize);
    decoder.take(size.saturating_add(1)).read_to_end(&mut out).map_err(|e| format!("zstd: {e}"))?;
    if out.len() as u64 != size {
        return Err(format!("{} bytes in a frame of {size}", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of every ratio come back, through either path; a frame that
    /// claims another size, or is cut short, is refused.
    #[test]
    fn bytes_come_back() {
        let noisy: Vec<u8> = (0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let zeros = vec![0u8; 1 << 20];
        for bytes in [&noisy[..], &zeros[..], &[]] {
            let frame = compress(bytes);
            assert_eq!(*decompress(&frame).unwrap(), bytes);
            assert!(decompress(&frame[..frame.len() - 1]).is_err());
        }
        assert!(compress(&zeros).len() as u64 * MAX_RATIO < zeros.len() as u64, "the stream path is tested");
        assert!(decompress(b"not a frame").is_err());
    }
}
