//! Runs `examples/polygon_distance` as a process on generated inputs and checks
//! every answer against a brute force written here: the minimum over all
//! vertex–edge pairs, zero when a vertex of one polygon is inside the other.
//! The example needs f64, so this test runs in the f64 build only.
#![cfg(feature = "f64")]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The example binary, which `cargo test` builds next to the test binaries; when
/// only this test was asked for, it is built here.
fn example_binary() -> PathBuf {
    static BUILD: std::sync::Once = std::sync::Once::new();
    let mut dir = std::env::current_exe().expect("test binary path");
    dir.pop(); // the test binary
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir.join("examples").join(format!("polygon_distance{}", std::env::consts::EXE_SUFFIX));
    BUILD.call_once(|| {
        if !path.exists() {
            let status = Command::new(env!("CARGO"))
                .args(["build", "--example", "polygon_distance", "--features", "f64"])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building the polygon_distance example failed");
        }
    });
    path
}

fn run(input: &str) -> Output {
    let mut child = Command::new(example_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the polygon_distance example is built by cargo test --features f64");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// A convex polygon: `n` points on an ellipse at sorted random angles (counter-clockwise).
fn convex_polygon(rng: &mut Rng, n: usize, cx: f64, cy: f64, rx: f64, ry: f64) -> Vec<(f64, f64)> {
    let mut angles: Vec<f64> = (0..n).map(|_| rng.next() * std::f64::consts::TAU).collect();
    angles.sort_by(f64::total_cmp);
    angles.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    let rot = rng.next() * 6.0;
    angles
        .iter()
        .map(|&t| {
            let (x, y) = (rx * t.cos(), ry * t.sin());
            (cx + x * rot.cos() - y * rot.sin(), cy + x * rot.sin() + y * rot.cos())
        })
        .collect()
}

fn seg_dist(a: (f64, f64), b: (f64, f64), q: (f64, f64)) -> f64 {
    let (ex, ey) = (b.0 - a.0, b.1 - a.1);
    let ee = ex * ex + ey * ey;
    let t = if ee == 0.0 { 0.0 } else { (((q.0 - a.0) * ex + (q.1 - a.1) * ey) / ee).clamp(0.0, 1.0) };
    ((q.0 - a.0 - ex * t).powi(2) + (q.1 - a.1 - ey * t).powi(2)).sqrt()
}

fn inside(poly: &[(f64, f64)], q: (f64, f64)) -> bool {
    let n = poly.len();
    (0..n).all(|i| {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        (b.0 - a.0) * (q.1 - a.1) - (b.1 - a.1) * (q.0 - a.0) >= 0.0
    })
}

fn segments_cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let o =
        |p: (f64, f64), q: (f64, f64), r: (f64, f64)| (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0);
    o(a, b, c) * o(a, b, d) <= 0.0 && o(c, d, a) * o(c, d, b) <= 0.0
}

/// Brute force over every pair of edges (the polygons are counter-clockwise).
fn brute_distance(p: &[(f64, f64)], q: &[(f64, f64)]) -> f64 {
    if p.iter().any(|&v| inside(q, v)) || q.iter().any(|&v| inside(p, v)) {
        return 0.0;
    }
    let mut best = f64::MAX;
    for i in 0..p.len() {
        let (a, b) = (p[i], p[(i + 1) % p.len()]);
        for j in 0..q.len() {
            let (c, d) = (q[j], q[(j + 1) % q.len()]);
            if segments_cross(a, b, c, d) {
                return 0.0;
            }
            best = best
                .min(seg_dist(a, b, c))
                .min(seg_dist(a, b, d))
                .min(seg_dist(c, d, a))
                .min(seg_dist(c, d, b));
        }
    }
    best
}

/// Writes a polygon in counter-clockwise, clockwise or shuffled order.
fn write_points(text: &mut String, poly: &[(f64, f64)], order: usize, rng: &mut Rng) {
    let mut pts = poly.to_vec();
    match order % 3 {
        0 => {}
        1 => pts.reverse(),
        _ => {
            for i in (1..pts.len()).rev() {
                let j = (rng.next() * (i + 1) as f64) as usize;
                pts.swap(i, j.min(i));
            }
        }
    }
    for (x, y) in pts {
        text.push_str(&format!("{x} {y}\n"));
    }
}

fn parse_answers(out: &Output) -> Vec<f64> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().parse().expect("a number per line"))
        .collect()
}

#[test]
fn worked_example_unit_squares() {
    let out = run("4 4\n0 0\n0 1\n1 1\n1 0\n2 0\n2 1\n3 1\n3 0\n0 0\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1.00000\n");
}

