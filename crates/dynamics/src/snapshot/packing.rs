//! Columns of numbers written and read in bulk: the building blocks of a
//! snapshot's payload.
//!
//! The payload is a run of columns, each a 4-byte little-endian length and
//! that many bytes. A column holds one field of every record of a kind (every
//! body's angular velocity, every contact's first collider), so that values
//! alike sit side by side for the compressor, and is written by a loop over
//! the records rather than a call per value:
//!
//! - **Integers** (keys, counts, flags) are a tag byte, then either their
//!   number and one value (tag 0: every value of the column is that one: a
//!   map's versions where no slot was reused, a pyramid's flags), or the
//!   zigzag LEB128 varints of their differences from the previous value of
//!   the column (tag 1): a run of increasing keys becomes a run of small bytes.
//! - **Reals** are a tag byte, then either one value (tag 0: every value of
//!   the column is that one, bit for bit: a pyramid's masses, frictions and
//!   damping) or the values split into byte planes (tag 1: the first byte of
//!   every value, then the second, and so on), so that the repeating sign and
//!   exponent bytes sit together, away from the noise of the low mantissa
//!   bytes. A plane that looks like noise (the lowest bytes of impulses and
//!   positions) is not compressed at all: it goes to a section of its own,
//!   stored as it is, and a mask after the tag says which planes went there.
//!   zstd would spend as long on such a plane as on any other and save next
//!   to nothing of it.
//! - **Bytes** are written as they are.
//!
//! Reading checks every length against what is left, and every column must be
//! read to its end: damaged bytes give an error, never a panic or an
//! allocation larger than the payload.

use crate::{WorldKey, WorldTag};
use lamina_geometry::Real;

use super::scratch::{Pooled, Scratch, give_back};

/// Bytes of a real.
const REAL_BYTES: usize = std::mem::size_of::<Real>();

/// A column whose values are all one value.
const CONSTANT: u8 = 0;
/// A column of reals in byte planes.
const PLANES: u8 = 1;
/// A column of integers written as differences.
const DELTAS: u8 = 1;

/// Values sampled from a column to judge whether a byte plane is noise; a
/// column shorter than this is always compressed.
const NOISE_SAMPLE: usize = 1024;

/// The chance, as one in this many, that two bytes drawn from a plane are
/// equal, at or under which the plane is noise. Uniform bytes give one in
/// 256. On the pyramid of benches/compare, the planes zstd shrinks by less
/// than a twentieth give one in 156 to 208, and a plane of repeats that zstd
/// shrinks to a quarter gives one in 139: a plane judged noise costs at most
/// a few percent of its size, and saves zstd its time.
const NOISE_COLLISION: usize = 160;

/// Whether plane `k` of `values` looks like noise, judged on a sample by how
/// often two of its bytes are equal (the sum of the squares of the counts of
/// each byte value, in integers: the same on every machine).
fn is_noise(values: &[Real], k: usize) -> bool {
    if values.len() < NOISE_SAMPLE {
        return false;
    }
    let stride = values.len() / NOISE_SAMPLE;
    let mut counts = [0usize; 256];
    for i in 0..NOISE_SAMPLE {
        counts[usize::from(values[i * stride].to_le_bytes()[k])] += 1;
    }
    let collisions: usize = counts.iter().map(|c| c * c).sum();
    collisions * NOISE_COLLISION <= NOISE_SAMPLE * NOISE_SAMPLE
}

/// Appends `value` as an LEB128 varint.
#[inline]
pub(crate) fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads an LEB128 varint from the front of `bytes`, advancing it.
#[inline]
pub(crate) fn read_varint(bytes: &mut &[u8]) -> Result<u64, &'static str> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let Some((&byte, rest)) = bytes.split_first() else {
            return Err("a column ends inside a number");
        };
        *bytes = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return if shift == 63 && byte > 1 { Err("a number overflows 64 bits") } else { Ok(value) };
        }
    }
    Err("a number overflows 64 bits")
}

/// Signed to unsigned, small magnitudes to small numbers: 0, −1, 1, −2, …
#[inline]
pub(crate) fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
#[inline]
pub(crate) fn unzigzag(value: u64) -> i64 {
    (value >> 1) as i64 ^ -((value & 1) as i64)
}

/// Values transposed at a time from byte planes to their bytes: a block
/// small enough to stay in the first level of cache, so that no byte needs a
/// bounds check.
const BLOCK: usize = 64;

