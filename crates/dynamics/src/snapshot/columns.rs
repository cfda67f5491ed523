//! The columnar layout of snapshot payloads: a serde data format that sends
//! every value to a column of its own, named by its place in the structure
//! (every body's pose's `x`, every contact point's normal impulse), and then
//! writes the columns one after another.
//!
//! A world's state is mostly long runs of records of one type, and the values
//! of one field are alike from record to record: slot versions are all 1,
//! friction is 0.6 in every contact of a pyramid, the corners of a box are
//! ±0.5, a unit rotation's cosine is within a hair of 1. Written record after
//! record (as postcard does) they are interleaved with everything else; put
//! side by side, a general-purpose compressor finds them. Two more transforms
//! help it further, both lossless:
//!
//! - **Integers** (lengths, keys, tags, flags) are written as the zigzag
//!   LEB128 varint of their difference from the previous value of the same
//!   column: a run of equal or increasing keys becomes a run of small bytes.
//! - **Reals** are split into byte planes: the first byte of every value of
//!   the column, then the second, and so on. Signs and exponents (the high
//!   bytes) repeat; the noise of the low mantissa bytes stays out of their way.
//!
//! A column is a node of a tree: a struct's fields, a tuple's elements and an
//! enum's variants are its children by position, an option's value and a
//! sequence's elements its first child, a map's keys and values its first and
//! second. Columns are numbered in the order they are first written, which a
//! reader following the same types meets in the same order, so that the
//! payload needs no names: only the number of columns and each one's lengths.
//!
//! The format is not self-describing (like postcard): the reader must ask for
//! the types that were written. Any mismatch, a column read past its end, or a
//! column not read to its end is an [`Error`], never a panic.
//!
//! `column_writer.rs` writes the layout (`to_bytes`), `column_reader.rs`
//! reads it back (`from_bytes`); this file holds what both share.

use std::fmt;

use serde::{de, ser};

use super::packing;

/// An unassigned entry of a column's list of children.
pub(crate) const ABSENT: u32 = u32::MAX;

/// The most children of one column: fields, tuple elements or enum variants.
/// A bound on what a damaged payload can make the reader allocate.
pub(crate) const MAX_CHILDREN: u64 = 256;

/// Why a value could not be written to, or read from, the columnar layout.
/// Boxed, so that the results of the hot calls fit in registers.
#[derive(Debug)]
pub(crate) struct Error(pub(crate) Box<str>);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string().into())
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string().into())
    }
}

#[cold]
pub(crate) fn error<T>(what: &str) -> Result<T, Error> {
    Err(Error(what.into()))
}

/// Reads an LEB128 varint from the front of `bytes`, advancing it.
#[inline]
pub(crate) fn read_varint(bytes: &mut &[u8]) -> Result<u64, Error> {
    packing::read_varint(bytes).map_err(|why| Error(why.into()))
}
