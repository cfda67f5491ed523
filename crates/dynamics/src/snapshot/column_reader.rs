//! The columnar layout's reader (see `columns.rs`): the columns split back
//! out of a payload, and a serde deserializer that takes each value from its
//! column, checking every length against what is left.

use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::columns::{ABSENT, Error, MAX_CHILDREN, error, read_varint};
use super::packing::{read_planes, split_planes, unzigzag};

/// One column as it is read: its integers, and where its reals lie among
/// the reader's.
struct ColumnIn<'de> {
    children: Vec<u32>,
    ints: &'de [u8],
    previous: u64,
    next32: usize,
    end32: usize,
    next64: usize,
    end64: usize,
}

impl ColumnIn<'_> {
    fn empty() -> Self {
        ColumnIn { children: Vec::new(), ints: &[], previous: 0, next32: 0, end32: 0, next64: 0, end64: 0 }
    }

    fn is_read(&self) -> bool {
        self.ints.is_empty() && self.next32 == self.end32 && self.next64 == self.end64
    }
}

/// The deserializer: the payload's columns and the one being read from.
pub(crate) struct Reader<'de> {
    columns: Vec<ColumnIn<'de>>,
    /// Every column's reals, put back together from their byte planes.
    reals32: Vec<u32>,
    reals64: Vec<u64>,
    /// How many columns the payload has; those met beyond are empty.
    stored: usize,
    /// How many columns have been met so far.
    met: usize,
    at: u32,
}

/// Takes `len` bytes from the front of `bytes`.
fn take<'de>(bytes: &mut &'de [u8], len: u64) -> Result<&'de [u8], Error> {
    let len = usize::try_from(len).ok().filter(|&l| l <= bytes.len());
    let Some(len) = len else { return error("a column is longer than the payload") };
    let (front, rest) = bytes.split_at(len);
    *bytes = rest;
    Ok(front)
}

/// The value of type `T` that `payload` holds, every column read to its end.
pub(crate) fn from_bytes<'de, T: de::Deserialize<'de>>(payload: &'de [u8]) -> Result<T, Error> {
    let mut rest = payload;
    let count = read_varint(&mut rest)?;
    if count == 0 || count > rest.len() as u64 {
        return error("the number of columns does not fit the payload");
    }
    let mut lengths = Vec::with_capacity(count as usize);
    for _ in 0..count {
        lengths.push((read_varint(&mut rest)?, read_varint(&mut rest)?, read_varint(&mut rest)?));
    }
    let mut columns = Vec::with_capacity(count as usize);
    let (mut reals32, mut reals64) = (Vec::new(), Vec::new());
    for (ints, len32, len64) in lengths {
        let ints = take(&mut rest, ints)?;
        let (next32, next64) = (reals32.len(), reals64.len());
        read_planes(
            &mut reals32,
            split_planes(take(&mut rest, len32.saturating_mul(4))?),
            u32::from_le_bytes,
        );
        read_planes(
            &mut reals64,
            split_planes(take(&mut rest, len64.saturating_mul(8))?),
            u64::from_le_bytes,
        );
        columns.push(ColumnIn {
            ints,
            next32,
            end32: reals32.len(),
            next64,
            end64: reals64.len(),
            ..ColumnIn::empty()
        });
    }
    if !rest.is_empty() {
        return error("bytes after the last column");
    }
    let stored = columns.len();
    let mut reader = Reader { columns, reals32, reals64, stored, met: 1, at: 0 };
    let value = T::deserialize(&mut reader)?;
    if reader.met != reader.stored || !reader.columns.iter().all(ColumnIn::is_read) {
        return error("columns left unread");
    }
    Ok(value)
}

