//! The character mover: the plane solver against hand-solved planes, the
//! world's mover cast and planes against walls at known distances, and the
//! whole loop (collide, solve, cast, clip) of Box2D's geometric mover
//! sample walking into walls, up and onto slopes and into corners.

use lamina_dynamics::{
    BodyDesc, ChainDesc, ColliderDesc, CollisionFilter, CollisionPlane, PLANE_SOLVER_MAX_ITERATIONS,
    QueryFilter, World, WorldError, WorldSettings, clip_vector, solve_planes,
};
use lamina_geometry::tolerance::LINEAR_SLOP;
use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};

const SLOP: Real = LINEAR_SLOP;

fn near(a: Vec2, b: Vec2, tol: Real) -> bool {
    (a - b).norm() <= tol
}

fn world() -> World {
    World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() })
}

/// A fixed box of half extents `hw`, `hh` centred at (`x`, `y`), turned by `angle`.
fn fixed_box(world: &mut World, x: Real, y: Real, hw: Real, hh: Real, angle: Real) {
    let b = world.add_body(BodyDesc::fixed().translation(x, y).angle(angle));
    world.add_collider(b, ColliderDesc::new(Shape::rectangle(hw, hh))).unwrap();
}

/// A circle mover of radius `r` at `p`: a capsule whose centres are one point.
fn circle_at(p: Point, r: Real) -> Shape {
    Shape::capsule(p, p, r)
}

// ---- the plane solver ----------------------------------------------------

#[test]
fn one_plane_slides_the_displacement_along_it() {
    // The floor, touching (offset 0). Wanted (1, -0.5): the floor takes the
    // downward half metre away but a slop, the rest slides: (1, -slop).
    let mut planes = [CollisionPlane::new(Vec2::y(), 0.0)];
    let s = solve_planes(Vec2::new(1.0, -0.5), &mut planes);
    assert!(near(s.translation, Vec2::new(1.0, -SLOP), 1e-6), "{:?}", s.translation);
    assert!((planes[0].push - (0.5 - SLOP)).abs() < 1e-6, "push {}", planes[0].push);
    // The second pass finds nothing to do.
    assert_eq!(s.iterations, 2);

    // Sunk 0.1 into the floor, standing still: pushed out to a slop inside.
    let mut planes = [CollisionPlane::new(Vec2::y(), 0.1)];
    let s = solve_planes(Vec2::zeros(), &mut planes);
    assert!(near(s.translation, Vec2::new(0.0, 0.1 - SLOP), 1e-6), "{:?}", s.translation);

    // Moving away from the plane: left alone, and the plane did not push.
    let mut planes = [CollisionPlane::new(Vec2::y(), 0.0)];
    let s = solve_planes(Vec2::new(1.0, 1.0), &mut planes);
    assert_eq!(s.translation, Vec2::new(1.0, 1.0));
    assert_eq!(planes[0].push, 0.0);

    // No planes: the displacement as asked, no passes.
    let s = solve_planes(Vec2::new(0.3, 0.4), &mut []);
    assert_eq!((s.translation, s.iterations), (Vec2::new(0.3, 0.4), 0));
}

#[test]
fn two_planes_of_a_corner_hold_the_displacement_in_it() {
    // A floor (normal up) and a wall on the right (normal -x), both touching:
    // pushed down and right, the mover stays put a slop inside each.
    let mut planes = [CollisionPlane::new(Vec2::y(), 0.0), CollisionPlane::new(-Vec2::x(), 0.0)];
    let s = solve_planes(Vec2::new(1.0, -1.0), &mut planes);
    assert!(near(s.translation, Vec2::new(SLOP, -SLOP), 1e-6), "{:?}", s.translation);

    // A floor and a 45° wall rising to the right. The corner's vertex, a slop
    // inside each, solves n1·d = -slop and n2·d = -slop: d.y = -slop,
    // d.x = d.y + √2·slop = (√2 - 1)·slop.
    let n2 = Vec2::new(-1.0, 1.0).normalize();
    let mut planes = [CollisionPlane::new(Vec2::y(), 0.0), CollisionPlane::new(n2, 0.0)];
    let vertex = Vec2::new(((2.0 as Real).sqrt() - 1.0) * SLOP, -SLOP);
    let s = solve_planes(Vec2::new(1.0, -1.0), &mut planes);
    assert!(s.iterations < PLANE_SOLVER_MAX_ITERATIONS, "converged: {} passes", s.iterations);
    // Gauss–Seidel stops once a pass moves less than a slop.
    assert!(near(s.translation, vertex, SLOP), "{:?} vs {vertex:?}", s.translation);
    for p in &planes {
        assert!(p.separation(s.translation) >= -2.0 * SLOP, "outside {:?}", p.normal);
    }
    // Solving again from where it ended asks for nothing more: no jitter.
    let again = solve_planes(
        Vec2::zeros(),
        &mut [
            CollisionPlane::new(Vec2::y(), -planes[0].separation(s.translation)),
            CollisionPlane::new(n2, -planes[1].separation(s.translation)),
        ],
    );
    assert!(again.translation.norm() <= SLOP, "second solve moves {:?}", again.translation);
}

