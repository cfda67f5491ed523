//! The columnar layout's writer (see `columns.rs`): a serde serializer that
//! sends every value to its column, and the columns written one after another.

use serde::ser::{self, Serialize};

use super::columns::{ABSENT, Error, error};
use super::packing::{write_planes, write_varint, zigzag};

/// One column as it is written.
#[derive(Default)]
struct ColumnOut {
    children: Vec<u32>,
    /// Varints and the bytes of strings.
    ints: Vec<u8>,
    /// The last integer written, which the next is written against.
    previous: u64,
    reals32: Vec<u32>,
    reals64: Vec<u64>,
}

/// The serializer: the columns so far and the one being written to.
pub(crate) struct Writer {
    columns: Vec<ColumnOut>,
    at: u32,
}

/// `value` in the columnar layout.
pub(crate) fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut writer = Writer { columns: vec![ColumnOut::default()], at: 0 };
    value.serialize(&mut writer)?;
    Ok(writer.finish())
}

impl Writer {
    /// The column of child `index` of column `parent`, made on first use.
    #[inline]
    fn child(&mut self, parent: u32, index: u32) -> u32 {
        let known = self.columns[parent as usize].children.get(index as usize).copied();
        if let Some(column) = known.filter(|&c| c != ABSENT) {
            return column;
        }
        let column = self.columns.len() as u32;
        self.columns.push(ColumnOut::default());
        let children = &mut self.columns[parent as usize].children;
        if children.len() <= index as usize {
            children.resize(index as usize + 1, ABSENT);
        }
        children[index as usize] = column;
        column
    }

    /// Writes `value` to the current column, as its difference from the last.
    #[inline]
    fn int(&mut self, value: u64) {
        let column = &mut self.columns[self.at as usize];
        let delta = value.wrapping_sub(column.previous) as i64;
        column.previous = value;
        write_varint(&mut column.ints, zigzag(delta));
    }

    /// Writes `bytes` to the current column as they are, after their length.
    fn raw(&mut self, bytes: &[u8]) {
        self.int(bytes.len() as u64);
        self.columns[self.at as usize].ints.extend_from_slice(bytes);
    }

    /// Writes `value` to child `index` of the current column.
    #[inline]
    fn nested<T: Serialize + ?Sized>(&mut self, index: u32, value: &T) -> Result<(), Error> {
        let at = self.at;
        self.at = self.child(at, index);
        let result = value.serialize(&mut *self);
        self.at = at;
        result
    }

    /// The payload: the number of columns, each one's lengths, then each
    /// one's integers and its reals in byte planes.
    fn finish(self) -> Vec<u8> {
        let mut out = Vec::new();
        write_varint(&mut out, self.columns.len() as u64);
        for c in &self.columns {
            write_varint(&mut out, c.ints.len() as u64);
            write_varint(&mut out, c.reals32.len() as u64);
            write_varint(&mut out, c.reals64.len() as u64);
        }
        for c in &self.columns {
            out.extend_from_slice(&c.ints);
            write_planes(&mut out, &c.reals32, u32::to_le_bytes);
            write_planes(&mut out, &c.reals64, u64::to_le_bytes);
        }
        out
    }
}

/// A struct, tuple, sequence or map being written: its elements go to the
/// children of `parent`, and the current column returns to `parent` after.
pub(crate) struct Compound<'a> {
    writer: &'a mut Writer,
    /// Where the elements' columns hang.
    parent: u32,
    /// The current column when the compound began.
    restore: u32,
    /// The position of the next field or tuple element.
    next: u32,
}

impl Compound<'_> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, index: u32, value: &T) -> Result<(), Error> {
        self.writer.at = self.writer.child(self.parent, index);
        value.serialize(&mut *self.writer)
    }

    #[inline]
    fn positional<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let index = self.next;
        self.next += 1;
        self.element(index, value)
    }

    fn done(self) -> Result<(), Error> {
        self.writer.at = self.restore;
        Ok(())
    }
}

impl<'a> Writer {
    fn compound(&'a mut self, parent: u32) -> Compound<'a> {
        let restore = self.at;
        Compound { writer: self, parent, restore, next: 0 }
    }

    /// A compound whose elements hang under variant `index` of the current column.
    fn variant(&'a mut self, index: u32) -> Compound<'a> {
        self.int(u64::from(index));
        let parent = self.child(self.at, index);
        self.compound(parent)
    }
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.int(u64::from(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.int(v as u64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.int(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.columns[self.at as usize].reals32.push(v.to_bits());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.columns[self.at as usize].reals64.push(v.to_bits());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.raw(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.raw(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.int(0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.int(1);
        self.nested(0, value)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Result<(), Error> {
        self.int(u64::from(index));
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.int(u64::from(index));
        self.nested(index, value)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        let Some(len) = len else { return error("a sequence of unknown length") };
        self.int(len as u64);
        let at = self.at;
        Ok(self.compound(at))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a>, Error> {
        let at = self.at;
        Ok(self.compound(at))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>, Error> {
        let at = self.at;
        Ok(self.compound(at))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        Ok(self.variant(index))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        let Some(len) = len else { return error("a map of unknown length") };
        self.int(len as u64);
        let at = self.at;
        Ok(self.compound(at))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>, Error> {
        let at = self.at;
        Ok(self.compound(at))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        Ok(self.variant(index))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(0, value)
    }
    fn end(self) -> Result<(), Error> {
        self.done()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.positional(value)
    }
    fn end(self) -> Result<(), Error> {
        self.done()
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.positional(value)
    }
    fn end(self) -> Result<(), Error> {
        self.done()
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.positional(value)
    }
    fn end(self) -> Result<(), Error> {
        self.done()
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.element(0, key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(1, value)
    }
    fn end(self) -> Result<(), Error> {
        self.done()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _key: &'static str, value: &T) -> Result<(), Error> {
        self.positional(value)
    }
    fn skip_field(&mut self, _key: &'static str) -> Result<(), Error> {
        self.next += 1;
        Ok(())
    }
    fn end(self) -> Result<(), Error> {
        self.done()
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _key: &'static str, value: &T) -> Result<(), Error> {
        self.positional(value)
    }
    fn skip_field(&mut self, _key: &'static str) -> Result<(), Error> {
        self.next += 1;
        Ok(())
    }
    fn end(self) -> Result<(), Error> {
        self.done()
    }
}