/// Splits `values` of `N` bytes each (as `to_bytes` gives them) into `N`
/// planes appended to `out`: byte `k` of value `i` goes to
/// `out[start + k * len + i]`. A plane at a time, each a pass that the
/// compiler turns into vector shuffles.
pub(crate) fn write_planes<const N: usize, T: Copy>(
    out: &mut Vec<u8>,
    values: &[T],
    to_bytes: fn(T) -> [u8; N],
) {
    out.reserve(N * values.len());
    for k in 0..N {
        out.extend(values.iter().map(|&v| to_bytes(v)[k]));
    }
}

/// `bytes` split into `N` planes of equal length.
pub(crate) fn split_planes<const N: usize>(bytes: &[u8]) -> [&[u8]; N] {
    let len = bytes.len() / N;
    std::array::from_fn(|k| &bytes[k * len..(k + 1) * len])
}

/// Appends to `out` the values whose bytes `planes` holds (see
/// [`write_planes`]), all of one length.
pub(crate) fn read_planes<const N: usize, T>(
    out: &mut Vec<T>,
    planes: [&[u8]; N],
    from_bytes: fn([u8; N]) -> T,
) {
    let len = planes[0].len();
    out.reserve(len);
    let mut block = [[0u8; N]; BLOCK];
    for start in (0..len).step_by(BLOCK) {
        let n = BLOCK.min(len - start);
        for (k, plane) in planes.iter().enumerate() {
            for (value, &b) in block.iter_mut().zip(&plane[start..start + n]) {
                value[k] = b;
            }
        }
        out.extend(block[..n].iter().map(|&bytes| from_bytes(bytes)));
    }
}

/// Writes one column to `out` with `write`, after its length.
fn column(out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    write(out);
    let len = u32::try_from(out.len() - at - 4).expect("a column under 4 GiB");
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// The payload being written: its columns so far.
#[derive(Default)]
pub(crate) struct Packer {
    out: Vec<u8>,
    /// The byte planes that look like noise, stored as they are.
    noise: Vec<u8>,
}

impl Packer {
    /// An empty payload with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Packer { out: Vec::with_capacity(capacity), noise: Vec::new() }
    }

    /// The columns, to be compressed, and the planes that look like noise.
    pub(crate) fn into_parts(self) -> (Vec<u8>, Vec<u8>) {
        (self.out, self.noise)
    }

    /// A column of integers: their number and value if they are all one,
    /// else each written as its difference from the last. The differences
    /// are written as the values come, a buffer on the stack at a time so
    /// that the loop keeps its state in registers, and replaced by the one
    /// value if it turns out to be that.
    pub(crate) fn ints(&mut self, values: impl IntoIterator<Item = u64>) {
        column(&mut self.out, |out| {
            let start = out.len();
            out.push(DELTAS);
            let (mut previous, mut count, mut constant) = (0u64, 0u64, true);
            let mut first = 0u64;
            let mut buffer = [0u8; 256];
            let mut used = 0;
            for value in values {
                if count == 0 {
                    first = value;
                }
                constant &= value == first;
                let mut v = zigzag(value.wrapping_sub(previous) as i64);
                while v >= 0x80 {
                    buffer[used] = v as u8 | 0x80;
                    used += 1;
                    v >>= 7;
                }
                buffer[used] = v as u8;
                used += 1;
                if used > buffer.len() - 10 {
                    out.extend_from_slice(&buffer[..used]);
                    used = 0;
                }
                previous = value;
                count += 1;
            }
            out.extend_from_slice(&buffer[..used]);
            if count > 0 && constant {
                out.truncate(start);
                out.push(CONSTANT);
                write_varint(out, count);
                write_varint(out, first);
            }
        });
    }

    /// A column of reals: one value if they are all one, bit for bit, else
    /// their byte planes, each in the column or, if it looks like noise, in
    /// the noise.
    pub(crate) fn reals(&mut self, values: &[Real]) {
        let noise = &mut self.noise;
        column(&mut self.out, |out| match values.split_first() {
            Some((first, rest)) if rest.iter().all(|v| v.to_bits() == first.to_bits()) => {
                out.push(CONSTANT);
                out.extend_from_slice(&first.to_le_bytes());
            }
            _ => {
                let mask = (0..REAL_BYTES).filter(|&k| is_noise(values, k)).fold(0u8, |m, k| m | 1 << k);
                out.extend([PLANES, mask]);
                for k in 0..REAL_BYTES {
                    let to = if mask & 1 << k != 0 { &mut *noise } else { &mut *out };
                    to.extend(values.iter().map(|v| v.to_le_bytes()[k]));
                }
            }
        });
    }

    /// A column of bytes, as they are.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        column(&mut self.out, |out| out.extend_from_slice(bytes));
    }
}