#[test]
fn push_limit_holds_the_push() {
    // Sunk 0.2 into something that may push only 5 cm: pushed 5 cm.
    let mut planes = [CollisionPlane::new(Vec2::y(), 0.2).push_limit(0.05)];
    let s = solve_planes(Vec2::zeros(), &mut planes);
    assert!(near(s.translation, Vec2::new(0.0, 0.05), 1e-6), "{:?}", s.translation);
    assert!((planes[0].push - 0.05).abs() < 1e-6);
    // A limit of 0 never pushes; a negative one is taken as 0.
    for limit in [0.0, -1.0] {
        let mut planes = [CollisionPlane::new(Vec2::y(), 0.2).push_limit(limit)];
        let s = solve_planes(Vec2::new(1.0, -1.0), &mut planes);
        assert_eq!(s.translation, Vec2::new(1.0, -1.0));
        assert_eq!(planes[0].push, 0.0);
    }
}

#[test]
fn a_plane_with_a_nan_offset_or_normal_pushes_nothing() {
    // Beside the floor of the first test, a plane made by hand with a NaN
    // offset or normal: the floor alone decides, (1, -slop), as there; the
    // bad plane neither pushes nor throws the mover out of the world.
    for bad in
        [CollisionPlane::new(Vec2::x(), Real::NAN), CollisionPlane::new(Vec2::new(Real::NAN, 0.0), 0.1)]
    {
        let mut planes = [CollisionPlane::new(Vec2::y(), 0.0), bad];
        let s = solve_planes(Vec2::new(1.0, -0.5), &mut planes);
        assert!(near(s.translation, Vec2::new(1.0, -SLOP), 1e-6), "{:?}", s.translation);
        assert_eq!(planes[1].push, 0.0);
    }
}

#[test]
fn clip_vector_by_hand() {
    let pushed = |n: Vec2| CollisionPlane { push: 0.1, ..CollisionPlane::new(n, 0.0) };
    // Against the floor that pushed: the downward part goes, the rest stays.
    assert_eq!(clip_vector(Vec2::new(2.0, -3.0), &[pushed(Vec2::y())]), Vec2::new(2.0, 0.0));
    // Moving away from it: untouched.
    assert_eq!(clip_vector(Vec2::new(1.0, 2.0), &[pushed(Vec2::y())]), Vec2::new(1.0, 2.0));
    // A plane that did not push, or that does not clip: untouched.
    let idle = CollisionPlane::new(Vec2::y(), 0.0);
    assert_eq!(clip_vector(Vec2::new(2.0, -3.0), &[idle]), Vec2::new(2.0, -3.0));
    let no_clip = pushed(Vec2::y()).clip_velocity(false);
    assert_eq!(clip_vector(Vec2::new(2.0, -3.0), &[no_clip]), Vec2::new(2.0, -3.0));
    // Into a floor and a wall on the right, both pushing: nothing left.
    let v = clip_vector(Vec2::new(2.0, -3.0), &[pushed(Vec2::y()), pushed(-Vec2::x())]);
    assert_eq!(v, Vec2::zeros());
    // Along a 45° slope (normal (-1, 1)/√2), (2, 0) keeps its part along it:
    // (2, 0) - (-√2)·n = (1, 1).
    let n = Vec2::new(-1.0, 1.0).normalize();
    assert!(near(clip_vector(Vec2::new(2.0, 0.0), &[pushed(n)]), Vec2::new(1.0, 1.0), 1e-6));
}

// ---- cast_mover ------------------------------------------------------------

/// The distance travelled by `mover` cast along `translation`.
fn travel(world: &World, mover: &Shape, translation: Vec2) -> Real {
    world.cast_mover(mover, translation, &QueryFilter::default()) * translation.norm()
}

/// Asserts that a cast whose free gap is `gap` travels the gap and a slop
/// more (the mover may end a slop inside), within the cast's tolerance.
fn assert_travel(got: Real, gap: Real, what: &str) {
    let expected = gap + SLOP;
    assert!((got - expected).abs() <= 0.3 * SLOP, "{what}: travelled {got}, expected {expected}");
}

#[test]
fn cast_mover_stops_a_slop_into_a_wall() {
    let mut w = world();
    // A wall whose left face is at x = 2.
    fixed_box(&mut w, 2.5, 0.0, 0.5, 5.0, 0.0);
    let t = Vec2::new(3.0, 0.0);
    // A circle of 0.5 at the origin: 1.5 m free.
    assert_travel(travel(&w, &circle_at(Point::origin(), 0.5), t), 1.5, "circle");
    // A Shape::circle mover sits at the world origin: the same.
    assert_travel(travel(&w, &Shape::circle(0.5), t), 1.5, "Shape::circle");
    // An upright capsule of radius 0.3: 1.7 m free.
    let capsule = Shape::capsule(Point::new(0.0, -0.5), Point::new(0.0, 0.5), 0.3);
    assert_travel(travel(&w, &capsule, t), 1.7, "capsule");
    // A lying capsule, its end 0.8 from its centre: 1.2 m free.
    let lying = Shape::capsule(Point::new(-0.5, 0.0), Point::new(0.5, 0.0), 0.3);
    assert_travel(travel(&w, &lying, t), 1.2, "lying capsule");
    // Diagonally, (3, 3): the same 1.7 m along x, so √2 times that along the motion.
    let f = w.cast_mover(&capsule, Vec2::new(3.0, 3.0), &QueryFilter::default());
    assert!((f * 3.0 - (1.7 + SLOP)).abs() <= 0.3 * SLOP, "diagonal: {}", f * 3.0);
    // Short of the wall, or moving away: all of it.
    assert_eq!(w.cast_mover(&capsule, Vec2::new(1.0, 0.0), &QueryFilter::default()), 1.0);
    assert_eq!(w.cast_mover(&capsule, Vec2::new(-3.0, 0.0), &QueryFilter::default()), 1.0);
}