impl<'de> Reader<'de> {
    fn column(&mut self) -> &mut ColumnIn<'de> {
        &mut self.columns[self.at as usize]
    }

    /// The column of child `index` of column `parent`: the next one of the
    /// payload on first use.
    #[inline]
    fn child(&mut self, parent: u32, index: u64) -> Result<u32, Error> {
        if index >= MAX_CHILDREN {
            return error("a variant or field index out of range");
        }
        let index = index as usize;
        let known = self.columns[parent as usize].children.get(index).copied();
        if let Some(column) = known.filter(|&c| c != ABSENT) {
            return Ok(column);
        }
        let column = self.met as u32;
        self.met += 1;
        if self.columns.len() < self.met {
            self.columns.push(ColumnIn::empty());
        }
        let children = &mut self.columns[parent as usize].children;
        if children.len() <= index {
            children.resize(index + 1, ABSENT);
        }
        children[index] = column;
        Ok(column)
    }

    #[inline]
    fn int(&mut self) -> Result<u64, Error> {
        let column = self.column();
        let delta = unzigzag(read_varint(&mut column.ints)?);
        column.previous = column.previous.wrapping_add(delta as u64);
        Ok(column.previous)
    }

    fn length(&mut self) -> Result<usize, Error> {
        let len = self.int()?;
        usize::try_from(len).or_else(|_| error("a length out of range"))
    }

    fn raw(&mut self) -> Result<&'de [u8], Error> {
        let len = self.int()?;
        take(&mut self.column().ints, len)
    }

    #[inline]
    fn real32(&mut self) -> Result<f32, Error> {
        let c = &mut self.columns[self.at as usize];
        if c.next32 == c.end32 {
            return error("a column of reals ends early");
        }
        c.next32 += 1;
        Ok(f32::from_bits(self.reals32[c.next32 - 1]))
    }

    #[inline]
    fn real64(&mut self) -> Result<f64, Error> {
        let c = &mut self.columns[self.at as usize];
        if c.next64 == c.end64 {
            return error("a column of reals ends early");
        }
        c.next64 += 1;
        Ok(f64::from_bits(self.reals64[c.next64 - 1]))
    }

    fn signed(&mut self) -> Result<i64, Error> {
        Ok(self.int()? as i64)
    }

    /// Reads child `index` of the current column with `seed`.
    #[inline]
    fn nested<T: DeserializeSeed<'de>>(&mut self, index: u64, seed: T) -> Result<T::Value, Error> {
        let at = self.at;
        self.at = self.child(at, index)?;
        let result = seed.deserialize(&mut *self);
        self.at = at;
        result
    }
}

/// Narrows a decoded integer to the type asked for.
fn narrow<T: TryFrom<V>, V: Copy + fmt::Display>(value: V) -> Result<T, Error> {
    T::try_from(value).map_err(|_| Error(format!("{value} is out of range").into()))
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
        error("the snapshot layout is not self-describing")
    }
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.int()? {
            0 => visitor.visit_bool(false),
            1 => visitor.visit_bool(true),
            _ => error("a flag other than 0 or 1"),
        }
    }
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_i8(narrow(self.signed()?)?)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_i16(narrow(self.signed()?)?)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_i32(narrow(self.signed()?)?)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_i64(self.signed()?)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u8(narrow(self.int()?)?)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u16(narrow(self.int()?)?)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u32(narrow(self.int()?)?)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(self.int()?)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f32(self.real32()?)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f64(self.real64()?)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let code: u32 = narrow(self.int()?)?;
        match char::from_u32(code) {
            Some(c) => visitor.visit_char(c),
            None => error("not a character"),
        }
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match std::str::from_utf8(self.raw()?) {
            Ok(s) => visitor.visit_borrowed_str(s),
            Err(_) => error("a string that is not UTF-8"),
        }
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_bytes(self.raw()?)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.int()? {
            0 => visitor.visit_none(),
            1 => self.nested(0, OptionSeed(visitor)),
            _ => error("an option tag other than 0 or 1"),
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let remaining = self.length()?;
        let parent = self.at;
        visitor.visit_seq(Elements { reader: self, parent, next: 0, step: 0, remaining })
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        let parent = self.at;
        visitor.visit_seq(Elements { reader: self, parent, next: 0, step: 1, remaining: len })
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_tuple(len, visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let remaining = self.length()?;
        let parent = self.at;
        visitor.visit_map(Entries { reader: self, parent, remaining })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_tuple(fields.len(), visitor)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(self)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u32(visitor)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
        error("the snapshot layout cannot skip values")
    }
}

/// An option's value, read by its visitor.
struct OptionSeed<V>(V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for OptionSeed<V> {
    type Value = V::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(deserializer)
    }
}