/// The payload being read: the columns not read yet.
pub(crate) struct Unpacker<'a> {
    rest: &'a [u8],
    /// The planes stored as they are, not read yet.
    noise: &'a [u8],
    /// The length of the whole payload, which bounds every count: each
    /// record of a state has a byte of its own somewhere in it.
    total: usize,
}

impl<'a> Unpacker<'a> {
    /// The columns `columns` and the planes stored as they are, `noise`
    /// ([`Packer::into_parts`]).
    pub(crate) fn new(columns: &'a [u8], noise: &'a [u8]) -> Self {
        Unpacker { rest: columns, noise, total: columns.len() + noise.len() }
    }

    /// An upper bound on the columns left: each takes at least four bytes.
    pub(crate) fn columns_left(&self) -> usize {
        self.rest.len() / 4
    }

    /// The next column's bytes.
    fn column(&mut self) -> Result<&'a [u8], String> {
        let Some((len, rest)) = self.rest.split_first_chunk::<4>() else {
            return Err("the payload ends before its last column".into());
        };
        let len = u32::from_le_bytes(*len) as usize;
        if len > rest.len() {
            return Err("a column is longer than the payload".into());
        }
        let (column, rest) = rest.split_at(len);
        self.rest = rest;
        Ok(column)
    }

    /// The next column, of integers.
    pub(crate) fn ints(&mut self) -> Result<Ints<'a>, String> {
        let column = self.column()?;
        match column.split_first() {
            Some((&CONSTANT, mut rest)) => {
                let count = read_varint(&mut rest)?;
                let value = read_varint(&mut rest)?;
                let count = usize::try_from(count).ok().filter(|&n| n <= self.total && rest.is_empty());
                let count = count.ok_or("a column of one integer that does not fit the payload")?;
                Ok(Ints { bytes: &[], previous: value, repeats: count })
            }
            Some((&DELTAS, rest)) => Ok(Ints { bytes: rest, previous: 0, repeats: 0 }),
            _ => Err("a column of integers of no known kind".into()),
        }
    }

    /// The next column, of integers, read whole.
    pub(crate) fn all_ints(&mut self) -> Result<Scratch<u64>, String> {
        let mut column = self.ints()?;
        let mut values = Scratch::with_capacity(column.left().min(self.total));
        column.read_to_end(&mut values)?;
        Ok(values)
    }

    /// The next column, of `count` reals.
    pub(crate) fn reals(&mut self, count: usize) -> Result<Scratch<Real>, String> {
        if count > self.total {
            return Err(format!("a column of {count} reals in a payload of {} bytes", self.total));
        }
        let column = self.column()?;
        match column.split_first() {
            Some((&CONSTANT, value)) if value.len() == REAL_BYTES => {
                let value = Real::from_le_bytes(value.try_into().expect("the length was checked"));
                let mut values = Scratch::with_capacity(count);
                values.resize(count, value);
                Ok(values)
            }
            Some((&PLANES, [mask, rest @ ..])) => {
                let noisy = mask.count_ones() as usize;
                let noise_len = count * noisy;
                if u32::from(*mask) >> REAL_BYTES != 0
                    || rest.len() != count * (REAL_BYTES - noisy)
                    || self.noise.len() < noise_len
                {
                    return Err(format!("a column of reals does not hold {count} of them"));
                }
                let (noise, after) = self.noise.split_at(noise_len);
                self.noise = after;
                let (mut column, mut noise) =
                    (rest.chunks_exact(count.max(1)), noise.chunks_exact(count.max(1)));
                let planes: [&[u8]; REAL_BYTES] = std::array::from_fn(|k| {
                    let from = if mask & 1 << k != 0 { &mut noise } else { &mut column };
                    from.next().unwrap_or(&[])
                });
                let mut values = Scratch::with_capacity(count);
                read_planes(&mut values, planes, Real::from_le_bytes);
                Ok(values)
            }
            _ => Err(format!("a column of reals does not hold {count} of them")),
        }
    }

    /// The next column, of bytes.
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], String> {
        self.column()
    }

    /// Checks that every column was read.
    pub(crate) fn finish(&self) -> Result<(), String> {
        if self.rest.is_empty() && self.noise.is_empty() {
            Ok(())
        } else {
            Err("bytes after the last column".into())
        }
    }
}