#[test]
fn cast_mover_against_every_kind_of_shape() {
    let mover = circle_at(Point::origin(), 0.5);
    let t = Vec2::new(4.0, 0.0);
    let shapes: Vec<(&str, Shape, Real)> = vec![
        // A circle of 1 at x = 3: its near side at 2.
        ("circle", Shape::circle(1.0), 3.0),
        // A triangle pointing at the mover, its tip at x = 2.
        (
            "polygon",
            Shape::polygon(&[Point::new(0.0, 0.0), Point::new(2.0, -2.0), Point::new(2.0, 2.0)]).unwrap(),
            2.0,
        ),
        // A segment across the path at x = 2.
        ("segment", Shape::segment(Point::new(0.0, -2.0), Point::new(0.0, 2.0)), 2.0),
        // A capsule across the path, core at x = 2.2, radius 0.2.
        ("capsule", Shape::capsule(Point::new(0.0, -2.0), Point::new(0.0, 2.0), 0.2), 2.2),
        // An ellipse of semi-axes 1 and 2 at x = 3: its near side at 2.
        ("ellipse", Shape::ellipse(1.0, 2.0), 3.0),
    ];
    for (what, shape, x) in shapes {
        let mut w = world();
        let b = w.add_body(BodyDesc::fixed().translation(x, 0.0));
        w.add_collider(b, ColliderDesc::new(shape)).unwrap();
        let got = travel(&w, &mover, t);
        assert!((got - (1.5 + SLOP)).abs() <= 0.3 * SLOP, "{what}: travelled {got}");
    }
}

#[test]
fn cast_mover_against_a_chain_from_its_solid_side_only() {
    let mover = circle_at(Point::origin(), 0.5);
    let t = Vec2::new(4.0, 0.0);
    // Listed downwards, the chain's solid side faces -x, the mover's side.
    let mut w = world();
    let g = w.add_body(BodyDesc::fixed());
    w.add_chain(g, ChainDesc::new(&[Point::new(2.0, 2.0), Point::new(2.0, 0.0), Point::new(2.0, -2.0)]))
        .unwrap();
    assert_travel(travel(&w, &mover, t), 1.5, "chain, solid side");
    // Listed upwards it faces away: the mover passes through from behind.
    let mut w = world();
    let g = w.add_body(BodyDesc::fixed());
    w.add_chain(g, ChainDesc::new(&[Point::new(2.0, -2.0), Point::new(2.0, 0.0), Point::new(2.0, 2.0)]))
        .unwrap();
    assert_eq!(w.cast_mover(&mover, t, &QueryFilter::default()), 1.0);
}

#[test]
fn cast_mover_ignores_what_it_starts_deep_in_and_encroaches_on_what_it_touches() {
    let mut w = world();
    fixed_box(&mut w, 2.5, 0.0, 0.5, 5.0, 0.0);
    // Its centre inside the wall: the wall is ignored (the planes push it out).
    let inside = circle_at(Point::new(2.5, 0.0), 0.5);
    assert_eq!(w.cast_mover(&inside, Vec2::new(1.0, 0.0), &QueryFilter::default()), 1.0);
    // Touching the wall (1 mm off it): moving into it, a slop more is allowed
    // (Box2D's encroaching: the target is the start distance less a slop).
    let touching = circle_at(Point::new(1.499, 0.0), 0.5);
    let got = travel(&w, &touching, Vec2::new(1.0, 0.0));
    assert!((got - SLOP).abs() <= 0.3 * SLOP, "encroached {got}");
    // Along the wall: free.
    assert_eq!(w.cast_mover(&touching, Vec2::new(0.0, 1.0), &QueryFilter::default()), 1.0);
}

#[test]
fn cast_mover_skips_sensors_and_respects_the_filter() {
    let mut w = world();
    let wall = w.add_body(BodyDesc::fixed().translation(2.5, 0.0));
    w.add_collider(
        wall,
        ColliderDesc::new(Shape::rectangle(0.5, 5.0))
            .filter(CollisionFilter { category: 2, ..CollisionFilter::default() }),
    )
    .unwrap();
    let s = w.add_body(BodyDesc::fixed().translation(1.0, 0.0));
    w.add_collider(s, ColliderDesc::new(Shape::rectangle(0.2, 5.0)).sensor(true)).unwrap();
    let mover = circle_at(Point::origin(), 0.5);
    let t = Vec2::new(3.0, 0.0);
    // The sensor is passed through; the wall stops it.
    assert_travel(travel(&w, &mover, t), 1.5, "past the sensor");
    assert_eq!(w.cast_mover(&mover, t, &QueryFilter::default().exclude_body(wall)), 1.0);
    let groups = QueryFilter::default().groups(CollisionFilter { mask: 1, ..CollisionFilter::default() });
    assert_eq!(w.cast_mover(&mover, t, &groups), 1.0);
}

#[test]
fn cast_mover_far_from_the_origin_is_as_precise_as_near_it() {
    // Ten kilometres out the f32 spacing is a millimetre; relative to the
    // mover the answer keeps its digits.
    let mut near_world = world();
    fixed_box(&mut near_world, 2.5, 0.0, 0.5, 5.0, 0.0);
    let mut far_world = world();
    let far: Real = 10_000.0;
    fixed_box(&mut far_world, far + 2.5, far, 0.5, 5.0, 0.0);
    let capsule = |x: Real, y: Real| Shape::capsule(Point::new(x, y - 0.5), Point::new(x, y + 0.5), 0.3);
    let t = Vec2::new(3.0, 0.0);
    let a = near_world.cast_mover(&capsule(0.0, 0.0), t, &QueryFilter::default());
    let b = far_world.cast_mover(&capsule(far, far), t, &QueryFilter::default());
    assert!((a - b).abs() * 3.0 <= 0.1 * SLOP, "near {a}, far {b}");
}

