//! GJK: distance, closest points and overlap of two convex shapes.
//!
//! Two convex shapes A and B overlap exactly when their Minkowski difference
//! A − B = { a − b } contains the origin, and their distance is the distance from
//! the origin to A − B. GJK (Gilbert, Johnson and Keerthi, 1988) never builds
//! A − B: it asks the shapes for support points (`support_A(d) − support_B(−d)` is
//! the support of A − B along `d`) and walks a simplex of at most three of them
//! towards the origin. Each round keeps the simplex's feature closest to the
//! origin, searches from there towards the origin, and stops when the new support
//! point brings the distance bound down by less than a tolerance relative to the
//! shapes' size. Polygons stop exactly (the new point repeats an old one); smooth
//! shapes such as ellipses only creep towards the answer and stop on the tolerance
//! or the iteration cap, with the best answer found.
//!
//! Everything runs in A's local frame, with B placed by the relative transform
//! `xf` (B's frame to A's), so coordinates stay small however far from the world
//! origin the pair is.

use lamina_geometry::tolerance::{GJK_MAX_ITERATIONS, GJK_RELATIVE_TOLERANCE};
use lamina_geometry::{Isometry, Point, Real, SupportMap, Vec2};

use crate::simplex::{Simplex, SupportPoint};

/// The support point of A − B along `dir`, with A in its own frame and B placed by `xf`.
#[inline]
pub fn support<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf: &Isometry,
    dir: &Vec2,
) -> SupportPoint {
    let pa = a.support_point(dir);
    let pb = xf * b.support_point(&xf.rotation.inverse_transform_vector(&-dir));
    SupportPoint::new(pa, pb)
}

/// What GJK found.
#[derive(Clone, Copy, Debug)]
pub struct GjkOutput {
    /// True when the shapes overlap or touch (within round-off).
    pub overlapping: bool,
    /// The distance between the shapes; 0 when overlapping.
    pub distance: Real,
    /// Closest point on A (A's frame). Meaningful only when apart.
    pub point_a: Point,
    /// Closest point on B (A's frame). Meaningful only when apart.
    pub point_b: Point,
    /// The final simplex: where EPA starts when the shapes overlap.
    pub simplex: Simplex,
    /// How many support points were added.
    pub iterations: usize,
}

impl GjkOutput {
    /// Unit direction from A to B (A's frame), when the shapes are apart.
    pub fn normal(&self) -> Option<Vec2> {
        lamina_geometry::math::try_normalize(&(self.point_b - self.point_a))
    }
}

/// The separating direction of the last query, kept by callers that ask about
/// the same pair again (the next step, or the next iteration of a time-of-impact
/// search): GJK then starts next to the answer and needs a round or two.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GjkCache {
    /// The last closest point of A − B to the origin (A's frame), if any.
    pub direction: Option<Vec2>,
}

/// Distance and closest points of A and B (placed by `xf`). `guess` is any vector
/// roughly along `a − b` (for instance centre of A minus centre of B), or the cached
/// direction of an earlier query.
pub fn gjk_distance<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf: &Isometry,
    guess: &Vec2,
) -> GjkOutput {
    run(a, b, xf, guess, None).0
}

/// [`gjk_distance`] warm-started from `cache`, the direction of the previous
/// query on the same pair, which it then updates. A pair that moved a little
/// since (the next step, or the next round of a time-of-impact search) starts
/// next to its answer instead of along the line of centres, which for long thin
/// shapes points well away from it (in the tests, 500-vertex slivers need about
/// a third fewer support rounds).
pub fn gjk_distance_cached<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf: &Isometry,
    cache: &mut GjkCache,
) -> GjkOutput {
    let guess = cache.direction.unwrap_or_else(|| -(xf.translation.vector));
    let out = gjk_distance(a, b, xf, &guess);
    if !out.overlapping {
        // The closest point of A − B to the origin: the next query's guess.
        cache.direction = Some(out.point_a - out.point_b);
    }
    out
}

/// True when the distance between A and B is at most `margin`. Stops as soon as a
/// support point proves the shapes farther apart than `margin`.
pub fn gjk_within<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf: &Isometry,
    guess: &Vec2,
    margin: Real,
) -> bool {
    let (out, early_exit) = run(a, b, xf, guess, Some(margin));
    !early_exit && (out.overlapping || out.distance <= margin)
}

/// The GJK loop. With `exit_beyond = Some(m)`, returns early (second value true)
/// once the shapes are proven farther apart than `m`.
fn run<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf: &Isometry,
    guess: &Vec2,
    exit_beyond: Option<Real>,
) -> (GjkOutput, bool) {
    let start_dir = if guess.norm_squared() > 0.0 && guess.x.is_finite() && guess.y.is_finite() {
        -guess
    } else {
        Vec2::x()
    };
    let first = support(a, b, xf, &start_dir);
    let mut simplex = Simplex::new(first);
    let mut scale = first.w.norm();
    let mut iterations = 0;
    let mut early_exit = false;

    let overlapping = loop {
        let v = simplex.reduce();
        if simplex.len() == 3 {
            break true;
        }
        let vv = v.norm_squared();
        let v_len = vv.sqrt();
        let tolerance = GJK_RELATIVE_TOLERANCE * scale.max(Real::MIN_POSITIVE.sqrt());
        if v_len <= tolerance {
            break true; // the origin is on the simplex: touching or overlapping
        }
        if iterations == GJK_MAX_ITERATIONS {
            break false;
        }
        let w = support(a, b, xf, &-v);
        iterations += 1;
        scale = scale.max(w.w.norm());
        // v·w / |v| is a lower bound on the distance, |v| an upper bound.
        let vw = v.dot(&w.w);
        if let Some(margin) = exit_beyond
            && vw > margin * v_len
        {
            early_exit = true;
            break false;
        }
        if vv - vw <= GJK_RELATIVE_TOLERANCE * scale * v_len || simplex.contains(&w.w) {
            break false; // converged: no support point gets closer
        }
        simplex.push(w);
    };

    let (point_a, point_b) = simplex.witnesses();
    let distance = if overlapping { 0.0 } else { simplex.closest().norm() };
    (GjkOutput { overlapping, distance, point_a, point_b, simplex, iterations }, early_exit)
}