/// A column of integers being read.
pub(crate) struct Ints<'a> {
    /// The differences not read yet.
    bytes: &'a [u8],
    /// The last value read, or the value of a column of one value.
    previous: u64,
    /// How many values are left of a column of one value.
    repeats: usize,
}

impl Ints<'_> {
    /// The next integer.
    #[inline]
    pub(crate) fn next(&mut self) -> Result<u64, String> {
        if self.repeats > 0 {
            self.repeats -= 1;
            return Ok(self.previous);
        }
        let delta = match self.bytes.split_first() {
            Some((&byte, rest)) if byte < 0x80 => {
                self.bytes = rest;
                u64::from(byte)
            }
            _ => read_varint(&mut self.bytes)?,
        };
        self.previous = self.previous.wrapping_add(unzigzag(delta) as u64);
        Ok(self.previous)
    }

    /// Appends the next `n` integers to `out`: [`Ints::next`] `n` times, in a
    /// loop that keeps its state in registers.
    pub(crate) fn read_into(&mut self, out: &mut Vec<u64>, n: usize) -> Result<(), String> {
        let repeated = n.min(self.repeats);
        out.extend(std::iter::repeat_n(self.previous, repeated));
        self.repeats -= repeated;
        let (mut bytes, mut previous) = (self.bytes, self.previous);
        out.reserve(n - repeated);
        for _ in repeated..n {
            let delta = match bytes.split_first() {
                Some((&byte, rest)) if byte < 0x80 => {
                    bytes = rest;
                    u64::from(byte)
                }
                _ => read_varint(&mut bytes)?,
            };
            previous = previous.wrapping_add(unzigzag(delta) as u64);
            out.push(previous);
        }
        self.bytes = bytes;
        self.previous = previous;
        Ok(())
    }

    /// Appends every integer left to `out`.
    pub(crate) fn read_to_end(&mut self, out: &mut Vec<u64>) -> Result<(), String> {
        let repeated = self.repeats;
        self.read_into(out, repeated)?;
        let (mut bytes, mut previous) = (self.bytes, self.previous);
        out.reserve(bytes.len());
        while let Some((&byte, rest)) = bytes.split_first() {
            let delta = if byte < 0x80 {
                bytes = rest;
                u64::from(byte)
            } else {
                read_varint(&mut bytes)?
            };
            previous = previous.wrapping_add(unzigzag(delta) as u64);
            out.push(previous);
        }
        self.bytes = bytes;
        self.previous = previous;
        Ok(())
    }

    /// An upper bound on the integers left: each difference takes at least
    /// a byte.
    pub(crate) fn left(&self) -> usize {
        self.repeats + self.bytes.len()
    }

    /// Checks that the column was read to its end.
    pub(crate) fn finish(self) -> Result<(), String> {
        if self.left() == 0 { Ok(()) } else { Err("a column of integers is longer than its records".into()) }
    }
}

/// `N` columns of reals filled a row at a time: row `i` holds the `N`
/// fields of record `i`, column `k` field `k` of every record.
pub(crate) struct RealRows<const N: usize> {
    columns: [Vec<Real>; N],
    /// The columns were read into buffers of the pool, and go back to it.
    pooled: bool,
}

impl<const N: usize> RealRows<N> {
    /// Empty columns with room for `rows` rows, to write.
    pub(crate) fn with_capacity(rows: usize) -> Self {
        RealRows { columns: std::array::from_fn(|_| Vec::with_capacity(rows)), pooled: false }
    }

    /// Appends a row.
    #[inline]
    pub(crate) fn push(&mut self, row: [Real; N]) {
        for (column, v) in self.columns.iter_mut().zip(row) {
            column.push(v);
        }
    }

    /// How many rows there are.
    pub(crate) fn rows(&self) -> usize {
        self.columns.first().map_or(0, Vec::len)
    }

    /// Row `i`.
    #[inline]
    pub(crate) fn row(&self, i: usize) -> [Real; N] {
        std::array::from_fn(|k| self.columns[k][i])
    }

    /// Writes the columns one after another.
    pub(crate) fn write(&self, packer: &mut Packer) {
        for column in &self.columns {
            packer.reals(column);
        }
    }

    /// Reads `N` columns of `rows` reals each.
    pub(crate) fn read(unpacker: &mut Unpacker<'_>, rows: usize) -> Result<Self, String> {
        let mut read = RealRows { columns: std::array::from_fn(|_| Vec::new()), pooled: true };
        for column in &mut read.columns {
            *column = unpacker.reals(rows)?.into_vec();
        }
        Ok(read)
    }
}