// ---- collide_mover ---------------------------------------------------------

fn planes_of(w: &World, mover: &Shape) -> Vec<CollisionPlane> {
    let mut out = vec![CollisionPlane::new(Vec2::x(), 9.0)];
    w.collide_mover(mover, &QueryFilter::default(), &mut out);
    out
}

#[test]
fn collide_mover_plane_of_a_capsule_resting_into_a_box() {
    let mut w = world();
    // The ground's top face at y = 0.
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -0.5));
    let g = w.add_collider(ground, ColliderDesc::new(Shape::rectangle(5.0, 0.5))).unwrap();
    // An upright capsule whose bottom is 0.1 below the top face.
    let capsule = Shape::capsule(Point::new(1.0, 0.2), Point::new(1.0, 1.2), 0.3);
    let planes = planes_of(&w, &capsule);
    assert_eq!(planes.len(), 1);
    let p = planes[0];
    assert!(near(p.normal, Vec2::y(), 1e-6), "normal {:?}", p.normal);
    assert!((p.offset - 0.1).abs() < 1e-5, "offset {}", p.offset);
    assert!(near(p.point.coords, Vec2::new(1.0, 0.0), 1e-5), "point {:?}", p.point);
    assert_eq!((p.collider, p.body), (Some(g), Some(ground)));
    assert_eq!((p.push_limit, p.push, p.clip_velocity), (Real::MAX, 0.0, true));
    // A lying capsule 0.05 deep.
    let lying = Shape::capsule(Point::new(-0.5, 0.25), Point::new(0.5, 0.25), 0.3);
    let p = planes_of(&w, &lying)[0];
    assert!(near(p.normal, Vec2::y(), 1e-6) && (p.offset - 0.05).abs() < 1e-5, "{p:?}");
    // 1 cm above the ground: no plane.
    let above = Shape::capsule(Point::new(1.0, 0.31), Point::new(1.0, 1.31), 0.3);
    assert!(planes_of(&w, &above).is_empty());
}

#[test]
fn collide_mover_plane_of_a_deep_overlap() {
    let mut w = world();
    fixed_box(&mut w, 0.0, -0.5, 5.0, 0.5, 0.0);
    // A circle whose centre is 0.2 below the top face: out by the top, 0.5
    // deep (Box2D leaves such a mover without a plane).
    let p = planes_of(&w, &circle_at(Point::new(0.0, -0.2), 0.3));
    assert_eq!(p.len(), 1);
    assert!(near(p[0].normal, Vec2::y(), 1e-5), "normal {:?}", p[0].normal);
    assert!((p[0].offset - 0.5).abs() < 1e-4, "offset {}", p[0].offset);
    // The solver then lifts it out to a slop inside.
    let s = solve_planes(Vec2::zeros(), &mut p.clone());
    assert!(near(s.translation, Vec2::new(0.0, 0.5 - SLOP), 1e-4), "{:?}", s.translation);
    // A capsule lying across the top face, its core inside the box.
    let p = planes_of(&w, &Shape::capsule(Point::new(-1.0, -0.1), Point::new(1.0, -0.1), 0.3));
    assert!(near(p[0].normal, Vec2::y(), 1e-5) && (p[0].offset - 0.4).abs() < 1e-4, "{:?}", p[0]);
}

#[test]
fn collide_mover_gives_a_plane_for_every_kind_of_shape() {
    // Each shape below a circle mover of 0.5 at the origin, its top at
    // y = -0.4: a plane of normal up and offset 0.1 from each.
    let shapes: Vec<(&str, Shape, Real)> = vec![
        ("circle", Shape::circle(1.0), -1.4),
        ("box", Shape::rectangle(2.0, 1.0), -1.4),
        ("rounded box", Shape::rounded_rectangle(2.0, 0.9, 0.1), -1.4),
        ("capsule", Shape::capsule(Point::new(-2.0, 0.0), Point::new(2.0, 0.0), 0.4), -0.8),
        ("segment", Shape::segment(Point::new(-2.0, 0.0), Point::new(2.0, 0.0)), -0.4),
        ("ellipse", Shape::ellipse(2.0, 1.0), -1.4),
        (
            "triangle",
            Shape::polygon(&[Point::new(-2.0, -1.0), Point::new(2.0, -1.0), Point::new(0.0, 0.0)]).unwrap(),
            -0.4,
        ),
    ];
    let mover = circle_at(Point::origin(), 0.5);
    for (what, shape, y) in shapes {
        let mut w = world();
        let b = w.add_body(BodyDesc::fixed().translation(0.0, y));
        w.add_collider(b, ColliderDesc::new(shape)).unwrap();
        let p = planes_of(&w, &mover);
        assert_eq!(p.len(), 1, "{what}");
        assert!(near(p[0].normal, Vec2::y(), 1e-4), "{what}: normal {:?}", p[0].normal);
        assert!((p[0].offset - 0.1).abs() < 1e-4, "{what}: offset {}", p[0].offset);
        assert!(near(p[0].point.coords, Vec2::new(0.0, -0.4), 1e-3), "{what}: point {:?}", p[0].point);
    }
}