/// The cases file the README's command reads, with its answers worked by
/// hand: unit squares 2 apart; a triangle over a square's corner; a
/// triangle's hypotenuse x + y = 1 and the square corner (2, 2), at
/// (2 + 2 − 1)/√2 = 3/√2; squares sharing an edge; a square listed out of
/// order and a triangle's vertex (3, 1), 1 from the edge x = 2; corners (1, 1)
/// and (4, 5), a 3-4-5 triangle apart.
#[test]
fn the_committed_cases_file_gives_the_answers_worked_by_hand() {
    let input = include_str!("../examples/polygon_distance_cases.txt");
    let out = run(input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let expected = format!("2.00000\n0.00000\n{:.5}\n0.00000\n1.00000\n5.00000\n", 3.0 / 2f64.sqrt());
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

#[test]
fn random_cases_match_brute_force() {
    let mut rng = Rng(7);
    let mut input = String::new();
    let mut expected = Vec::new();
    for case in 0..300 {
        let scale = if case % 10 == 9 { 5000.0 } else { 10.0 };
        let (n, m) = (3 + (rng.next() * 60.0) as usize, 3 + (rng.next() * 60.0) as usize);
        let (rx, ry) = (scale * rng.range(0.2, 1.0), scale * rng.range(0.2, 1.0));
        let p = convex_polygon(&mut rng, n, 0.0, 0.0, rx, ry);
        // Apart, overlapping, or one inside the other, depending on the offset.
        let (dx, dy) = match case % 4 {
            0 => (scale * rng.range(2.5, 4.0), scale * rng.range(-1.0, 1.0)),
            1 => (scale * rng.range(0.5, 1.5), scale * rng.range(-0.5, 0.5)),
            2 => (scale * rng.range(-0.05, 0.05), scale * rng.range(-0.05, 0.05)),
            _ => (scale * rng.range(-3.0, 3.0), scale * rng.range(-3.0, 3.0)),
        };
        let size = if case % 4 == 2 { 0.1 } else { 1.0 };
        let (rx, ry) = (size * scale * rng.range(0.2, 1.0), size * scale * rng.range(0.2, 1.0));
        let q = convex_polygon(&mut rng, m, dx, dy, rx, ry);
        input.push_str(&format!("{} {}\n", p.len(), q.len()));
        write_points(&mut input, &p, case, &mut rng);
        write_points(&mut input, &q, case / 3, &mut rng);
        expected.push(brute_distance(&p, &q));
    }
    input.push_str("0 0\n");
    let out = run(&input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = parse_answers(&out);
    assert_eq!(got.len(), expected.len());
    for (case, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert!((g - e).abs() <= 1e-3, "case {}: {g} vs brute force {e}", case + 1);
    }
}

#[test]
fn touching_and_huge_coordinates() {
    // Squares sharing an edge, squares sharing a corner, and 10,000-vertex
    // polygons with coordinates near ±10,000.
    let mut rng = Rng(11);
    let big_a = convex_polygon(&mut rng, 10_000, -5000.0, 0.0, 4000.0, 9000.0);
    let big_b = convex_polygon(&mut rng, 10_000, 5000.0, 500.0, 900.0, 4000.0);
    let mut input = String::from(
        "4 4\n0 0\n1 0\n1 1\n0 1\n1 0\n2 0\n2 1\n1 1\n4 4\n0 0\n1 0\n1 1\n0 1\n1 1\n2 1\n2 2\n1 2\n",
    );
    input.push_str(&format!("{} {}\n", big_a.len(), big_b.len()));
    write_points(&mut input, &big_a, 1, &mut rng);
    write_points(&mut input, &big_b, 2, &mut rng);
    input.push_str("0 0\n");
    let out = run(&input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = parse_answers(&out);
    assert_eq!(&got[..2], &[0.0, 0.0]);
    let expected = brute_distance(&big_a, &big_b);
    assert!((got[2] - expected).abs() <= 1e-3, "{} vs brute force {expected}", got[2]);
}

/// Bad input stops the run with a message naming the case and line, after the
/// answers to the earlier cases, and a non-zero exit code.
#[test]
fn bad_input_is_reported_with_case_and_line() {
    let good = "3 3\n0 0\n1 0\n0 1\n5 5\n6 5\n5 6\n";
    let cases = [
        ("3 3\n0 0\n1\n", "case 2, line 10"),
        ("3 3\n0 0\n1 0\n0 one\n", "case 2, line 11"),
        (
            "3 4\n0 0\n1 0\n0 1\n0 0\n4 0\n0 4\n1 1\n0 0\n",
            "case 2, line 15: the point (1, 1) lies inside the second polygon",
        ),
        ("4 3\n0 0\n2 0\n0 2\n0.5 0.5\n5 5\n6 5\n5 6\n0 0\n", "not convex"),
        ("3 3\n0 0\n0 0\n1 1\n5 5\n6 5\n5 6\n0 0\n", "case 2"),
        ("3 3\n0 0\n1 0\n0 1\n5 5\n6 5\n5 6\n", "0 0"),
        ("2 3\n", "at least 3"),
    ];
    for (tail, needle) in cases {
        let out = run(&format!("{good}{tail}"));
        assert!(!out.status.success(), "accepted: {tail:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{tail:?}: message `{stderr}` lacks `{needle}`");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(
            String::from_utf8_lossy(&out.stdout).starts_with("6.36396\n"),
            "earlier answers must be printed"
        );
    }
}