/// `N` columns of integers filled a row at a time, as [`RealRows`].
pub(crate) struct IntRows<const N: usize> {
    columns: [Vec<u64>; N],
    /// The columns were read into buffers of the pool, and go back to it.
    pooled: bool,
}

impl<const N: usize> IntRows<N> {
    /// Empty columns with room for `rows` rows, to write.
    pub(crate) fn with_capacity(rows: usize) -> Self {
        IntRows { columns: std::array::from_fn(|_| Vec::with_capacity(rows)), pooled: false }
    }

    /// Appends a row.
    #[inline]
    pub(crate) fn push(&mut self, row: [u64; N]) {
        for (column, v) in self.columns.iter_mut().zip(row) {
            column.push(v);
        }
    }

    /// Row `i`.
    #[inline]
    pub(crate) fn row(&self, i: usize) -> [u64; N] {
        std::array::from_fn(|k| self.columns[k][i])
    }

    /// Writes the columns one after another.
    pub(crate) fn write(&self, packer: &mut Packer) {
        for column in &self.columns {
            packer.ints(column.iter().copied());
        }
    }

    /// Reads `N` columns of `rows` integers each, every one read to its end.
    pub(crate) fn read(unpacker: &mut Unpacker<'_>, rows: usize) -> Result<Self, String> {
        let mut read = IntRows { columns: std::array::from_fn(|_| Vec::new()), pooled: true };
        for column in &mut read.columns {
            let mut ints = unpacker.ints()?;
            if ints.left() < rows {
                return Err(format!("a column of integers holds fewer than {rows}"));
            }
            let mut values = Scratch::with_capacity(rows);
            ints.read_into(&mut values, rows)?;
            ints.finish()?;
            *column = values.into_vec();
        }
        Ok(read)
    }
}

/// Columns read from a snapshot go back to their thread's pool.
fn give_back_columns<T: Pooled, const N: usize>(columns: &mut [Vec<T>; N], pooled: bool) {
    if pooled {
        columns.iter_mut().for_each(|c| give_back(std::mem::take(c)));
    }
}

impl<const N: usize> Drop for RealRows<N> {
    fn drop(&mut self) {
        give_back_columns(&mut self.columns, self.pooled);
    }
}

impl<const N: usize> Drop for IntRows<N> {
    fn drop(&mut self) {
        give_back_columns(&mut self.columns, self.pooled);
    }
}

/// Keys gathered for writing, as [`write_keys`] writes them.
#[derive(Default)]
pub(crate) struct KeyList {
    indices: Vec<u64>,
    versions: Vec<u64>,
}

impl KeyList {
    /// Appends `keys`.
    pub(crate) fn extend<K: slotmap::Key>(&mut self, keys: &[K]) {
        for key in keys {
            let ffi = key.data().as_ffi();
            self.indices.push(ffi & 0xffff_ffff);
            self.versions.push(ffi >> 32);
        }
    }

    /// Writes the keys as [`write_keys`] does.
    pub(crate) fn write(&self, packer: &mut Packer) {
        packer.ints(self.indices.iter().copied());
        packer.ints(self.versions.iter().copied());
    }
}

/// Writes `keys` (an iterator run twice) as two columns of integers, their
/// slot indices and their versions.
pub(crate) fn write_keys<K: slotmap::Key>(packer: &mut Packer, keys: impl Iterator<Item = K> + Clone) {
    let ffi = |k: K| k.data().as_ffi();
    packer.ints(keys.clone().map(|k| ffi(k) & 0xffff_ffff));
    packer.ints(keys.map(|k| ffi(k) >> 32));
}

/// A key read back from a snapshot: a world's key takes the tag of the
/// world restored (the snapshot's), a contact's key has none.
pub(crate) trait ReadKey: slotmap::Key {
    /// The key of `data`, in `world`.
    fn read(data: slotmap::KeyData, world: WorldTag) -> Self;
}

macro_rules! read_world_key {
    ($($key:ty),*) => {$(
        impl ReadKey for $key {
            fn read(data: slotmap::KeyData, world: WorldTag) -> Self {
                <$key>::from(data).in_world(world)
            }
        }
    )*};
}
read_world_key!(crate::BodyKey, crate::ColliderKey, crate::JointKey, crate::ChainKey);

impl<K> ReadKey for crate::keys::Untagged<K> {
    fn read(data: slotmap::KeyData, _: WorldTag) -> Self {
        Self::from(data)
    }
}