#[test]
fn collide_mover_against_a_chain_is_one_sided() {
    // A floor listed right to left: solid side up.
    let mut w = world();
    let g = w.add_body(BodyDesc::fixed());
    w.add_chain(g, ChainDesc::new(&[Point::new(4.0, 0.0), Point::new(0.0, 0.0), Point::new(-4.0, 0.0)]))
        .unwrap();
    // Above it, 0.1 deep: a plane of each segment it touches (the seam is
    // under it), normals up.
    let p = planes_of(&w, &circle_at(Point::new(0.0, 0.4), 0.5));
    assert!(!p.is_empty());
    for q in &p {
        assert!(near(q.normal, Vec2::y(), 1e-4) && (q.offset - 0.1).abs() < 1e-4, "{q:?}");
    }
    // Beside the seam, one segment only.
    let p = planes_of(&w, &circle_at(Point::new(2.0, 0.4), 0.5));
    assert_eq!(p.len(), 1);
    // Its centre below the chain: nothing.
    assert!(planes_of(&w, &circle_at(Point::new(2.0, -0.4), 0.5)).is_empty());
    // Its centre above but its core through the chain: pushed up, never
    // down through it. A capsule from y = -0.3 to 0.9 (centre 0.3): the
    // lowest core point is 0.3 below, so 0.6 deep with radius 0.3.
    let p = planes_of(&w, &Shape::capsule(Point::new(2.0, -0.3), Point::new(2.0, 0.9), 0.3));
    assert_eq!(p.len(), 1);
    assert!(near(p[0].normal, Vec2::y(), 1e-4) && (p[0].offset - 0.6).abs() < 1e-4, "{:?}", p[0]);
}

#[test]
fn collide_mover_skips_sensors_and_lists_planes_in_key_order() {
    let mut w = world();
    let floor = w.add_body(BodyDesc::fixed().translation(0.0, -0.5));
    let a = w.add_collider(floor, ColliderDesc::new(Shape::rectangle(5.0, 0.5))).unwrap();
    let wall = w.add_body(BodyDesc::fixed().translation(0.9, 1.0));
    let b = w.add_collider(wall, ColliderDesc::new(Shape::rectangle(0.5, 5.0))).unwrap();
    let s = w.add_body(BodyDesc::fixed());
    w.add_collider(s, ColliderDesc::new(Shape::circle(2.0)).sensor(true)).unwrap();
    let mover = circle_at(Point::new(0.0, 0.45), 0.5);
    let p = planes_of(&w, &mover);
    let keys: Vec<_> = p.iter().map(|q| q.collider.unwrap()).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert_eq!(keys.len(), 2, "the floor and the wall, not the sensor");
    assert!(keys.contains(&a) && keys.contains(&b));
    // Filtered out by body.
    let mut out = Vec::new();
    w.collide_mover(&mover, &QueryFilter::default().exclude_body(wall), &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].collider, Some(a));
}

// ---- bad input ---------------------------------------------------------------

