//! The classic judge problem: the distance between two convex polygons.
//!
//! Input on stdin, any number of cases: a line `N M`, then N lines `x y` for the
//! first convex polygon and M lines `x y` for the second (either winding, or in
//! any order), until a line `0 0`. Output: one line per case, the distance with
//! five decimals (`0.00000` when the polygons touch or overlap).
//!
//! `cargo run --release --features f64 --example polygon_distance < examples/polygon_distance_cases.txt`
//! (add `-- --timings` for the time spent reading, building polygons and querying).
//!
//! Each polygon goes through `Shape::polygon` (an outline in order is taken in
//! O(n), anything else through the convex hull) and the pair through Lamina's GJK,
//! whose support queries on large polygons are binary searches. The whole input
//! is read at once and parsed in place, without an allocation per line. Bad input
//! stops the run with a message naming the case and the line, after the answers to
//! the cases before it.

use lamina2d::prelude::*;
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Where the time goes, for `--timings`.
#[derive(Default)]
struct Timings {
    parse: Duration,
    build: Duration,
    query: Duration,
    cases: usize,
}

fn main() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = io::stdin().lock().read_to_end(&mut input) {
        eprintln!("polygon_distance: cannot read standard input: {e}");
        return ExitCode::FAILURE;
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut timings = Timings::default();
    let result = solve_all(&input, &mut out, &mut timings);
    let _ = out.flush();
    if std::env::args().any(|a| a == "--timings") {
        eprintln!(
            "{} cases: parsing {:.3} s, building polygons {:.3} s, distance queries {:.3} s",
            timings.cases,
            timings.parse.as_secs_f64(),
            timings.build.as_secs_f64(),
            timings.query.as_secs_f64()
        );
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("polygon_distance: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Answers every case, writing each answer as soon as it is known.
fn solve_all(input: &[u8], out: &mut impl Write, timings: &mut Timings) -> Result<(), String> {
    let mut lines = Lines::new(input);
    let mut points = Vec::new();
    for case in 1.. {
        let Some((line_no, header)) = lines.next_nonblank() else {
            return Err("the input ends without the closing `0 0` line".into());
        };
        let [n, m] = parse_counts(header).map_err(|e| format!("case {case}, line {line_no}: {e}"))?;
        if n == 0 && m == 0 {
            return Ok(());
        }
        let first = read_polygon(&mut lines, &mut points, n, case, "first", timings)?;
        let second = read_polygon(&mut lines, &mut points, m, case, "second", timings)?;
        let start = Instant::now();
        let d = lamina2d::query::distance(&first, &Isometry::identity(), &second, &Isometry::identity());
        timings.query += start.elapsed();
        timings.cases += 1;
        // `max` and `+ 0.0` turn a -0.0 into 0.0, which prints without a sign.
        writeln!(out, "{:.5}", d.distance.max(0.0) + 0.0)
            .map_err(|e| format!("cannot write the answer: {e}"))?;
    }
    unreachable!("the case loop only ends by returning")
}

/// Reads `count` point lines and builds the convex polygon, checking that the
/// points are in convex position.
fn read_polygon(
    lines: &mut Lines,
    points: &mut Vec<Point>,
    count: usize,
    case: usize,
    which: &str,
    timings: &mut Timings,
) -> Result<Shape, String> {
    let start = Instant::now();
    points.clear();
    let mut first_line = 0;
    for k in 0..count {
        let Some((line_no, text)) = lines.next_nonblank() else {
            return Err(format!(
                "case {case}: the input ends after {k} of the {count} points of the {which} polygon"
            ));
        };
        if k == 0 {
            first_line = line_no;
        }
        let [x, y] = parse_point(text).map_err(|e| format!("case {case}, line {line_no}: {e}"))?;
        points.push(Point::new(x, y));
    }
    let parsed = Instant::now();
    timings.parse += parsed - start;
    let shape = Shape::polygon(points)
        .map_err(|e| format!("case {case}, the {which} polygon (lines {first_line}..): {e}"))?;
    if let Some(k) = first_point_inside(&shape, points) {
        return Err(format!(
            "case {case}, line {}: the point ({}, {}) lies inside the {which} polygon: the points are not convex",
            first_line + k,
            points[k].x,
            points[k].y
        ));
    }
    timings.build += parsed.elapsed();
    Ok(shape)
}

/// The first input point strictly inside the polygon's hull (farther inside than
/// round-off), if any: such a point cannot be a corner of a convex polygon.
fn first_point_inside(shape: &Shape, points: &[Point]) -> Option<usize> {
    let Shape::Polygon(poly) = shape else { return None };
    if poly.vertices().len() == points.len() {
        return None; // every point is a corner
    }
    let scale = points.iter().fold(1.0 as Real, |s, p| s.max(p.x.abs()).max(p.y.abs()));
    let tolerance = 1e-9 * scale;
    points.iter().position(|p| {
        let proj = shape.project_point(&Isometry::identity(), p);
        proj.is_inside && (proj.point - p).norm() > tolerance
    })
}

fn parse_counts(line: &[u8]) -> Result<[usize; 2], String> {
    let [a, b] = two_fields(line, "the counts `N M`")?;
    let count = |f: &[u8]| {
        let text = String::from_utf8_lossy(f);
        text.parse::<usize>().map_err(|_| format!("`{text}` is not a point count"))
    };
    let (n, m) = (count(a)?, count(b)?);
    if (n, m) != (0, 0) && (n < 3 || m < 3) {
        return Err(format!("each polygon needs at least 3 points, got N = {n}, M = {m}"));
    }
    Ok([n, m])
}

fn parse_point(line: &[u8]) -> Result<[Real; 2], String> {
    let [a, b] = two_fields(line, "a point `x y`")?;
    let coord = |f: &[u8]| match parse_real(f) {
        Some(v) if v.is_finite() => Ok(v),
        _ => Err(format!("`{}` is not a finite coordinate", String::from_utf8_lossy(f))),
    };
    Ok([coord(a)?, coord(b)?])
}

/// A decimal number. Plain decimals of up to 15 significant digits, the usual
/// case, are parsed here exactly: the digits form an integer below 2^53 and one
/// division by an exact power of ten rounds correctly. Anything else goes
/// through the standard library's parser.
fn parse_real(field: &[u8]) -> Option<Real> {
    const POW10: [f64; 16] =
        [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    let (negative, digits) = match field.first() {
        Some(b'-') => (true, &field[1..]),
        Some(b'+') => (false, &field[1..]),
        _ => (false, field),
    };
    let mut mantissa: u64 = 0;
    let (mut count, mut fraction, mut seen_point) = (0usize, 0usize, false);
    for &c in digits {
        match c {
            b'0'..=b'9' if count < 15 => {
                mantissa = mantissa * 10 + u64::from(c - b'0');
                count += usize::from(mantissa != 0);
                fraction += usize::from(seen_point);
            }
            b'.' if !seen_point => seen_point = true,
            _ => return std::str::from_utf8(field).ok()?.parse::<Real>().ok(),
        }
    }
    if digits.is_empty() || digits == b"." || fraction >= POW10.len() {
        return std::str::from_utf8(field).ok()?.parse::<Real>().ok();
    }
    let value = (mantissa as f64 / POW10[fraction]) as Real;
    Some(if negative { -value } else { value })
}

/// Exactly two fields separated by spaces or tabs.
fn two_fields<'a>(line: &'a [u8], what: &str) -> Result<[&'a [u8]; 2], String> {
    let mut fields = line.split(|c| matches!(c, b' ' | b'\t' | b'\r')).filter(|f| !f.is_empty());
    match (fields.next(), fields.next(), fields.next()) {
        (Some(a), Some(b), None) => Ok([a, b]),
        (_, _, Some(_)) => Err(format!(
            "expected {what}, found more than two fields: `{}`",
            String::from_utf8_lossy(line).trim()
        )),
        _ => Err(format!("expected {what}, found `{}`", String::from_utf8_lossy(line).trim())),
    }
}

/// Lines of the input with their 1-based numbers, borrowed from the buffer.
struct Lines<'a> {
    rest: &'a [u8],
    number: usize,
}

impl<'a> Lines<'a> {
    fn new(input: &'a [u8]) -> Self {
        Self { rest: input, number: 0 }
    }

    /// The next line with something on it.
    fn next_nonblank(&mut self) -> Option<(usize, &'a [u8])> {
        while !self.rest.is_empty() {
            let end = self.rest.iter().position(|&c| c == b'\n').unwrap_or(self.rest.len());
            let (line, rest) = self.rest.split_at(end);
            self.rest = rest.get(1..).unwrap_or(&[]);
            self.number += 1;
            if line.iter().any(|c| !c.is_ascii_whitespace()) {
                return Some((self.number, line));
            }
        }
        None
    }
}
