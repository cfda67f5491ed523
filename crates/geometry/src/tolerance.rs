//! Every tolerance in Lamina, with its unit and the reason for its size.
//!
//! Lamina is tuned for moving objects between 0.1 m and 10 m. Length tolerances
//! are absolute (metres) where they describe contact behaviour, and relative to the
//! size of the shapes where they describe floating-point round-off, so that a
//! 10,000-vertex polygon at 10 km is treated as carefully as a unit box.

use crate::math::Real;

/// Collision and constraint tolerance, in metres: contacts may overlap by this
/// much without being pushed apart, which keeps resting contacts from jittering.
/// Half a centimetre is invisible at the sizes Lamina is tuned for.
pub const LINEAR_SLOP: Real = 0.005;

/// Distance, in metres, within which a pair of shapes already reports
/// (speculative) contact points, so that the solver can stop a fast approach
/// before the shapes overlap. Four slops, as in Box2D v3.
pub const SPECULATIVE_DISTANCE: Real = 4.0 * LINEAR_SLOP;

/// How much better, in metres, B's best separating edge must be than A's to
/// become the reference edge of a polygon contact, so that nearly equal axes do
/// not trade places from step to step (which would lose the warm start). Cores
/// farther apart than this also count as apart, and take their closest features.
/// A tenth of the slop, as in Box2D.
pub const REFERENCE_HYSTERESIS: Real = 0.1 * LINEAR_SLOP;

/// The most a body may turn in one substep, in radians: a quarter turn over π,
/// as in Box2D. The rotation is advanced by a first-order update, accurate only
/// for small angles, and a spin set beyond any physical speed (or a huge one that
/// would overflow) is held to this rate instead of corrupting the rotation.
pub const MAX_ROTATION_PER_SUBSTEP: Real = 0.25 * std::f64::consts::PI as Real;

/// How far, in metres, the points of a contact may slide across its normal
/// before the narrow phase computes the manifold again: up to this drift (and
/// [`MANIFOLD_REUSE_TURN`]) it carries the old manifold along with the bodies
/// instead, each point fixed on both bodies, the normal on the first, the
/// separations measured anew. A fifth of the slop: a feature the old manifold
/// did not see can come at most this much closer before the next full
/// computation, a twentieth of the speculative distance. Resting stacks and
/// pyramids, whose bodies drift by microns, skip almost every manifold.
pub const MANIFOLD_REUSE_DRIFT: Real = 0.2 * LINEAR_SLOP;

/// How far, in radians, two bodies in contact may turn relative to each other
/// before their manifold is computed again (with [`MANIFOLD_REUSE_DRIFT`]):
/// the carried normal's direction is off by at most this, 0.3°.
pub const MANIFOLD_REUSE_TURN: Real = 0.005;

/// The smallest size of a shape, metres: a radius, a half-extent, a
/// polygon's width. Lamina is tuned for 0.1 m to 10 m; a thousandth of a
/// millimetre is far below anything it simulates well, and above the sizes
/// whose squares and products underflow (a box of 9e-41 m, a subnormal
/// number, measured 50.6 m from a polygon one way and 41.4 m the other).
pub const MIN_SHAPE_SIZE: Real = 1.0e-6;

/// The farthest, in metres, any point of a shape may lie from the shape's
/// own origin: a thousand kilometres, ten times the size Box2D calls huge.
/// Beyond it the squares and products of coordinates that distances are
/// made of overflow in `f32` (a chain segment 2e37 m long gave a circle
/// cast's time of impact as NaN), and nothing of that size is simulated
/// well anyway.
pub const MAX_SHAPE_SIZE: Real = 1.0e6;

/// How far, as a fraction, the length of a pose's rotation (a complex number
/// `re + i·im`) may stray from 1 and still count as a rotation. One made from
/// an angle is within a few ulps; one whose length is 1.001 would scale every
/// shape it places by a tenth of a percent, and is refused instead.
pub const UNIT_ROTATION_TOLERANCE: Real = 1.0e-3;

/// AABB margin, in metres, that the broad phase adds around a moving shape so
/// that small motions do not touch the sweep-and-prune structure: the default
/// of a `SweepAndPrune`.
pub const AABB_MARGIN: Real = 0.1;

/// The margin, in metres, the world's broad phase adds around each collider's
/// bounds (which already reach out by the speculative distance). Smaller than
/// [`AABB_MARGIN`]: with continuous collision no body needs contacts far
/// ahead, and every pair the margin keeps is bookkeeping. On the benchmark
/// scenes (one thread) 2 cm instead of 10 took 12 to 20 % off the moving
/// scenes (spinner, smash, rain), 7 % off the many pyramids, and cost 4 % on
/// the tumbler and joint_grid, whose bodies move their proxies more often.
pub const WORLD_AABB_MARGIN: Real = 0.02;

/// Relative tolerance (a fraction of the point cloud's extent) under which the
/// convex hull treats points as coincident or collinear. A few ulps of the
/// largest coordinate: anything finer is round-off, not geometry.
pub const HULL_RELATIVE_TOLERANCE: Real = 4.0 * Real::EPSILON;

/// Polygons with more vertices than this answer support queries by binary search
/// over their edge-normal angles instead of a linear scan. Below it the scan is
/// faster: it is branch-light and the vertices sit in one or two cache lines.
pub const POLYGON_LINEAR_SCAN_MAX: usize = 24;

/// Relative tolerance (a fraction of the shapes' size) at which GJK stops: a new
/// support point that improves the distance bound by less than this is no
/// progress. Polygons converge exactly; smooth shapes only approach the answer.
pub const GJK_RELATIVE_TOLERANCE: Real = if cfg!(feature = "f64") { 1.0e-10 } else { 2.0e-6 };

/// Iteration cap of GJK. Polygons converge in a handful of iterations; the cap
/// only bounds smooth shapes, which creep towards the answer.
pub const GJK_MAX_ITERATIONS: usize = 64;

/// Relative tolerance at which EPA stops expanding its polytope. The depth is
/// accurate to this fraction of the shapes' size; on smooth shapes the normal,
/// read off a chord of the curved boundary, only to about its square root
/// (a few milliradians in f32), which is why it sits close to round-off.
pub const EPA_RELATIVE_TOLERANCE: Real = if cfg!(feature = "f64") { 1.0e-10 } else { 2.0e-6 };

/// Iteration cap of EPA. It usually converges in 4 to 5 iterations on polygons.
pub const EPA_MAX_ITERATIONS: usize = 100;

/// Iteration cap of the iterative root finders on smooth shapes (the closest point
/// on an ellipse bisects; each step halves the interval).
pub const ROOT_FINDER_MAX_ITERATIONS: usize = 200;