#[test]
fn bad_movers_are_refused_by_name() {
    let mut w = world();
    fixed_box(&mut w, 0.0, -0.5, 5.0, 0.5, 0.0);
    let d = w.add_body(BodyDesc::dynamic().translation(0.0, 3.0));
    w.add_collider(d, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    let hash = w.state_hash();
    let ok = Shape::capsule(Point::new(0.0, 0.0), Point::new(0.0, 1.0), 0.3);
    let f = QueryFilter::default();
    let cases: Vec<(Shape, Vec2, WorldError)> = vec![
        (Shape::rectangle(0.5, 0.5), Vec2::x(), WorldError::WrongMoverShape { kind: "polygon" }),
        (
            Shape::segment(Point::origin(), Point::new(1.0, 0.0)),
            Vec2::x(),
            WorldError::WrongMoverShape { kind: "segment" },
        ),
        (Shape::ellipse(1.0, 0.5), Vec2::x(), WorldError::WrongMoverShape { kind: "ellipse" }),
        (
            Shape::circle(2.0 * SLOP),
            Vec2::x(),
            WorldError::InvalidMover { name: "radius", value: 2.0 * SLOP },
        ),
        (Shape::circle(-1.0), Vec2::x(), WorldError::InvalidMover { name: "radius", value: -1.0 }),
        (
            Shape::circle(Real::INFINITY),
            Vec2::x(),
            WorldError::InvalidMover { name: "radius", value: Real::INFINITY },
        ),
        (
            Shape::capsule(Point::new(Real::NAN, 0.0), Point::new(0.0, 1.0), 0.3),
            Vec2::x(),
            WorldError::InvalidMover { name: "center1.x", value: Real::NAN },
        ),
        (
            Shape::capsule(Point::origin(), Point::new(0.0, Real::INFINITY), 0.3),
            Vec2::x(),
            WorldError::InvalidMover { name: "center2.y", value: Real::INFINITY },
        ),
        (
            ok.clone(),
            Vec2::new(Real::NAN, 0.0),
            WorldError::InvalidMover { name: "translation.x", value: Real::NAN },
        ),
        (
            ok.clone(),
            Vec2::new(0.0, Real::NEG_INFINITY),
            WorldError::InvalidMover { name: "translation.y", value: Real::NEG_INFINITY },
        ),
    ];
    let same = |a: &WorldError, b: &WorldError| format!("{a:?}") == format!("{b:?}");
    for (shape, t, expected) in cases {
        let got = w.try_cast_mover(&shape, t, &f).unwrap_err();
        assert!(same(&got, &expected), "cast: {got:?}, expected {expected:?}");
        assert!(!got.to_string().is_empty());
        assert_eq!(w.cast_mover(&shape, t, &f), 0.0, "bad input: the mover stays put");
        if t == Vec2::x() {
            let mut out = vec![CollisionPlane::new(Vec2::y(), 1.0)];
            let got = w.try_collide_mover(&shape, &f, &mut out).unwrap_err();
            assert!(same(&got, &expected), "collide: {got:?}, expected {expected:?}");
            assert_eq!(out.len(), 1, "the try form leaves `out` alone");
            w.collide_mover(&shape, &f, &mut out);
            assert!(out.is_empty(), "the plain form leaves `out` empty");
        }
    }
    // Finite numbers whose sum overflows: a translation too long to sweep.
    let far = circle_at(Point::new(0.75 * Real::MAX, 0.0), 0.5);
    assert!(matches!(
        w.try_cast_mover(&far, Vec2::new(0.75 * Real::MAX, 0.0), &f),
        Err(WorldError::InvalidMover { name: "translation length", .. })
    ));
    assert!(WorldError::WrongMoverShape { kind: "polygon" }.to_string().contains("polygon"));
    assert!(WorldError::InvalidMover { name: "radius", value: 0.01 }.to_string().contains("radius"));
    assert_eq!(w.state_hash(), hash);
}

// ---- the mover loop ----------------------------------------------------------

/// A capsule character moved as Box2D's geometric mover sample moves it:
/// collide, solve the planes, cast, a few rounds a frame, then clip the
/// velocity against the planes that pushed.
struct Character {
    position: Point,
    velocity: Vec2,
    planes: Vec<CollisionPlane>,
}

const HALF_HEIGHT: Real = 0.5;
const RADIUS: Real = 0.3;
const DT: Real = 1.0 / 60.0;

impl Character {
    fn new(x: Real, y: Real) -> Self {
        Self { position: Point::new(x, y), velocity: Vec2::zeros(), planes: Vec::new() }
    }

    fn shape(&self) -> Shape {
        let h = Vec2::new(0.0, HALF_HEIGHT);
        Shape::capsule(self.position - h, self.position + h, RADIUS)
    }

    /// On the ground by the sample's test: a plane it touches faces up
    /// more than 0.7 (steeper than about 45° is a wall).
    fn grounded(&self) -> bool {
        self.planes.iter().any(|p| p.normal.y > 0.7)
    }

    fn move_by(&mut self, world: &World) {
        let filter = QueryFilter::default();
        let target = self.position + self.velocity * DT;
        for _ in 0..5 {
            world.collide_mover(&self.shape(), &filter, &mut self.planes);
            let solution = solve_planes(target - self.position, &mut self.planes);
            let fraction = world.cast_mover(&self.shape(), solution.translation, &filter);
            let delta = solution.translation * fraction;
            self.position += delta;
            if delta.norm() < 0.01 {
                break;
            }
        }
        self.velocity = clip_vector(self.velocity, &self.planes);
    }

    /// A frame of walking at `speed` along x on the ground; off it, no
    /// steering, and gravity.
    fn walk(&mut self, world: &World, speed: Real) {
        if self.grounded() {
            self.velocity = Vec2::new(speed, 0.0);
        } else {
            self.velocity.y -= 30.0 * DT;
        }
        self.move_by(world);
    }

    /// How deep the character is in the world's deepest collider (0 when clear).
    fn depth_in(&self, world: &World) -> Real {
        let mut deepest: Real = 0.0;
        for (_, b) in world.bodies() {
            for &c in b.colliders() {
                let shape = world.collider(c).unwrap().shape();
                let pose = b.position() * world.collider(c).unwrap().local_pose();
                let s =
                    lamina_narrowphase::signed_distance(shape, &pose, &self.shape(), &Isometry::identity());
                deepest = deepest.max(-s);
            }
        }
        deepest
    }
}

#[test]
fn a_character_pushed_into_a_wall_never_enters_it_and_slides_along_it() {
    let mut w = world();
    // A wall whose left face is at x = 1.
    fixed_box(&mut w, 1.5, 0.0, 0.5, 20.0, 0.0);
    let mut c = Character::new(0.0, 0.0);
    for frame in 0..120 {
        c.velocity = Vec2::new(5.0, 1.0);
        c.move_by(&w);
        let depth = c.depth_in(&w);
        assert!(depth <= SLOP + 1e-4, "frame {frame}: {depth} m into the wall");
        if frame >= 20 {
            // Clipped against the wall: only the slide is left.
            assert!(c.velocity.x.abs() <= 1e-4, "frame {frame}: still pushing {:?}", c.velocity);
        }
    }
    // Against the wall (its side at x = 1 - 0.3, a slop in at most), having
    // slid up at 1 m/s for two seconds.
    assert!((c.position.x - (1.0 - RADIUS)).abs() <= 1.5 * SLOP, "x = {}", c.position.x);
    assert!((c.position.y - 2.0).abs() < 0.05, "y = {}", c.position.y);
}

/// A slope of `degrees` through the origin (the top face of a turned box)
/// and a character standing on it at the origin, half a slop in: the lower
/// circle's centre that much less than its radius off the surface.
fn character_on_a_slope(degrees: Real) -> (World, Character) {
    let angle = degrees.to_radians();
    let mut w = world();
    let n = Vec2::new(-angle.sin(), angle.cos());
    fixed_box(&mut w, -0.5 * n.x, -0.5 * n.y, 30.0, 0.5, angle);
    let foot = n * (RADIUS - 0.5 * SLOP);
    (w, Character::new(foot.x, foot.y + HALF_HEIGHT))
}

#[test]
fn a_character_climbs_a_30_degree_slope() {
    let angle = (30.0 as Real).to_radians();
    let (w, mut c) = character_on_a_slope(30.0);
    let start = c.position;
    for _ in 0..2 {
        c.move_by(&w);
    }
    assert!(c.grounded(), "ground test on 30°: {:?}", c.planes);
    for frame in 0..60 {
        c.walk(&w, 3.0);
        assert!(c.grounded(), "frame {frame}: lost the ground at {:?}", c.position);
        assert!(c.depth_in(&w) <= SLOP + 1e-4, "frame {frame}: in the slope");
    }
    let moved = c.position - start;
    // Up the slope: y rises tan 30° per metre of x.
    assert!(moved.x > 1.5, "moved {moved:?}");
    assert!((moved.y - moved.x * angle.tan()).abs() < 0.02, "moved {moved:?}");
}

#[test]
fn a_60_degree_slope_is_no_ground_and_is_not_climbed() {
    let (w, mut c) = character_on_a_slope(60.0);
    let start = c.position;
    c.move_by(&w);
    assert!(!c.planes.is_empty(), "touching the slope");
    for frame in 0..60 {
        c.walk(&w, 3.0);
        assert!(!c.grounded(), "frame {frame}: a 60° slope counted as ground: {:?}", c.planes);
        assert!(c.depth_in(&w) <= SLOP + 1e-4, "frame {frame}: in the slope");
    }
    // Gravity wins: it slid down the slope.
    assert!(c.position.y < start.y - 0.5, "from {start:?} to {:?}", c.position);
}

#[test]
fn a_character_pushed_into_a_corner_stays_put_without_jitter() {
    let mut w = world();
    // A floor with its top at y = 0 and a wall with its left face at x = 2.
    fixed_box(&mut w, 0.0, -0.5, 10.0, 0.5, 0.0);
    fixed_box(&mut w, 2.5, 5.0, 0.5, 5.0, 0.0);
    let mut c = Character::new(0.0, HALF_HEIGHT + RADIUS + 0.2);
    let mut last = c.position;
    for frame in 0..120 {
        c.walk(&w, 4.0);
        assert!(c.depth_in(&w) <= SLOP + 1e-4, "frame {frame}: in the corner's walls");
        if frame >= 90 {
            assert!((c.position - last).norm() <= 1e-4, "frame {frame}: moved {:?}", c.position - last);
        }
        last = c.position;
    }
    assert!((c.position.x - (2.0 - RADIUS)).abs() <= 1.5 * SLOP, "x = {}", c.position.x);
    assert!((c.position.y - (HALF_HEIGHT + RADIUS)).abs() <= 1.5 * SLOP, "y = {}", c.position.y);
}

#[test]
fn a_character_in_a_wedge_between_two_walls_settles() {
    let mut w = world();
    // Two walls leaning 30° off upright meet at the origin in a V: each a
    // quad from the origin 4 m up along the wall, 1 m thick outwards.
    let g = w.add_body(BodyDesc::fixed());
    for side in [-1.0 as Real, 1.0] {
        let up = Vec2::new(0.5 * side, (0.75 as Real).sqrt());
        let out = Vec2::new(up.y * side, -up.x * side);
        let quad: Vec<Point> =
            [Vec2::zeros(), up * 4.0, up * 4.0 + out, out].iter().map(|v| Point::from(*v)).collect();
        w.add_collider(g, ColliderDesc::new(Shape::polygon(&quad).unwrap())).unwrap();
    }
    let mut c = Character::new(0.0, 2.5);
    let mut last = c.position;
    for frame in 0..180 {
        c.walk(&w, 2.0);
        // Two planes at 120° settle by Gauss–Seidel, which stops once a
        // pass moves less than a slop: a slop more than against one wall.
        assert!(c.depth_in(&w) <= 2.0 * SLOP, "frame {frame}: in a wall");
        if frame >= 150 {
            assert!((c.position - last).norm() <= 1e-4, "frame {frame}: moved {:?}", c.position - last);
        }
        last = c.position;
    }
    // At the bottom of the V: the lower circle's centre 0.3 from each wall,
    // 0.3 / sin 30° = 0.6 above the vertex.
    assert!(c.position.x.abs() < 1e-3, "x = {}", c.position.x);
    assert!((c.position.y - (0.6 + HALF_HEIGHT)).abs() < 4.0 * SLOP, "y = {}", c.position.y);
}

/// A flat floor with its top at y = 0 and, on it, a step whose face is at
/// x = `face` and whose top is at y = `height`, 10 m deep.
fn floor_and_step(face: Real, height: Real) -> World {
    let mut w = world();
    fixed_box(&mut w, 0.0, -0.5, 20.0, 0.5, 0.0);
    fixed_box(&mut w, face + 5.0, 0.5 * height, 5.0, 0.5 * height, 0.0);
    w
}

#[test]
fn a_character_walks_up_a_step_lower_than_its_radius() {
    // A 0.1 m step, its face at x = 1. Standing on the floor, the lower
    // circle's centre is at y = 0.3, 0.2 above the step's top corner, so the
    // circle first meets the corner (not the face) where its centre is
    // √(0.3² - 0.2²) = √0.05 ≈ 0.224 short of it: at x ≈ 0.776, with the
    // normal (-√0.05, 0.2) / 0.3 ≈ (-0.75, 0.67). That normal leans up: the
    // solver slides the walk up and over the corner. Once over, the top face
    // holds the character as the floor did, a slop in at most: its bottom at
    // 0.1 less at most a slop (and never above 0.1, where gravity would pull
    // it down again), its middle 0.1 + 0.5 + 0.3 = 0.9 up. On top it walks
    // at 4 m/s again, 4/60 m a frame.
    let (face, height) = (1.0, 0.1);
    let w = floor_and_step(face, height);
    let bottom = |c: &Character| c.position.y - HALF_HEIGHT - RADIUS;
    // Half a slop into the floor, as a character resting on it is: shapes
    // exactly touching may or may not count as in contact, by rounding.
    let mut c = Character::new(0.0, HALF_HEIGHT + RADIUS - 0.5 * SLOP);
    c.move_by(&w);
    assert!(c.grounded(), "standing on the floor: {:?}", c.planes);
    let first_touch = face - (RADIUS * RADIUS - (RADIUS - height) * (RADIUS - height)).sqrt();
    let mut climbing_from = None;
    let mut on_top = Vec::new();
    for frame in 0..90 {
        let before = c.position;
        c.walk(&w, 4.0);
        let depth = c.depth_in(&w);
        assert!(depth <= 2.0 * SLOP, "frame {frame}: {depth} m into the floor or the step");
        assert!(bottom(&c) <= height + 1e-4, "frame {frame}: hopped to {}", bottom(&c));
        if climbing_from.is_none() && bottom(&c) > SLOP {
            climbing_from = Some((before.x, c.position.x));
        }
        if frame >= 30 {
            // Long since over the corner: standing on the top face.
            assert!(c.grounded(), "frame {frame}: not on the step's top: {:?}", c.planes);
            assert!(c.position.x > face, "frame {frame}: x = {}", c.position.x);
            assert!(
                bottom(&c) >= height - 2.0 * SLOP,
                "frame {frame}: bottom {} under the top {height}",
                bottom(&c)
            );
            on_top.push(c.position);
        }
    }
    // It started up at the corner, within the frame's walk of the first touch.
    let (from, to) = climbing_from.expect("never left the floor");
    assert!(from <= first_touch && first_touch <= to + 4.0 * DT, "climbed from {from}..{to}");
    // No jitter on top: its height the same to well under a slop, frame
    // after frame, and the full walking speed back.
    let (low, high) = on_top.iter().fold((Real::MAX, Real::MIN), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)));
    assert!(high - low < 0.1 * SLOP, "height on top varies over {low}..{high}");
    for pair in on_top.windows(2) {
        let dx = pair[1].x - pair[0].x;
        assert!((dx - 4.0 * DT).abs() < 1e-4, "walked {dx} in a frame on top");
    }
    assert!((bottom(&c) - (height - SLOP)).abs() <= SLOP, "bottom {}", bottom(&c));
    // 90 frames at 4/60 m would be 6 m; the corner slows it for a few
    // frames only, so it is well past the face.
    assert!(c.position.x > face + 4.0, "x = {}", c.position.x);
}

