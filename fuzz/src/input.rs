//! Turns the fuzzer's bytes into the values the targets feed the engine.
//!
//! Plain uniform bits would almost never make a scene worth stepping (a random
//! `f32` is usually enormous, tiny or not a number), so numbers are drawn
//! mostly from the ranges the engine is tuned for, and now and then from the
//! values that break code: zeros of both signs, NaN, the infinities, the
//! largest and smallest numbers, and raw bit patterns.

use arbitrary::{Result, Unstructured};
use lamina2d::prelude::*;

/// Values that find edge cases: signed zeros, non-finite values, extremes.
const SPECIAL: [Real; 14] = [
    0.0,
    -0.0,
    Real::NAN,
    Real::INFINITY,
    Real::NEG_INFINITY,
    Real::MAX,
    Real::MIN,
    Real::MIN_POSITIVE,
    Real::EPSILON,
    1.0e30,
    -1.0e30,
    1.0e-30,
    1.0e9,
    -1.0e9,
];

/// The fuzzer's bytes, read as the targets need them. Once the bytes run
/// out, every read gives its smallest value, so any input ends cleanly.
pub struct Input<'a>(pub Unstructured<'a>);

impl<'a> Input<'a> {
    /// Reads `data` from its start.
    pub fn new(data: &'a [u8]) -> Self {
        Input(Unstructured::new(data))
    }

    /// True once every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A whole number in `lo..=hi`.
    pub fn int(&mut self, lo: u32, hi: u32) -> Result<u32> {
        self.0.int_in_range(lo..=hi)
    }

    /// One in `n` times (roughly) true.
    pub fn one_in(&mut self, n: u32) -> Result<bool> {
        Ok(self.int(1, n)? == 1)
    }

    /// A flag.
    pub fn flag(&mut self) -> Result<bool> {
        self.0.arbitrary()
    }

    /// Raw bits.
    pub fn bits(&mut self) -> Result<u32> {
        self.0.arbitrary()
    }

    /// Any number: a coordinate of ±20 m in centimetres most of the time,
    /// otherwise a fraction, a special value or raw bits.
    pub fn real(&mut self) -> Result<Real> {
        Ok(match self.int(0, 15)? {
            0..=9 => self.int(0, 4000)? as Real / 100.0 - 20.0,
            10 | 11 => self.int(0, 1000)? as Real / 1000.0,
            12 => SPECIAL[self.int(0, SPECIAL.len() as u32 - 1)? as usize],
            13 => Real::from_bits(self.0.arbitrary()?),
            _ => self.int(0, 200)? as Real / 10.0 - 10.0,
        })
    }

    /// A size: 5 cm to 4 m most of the time, any number otherwise.
    pub fn size(&mut self) -> Result<Real> {
        if self.one_in(12)? { self.real() } else { Ok(self.int(5, 400)? as Real / 100.0) }
    }

    /// A coefficient or ratio: 0 to 1 most of the time, any number otherwise.
    pub fn unit_interval(&mut self) -> Result<Real> {
        if self.one_in(12)? { self.real() } else { Ok(self.int(0, 100)? as Real / 100.0) }
    }

    /// A point of [`Input::real`] coordinates.
    pub fn point(&mut self) -> Result<Point> {
        Ok(Point::new(self.real()?, self.real()?))
    }

    /// A vector of [`Input::real`] coordinates.
    pub fn vector(&mut self) -> Result<Vec2> {
        Ok(Vec2::new(self.real()?, self.real()?))
    }

    /// A pose: a rotation made from an angle most of the time, now and then
    /// one whose complex number is not of unit length (which the world refuses).
    pub fn pose(&mut self) -> Result<Isometry> {
        let translation = self.vector()?;
        if self.one_in(16)? {
            let rotation = Rotation::from_cos_sin_unchecked(self.real()?, self.real()?);
            return Ok(Isometry::from_parts(translation.into(), rotation));
        }
        Ok(Isometry::new(translation, self.real()?))
    }

    /// A shape of any kind, its sizes from [`Input::size`]; polygons from up
    /// to ten points, which may fail to span an area (then a circle).
    pub fn shape(&mut self) -> Result<Shape> {
        Ok(match self.int(0, 8)? {
            0 => Shape::circle(self.size()?),
            1 | 2 => Shape::rectangle(self.size()?, self.size()?),
            3 => Shape::rounded_rectangle(self.size()?, self.size()?, self.size()? * 0.1),
            4 => Shape::capsule(self.small_point()?, self.small_point()?, self.size()?),
            5 => Shape::segment(self.small_point()?, self.small_point()?),
            6 => Shape::ellipse(self.size()?, self.size()?),
            _ => {
                let count = self.int(1, 10)?;
                let points: Vec<Point> = (0..count).map(|_| self.small_point()).collect::<Result<_>>()?;
                let radius = if self.one_in(4)? { self.size()? * 0.1 } else { 0.0 };
                Shape::rounded_polygon(&points, radius).unwrap_or_else(|_| Shape::circle(0.5))
            }
        })
    }

    /// A point within a few metres of the origin most of the time.
    pub fn small_point(&mut self) -> Result<Point> {
        if self.one_in(16)? {
            return self.point();
        }
        let mut coordinate = || -> Result<Real> { Ok(self.int(0, 600)? as Real / 100.0 - 3.0) };
        Ok(Point::new(coordinate()?, coordinate()?))
    }

    /// An index into a list of `len` items (0 for an empty list).
    pub fn index(&mut self, len: usize) -> Result<usize> {
        if len == 0 { Ok(0) } else { Ok(self.int(0, len as u32 - 1)? as usize) }
    }
}