impl ReadKey for crate::ContactKey {
    fn read(data: slotmap::KeyData, _: WorldTag) -> Self {
        Self::from(data)
    }
}

/// Every key of the next two columns ([`write_keys`]), in `world`.
pub(crate) fn read_keys<K: ReadKey>(unpacker: &mut Unpacker<'_>, world: WorldTag) -> Result<Vec<K>, String> {
    let (indices, versions) = (unpacker.all_ints()?, unpacker.all_ints()?);
    if indices.len() != versions.len() {
        return Err("keys whose indices and versions do not pair up".into());
    }
    let key = |(&index, &version): (&u64, &u64)| -> Result<K, String> {
        let (Ok(index), Ok(version)) = (u32::try_from(index), u32::try_from(version)) else {
            return Err("a key out of range".into());
        };
        Ok(K::read(slotmap::KeyData::from_ffi(u64::from(version) << 32 | u64::from(index)), world))
    };
    indices.iter().zip(versions.iter()).map(key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers, reals (constant or not, NaN payloads and signed zeros
    /// included) and bytes come back bit for bit.
    #[test]
    fn columns_come_back() {
        let ints = [0, 5, 3, u64::MAX, 1 << 40, 7];
        let reals = [1.5, -0.0, Real::from_bits(0x7fc0_0123), 3.25e-30, 0.0];
        let constant = [-0.0; 9];
        let many: Vec<Real> = (0..1000).map(|i| (i as Real * 0.37).sin() * 1e3).collect();
        // Random low bytes: planes that go to the noise.
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let noisy: Vec<Real> = (0..2000).map(|_| 1.0 + rng.unit()).collect();
        let mut packer = Packer::default();
        let many_ints: Vec<u64> = (0..1000u64).map(|i| ((i * i * 7919) % 100_003) << (i % 40)).collect();
        packer.ints(ints);
        packer.ints(many_ints.iter().copied());
        packer.ints([4u64; 3]);
        packer.reals(&reals);
        packer.reals(&constant);
        packer.reals(&many);
        packer.reals(&noisy);
        packer.bytes(b"abc");
        let (bytes, noise) = packer.into_parts();
        assert!(!noise.is_empty() && noise.len() % noisy.len() == 0, "the noisy planes are stored apart");
        let mut unpacker = Unpacker::new(&bytes, &noise);
        let mut column = unpacker.ints().unwrap();
        let read: Vec<u64> = (0..ints.len()).map(|_| column.next().unwrap()).collect();
        assert_eq!(read, ints);
        column.finish().unwrap();
        assert_eq!(*unpacker.all_ints().unwrap(), many_ints);
        let mut constant_ints = unpacker.ints().unwrap();
        assert_eq!((0..3).map(|_| constant_ints.next().unwrap()).collect::<Vec<_>>(), [4, 4, 4]);
        constant_ints.finish().unwrap();
        let bits = |v: &[Real]| v.iter().map(|r| r.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&unpacker.reals(reals.len()).unwrap()), bits(&reals));
        assert_eq!(bits(&unpacker.reals(constant.len()).unwrap()), bits(&constant));
        assert_eq!(bits(&unpacker.reals(many.len()).unwrap()), bits(&many));
        assert_eq!(bits(&unpacker.reals(noisy.len()).unwrap()), bits(&noisy));
        assert_eq!(unpacker.bytes().unwrap(), b"abc");
        unpacker.finish().unwrap();
    }

    /// Any byte changed and any length cut: an error or some values, never a
    /// panic; a column of reals of the wrong count is refused.
    #[test]
    fn damaged_columns_never_panic() {
        let mut packer = Packer::default();
        packer.ints([3, 1, 4, 1, 5]);
        packer.reals(&[2.0, 7.0, 1.0]);
        let (bytes, _) = packer.into_parts();
        let read = |bytes: &[u8]| -> Result<(), String> {
            let mut unpacker = Unpacker::new(bytes, &[]);
            let mut ints = unpacker.ints()?;
            for _ in 0..5 {
                ints.next()?;
            }
            ints.finish()?;
            unpacker.reals(3)?;
            unpacker.finish()
        };
        read(&bytes).unwrap();
        for i in 0..bytes.len() {
            for bits in [0x01, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[i] ^= bits;
                let _ = read(&damaged);
            }
            assert!(read(&bytes[..i]).is_err());
        }
        let mut unpacker = Unpacker::new(&bytes, &[]);
        unpacker.ints().unwrap();
        assert!(unpacker.reals(4).is_err());
    }
}