#[test]
fn a_character_stops_at_a_step_taller_than_its_radius() {
    // A 0.6 m step, its face at x = 1. The step's top corner (y = 0.6) is
    // above the lower circle's centre (y = 0.3), so the capsule meets the
    // face with its side: the plane's normal is (-1, 0), with nothing up in
    // it to slide along. The character stops with its side on the face, its
    // middle at x = 1 - 0.3 (at most a slop further, the slop the solver
    // leaves it inside), still standing on the floor (middle at 0.8), and
    // clipping takes all of its walk into the face: velocity.x = 0.
    let (face, height) = (1.0, 0.6);
    let w = floor_and_step(face, height);
    // Half a slop into the floor, as a character resting on it is: shapes
    // exactly touching may or may not count as in contact, by rounding.
    let mut c = Character::new(0.0, HALF_HEIGHT + RADIUS - 0.5 * SLOP);
    c.move_by(&w);
    assert!(c.grounded(), "standing on the floor: {:?}", c.planes);
    let mut last = c.position;
    for frame in 0..90 {
        c.walk(&w, 4.0);
        let depth = c.depth_in(&w);
        assert!(depth <= 2.0 * SLOP, "frame {frame}: {depth} m into the floor or the step");
        assert!(c.position.x <= face - RADIUS + 2.0 * SLOP, "frame {frame}: x = {}", c.position.x);
        assert!(
            (c.position.y - (HALF_HEIGHT + RADIUS)).abs() <= SLOP,
            "frame {frame}: climbing, y = {}",
            c.position.y
        );
        // 0.7 m to the face at 4/60 m a frame: there by frame 11.
        if frame >= 12 {
            assert!(c.grounded(), "frame {frame}: lost the floor: {:?}", c.planes);
            assert!(c.velocity.x.abs() <= 1e-4, "frame {frame}: still pushing {:?}", c.velocity);
            assert!((c.position - last).norm() <= 1e-4, "frame {frame}: moved {:?}", c.position - last);
        }
        last = c.position;
    }
    assert!((c.position.x - (face - RADIUS)).abs() <= 1.5 * SLOP, "x = {}", c.position.x);
}