/// The elements of a sequence (all in child 0: `step` 0) or of a tuple or
/// struct (child `i` for element `i`: `step` 1).
struct Elements<'a, 'de> {
    reader: &'a mut Reader<'de>,
    parent: u32,
    next: u64,
    step: u64,
    remaining: usize,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        let index = self.next;
        self.next += self.step;
        self.reader.at = self.parent;
        self.reader.nested(index, seed).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

/// The entries of a map: keys in child 0, values in child 1.
struct Entries<'a, 'de> {
    reader: &'a mut Reader<'de>,
    parent: u32,
    remaining: usize,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        self.reader.at = self.parent;
        self.reader.nested(0, seed).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        self.reader.at = self.parent;
        self.reader.nested(1, seed)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

impl<'de, 'a> de::EnumAccess<'de> for &'a mut Reader<'de> {
    type Error = Error;
    type Variant = VariantIn<'a, 'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant), Error> {
        let index: u32 = narrow(self.int()?)?;
        let value = seed.deserialize(IntoDeserializer::<Error>::into_deserializer(index))?;
        Ok((value, VariantIn { reader: self, index: u64::from(index) }))
    }
}

/// An enum's variant: its contents hang under child `index` of the column
/// that holds the variant's index.
pub(crate) struct VariantIn<'a, 'de> {
    reader: &'a mut Reader<'de>,
    index: u64,
}

impl<'de> VariantIn<'_, 'de> {
    /// Reads the variant's fields or elements, `len` of them, with `visitor`.
    fn fields<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        let at = self.reader.at;
        let parent = self.reader.child(at, self.index)?;
        let result = visitor.visit_seq(Elements {
            reader: &mut *self.reader,
            parent,
            next: 0,
            step: 1,
            remaining: len,
        });
        self.reader.at = at;
        result
    }
}

impl<'de> de::VariantAccess<'de> for VariantIn<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        self.reader.nested(self.index, seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        self.fields(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.fields(fields.len(), visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::column_writer::to_bytes;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    enum Part {
        Wheel(f32),
        Plate { width: f64, height: f64 },
        Pin,
        Pair(u8, i64),
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Machine {
        id: u32,
        name: String,
        offsets: Vec<i16>,
        parts: Vec<Part>,
        spare: Option<Part>,
        flags: [bool; 3],
        labels: BTreeMap<u16, char>,
        unit: (),
    }

    fn machines() -> Vec<Machine> {
        (0..20)
            .map(|i| Machine {
                id: 1000 - i,
                name: format!("m{i}"),
                offsets: vec![-3, 0, i as i16],
                parts: vec![
                    Part::Wheel(0.5 * i as f32),
                    Part::Plate { width: -1.25, height: f64::from(i) },
                    Part::Pin,
                    Part::Pair(i as u8, -(i as i64) << 40),
                ],
                spare: (i % 3 == 0).then_some(Part::Wheel(f32::NAN)),
                flags: [i % 2 == 0, true, false],
                labels: [(i as u16, 'x'), (7, 'é')].into_iter().collect(),
                unit: (),
            })
            .collect()
    }

    /// Every kind of serde value goes through and comes back bit for bit
    /// (a NaN's payload included).
    #[test]
    fn values_of_every_kind_come_back() {
        let written = machines();
        let bytes = to_bytes(&written).unwrap();
        let read: Vec<Machine> = from_bytes(&bytes).unwrap();
        assert_eq!(format!("{read:?}"), format!("{written:?}"));
        let spare = |m: &[Machine]| match m[0].spare {
            Some(Part::Wheel(w)) => w.to_bits(),
            _ => 0,
        };
        assert_eq!(spare(&read), spare(&written));
    }

    /// Damaged bytes (any byte changed, any length cut) are refused or read
    /// as some value, never a panic; columns left unread are refused.
    #[test]
    fn damaged_bytes_never_panic() {
        let bytes = to_bytes(&machines()).unwrap();
        for i in 0..bytes.len() {
            for bits in [0x01, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[i] ^= bits;
                let _ = from_bytes::<Vec<Machine>>(&damaged);
            }
            assert!(from_bytes::<Vec<Machine>>(&bytes[..i]).is_err());
        }
        assert!(from_bytes::<Vec<Part>>(&bytes).is_err(), "another type leaves columns unread");
    }
}
