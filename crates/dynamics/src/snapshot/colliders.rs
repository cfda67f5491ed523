//! Colliders written in bulk: every field of every collider, a column per
//! field, in the order of the collider map.
//!
//! Shapes are written only where they change: a collider whose shape is
//! written exactly as the previous collider's (a pyramid's thousands of equal
//! boxes) says so with a flag, and the other shapes go through serde with the
//! rest of the small state ([`new_shapes`]), which checks them as it reads
//! them.
//!
//! A collider's bounds are written as the bits that differ (XOR) from its
//! shape's bounds at its body's pose grown by the speculative distance: zero
//! nearly always, and the difference where they lag the pose (a collider added
//! since the last step). Its copy of its broad-phase box is not written: it is
//! taken back from the broad phase.

use lamina_broadphase::ProxyHint;
use lamina_geometry::{Aabb, Isometry, Point, Real, Rotation, Shape, Vec2};

use super::bodies::{residual, unflip};
use super::packing::{IntRows, Packer, RealRows, Unpacker};
use crate::body::Body;
use crate::collider::{Collider, CollisionFilter, MAX_COEFFICIENT, MAX_TANGENT_SPEED};
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ColliderKey, World};

/// Reals per collider: local pose (4), density, friction, restitution, the
/// bounds' residual (4), tangent speed and rolling resistance.
const REALS: usize = 13;

/// Integers per collider: its body's key (index, version), filter (category,
/// mask, group), flags and user data.
const INTS: usize = 7;

/// Flags of a collider.
const SENSOR: u64 = 1;
/// The collider's shape is the next of the written shapes, not a copy of the
/// previous collider's.
const NEW_SHAPE: u64 = 2;
/// The collider asks the custom filter, the pre-solve hook (`hooks.rs`).
const CUSTOM_FILTER: u64 = 4;
const PRE_SOLVE: u64 = 8;
/// Every flag a collider may have.
const FLAGS: u64 = SENSOR | NEW_SHAPE | CUSTOM_FILTER | PRE_SOLVE;

/// Whether `shape`, after `previous`, must be written: unless it would be
/// written exactly as `previous` was, bit for bit, and so read back the same.
/// Only circles and polygons are compared; other shapes are always written.
fn is_new(previous: Option<&Shape>, shape: &Shape) -> bool {
    let same = |a: Real, b: Real| a.to_bits() == b.to_bits();
    let same_points = |a: &[Point], b: &[Point]| {
        a.len() == b.len() && a.iter().zip(b).all(|(p, q)| same(p.x, q.x) && same(p.y, q.y))
    };
    let alike = match (previous, shape) {
        (Some(Shape::Circle(a)), Shape::Circle(b)) => same(a.radius, b.radius),
        (Some(Shape::Polygon(a)), Shape::Polygon(b)) => {
            same(a.radius(), b.radius())
                && match (a.half_extents(), b.half_extents()) {
                    (Some(ha), Some(hb)) => same(ha.x, hb.x) && same(ha.y, hb.y),
                    (None, None) => same_points(a.vertices(), b.vertices()),
                    _ => false,
                }
        }
        _ => false,
    };
    !alike
}

/// The shapes [`write()`] does not write itself, in collider order: each one
/// not written as the previous collider's was.
pub(crate) fn new_shapes(colliders: &TaggedMap<ColliderKey, Collider>) -> Vec<&Shape> {
    let mut previous = None;
    let mut shapes = Vec::new();
    for c in colliders.values() {
        if is_new(previous, &c.shape) {
            shapes.push(&c.shape);
        }
        previous = Some(&c.shape);
    }
    shapes
}

/// Writes every collider of `world`.
pub(crate) fn write(world: &World, packer: &mut Packer) {
    let margin = world.settings.speculative_distance;
    let mut reals = RealRows::<REALS>::with_capacity(world.colliders.len());
    let mut ints = IntRows::<INTS>::with_capacity(world.colliders.len());
    let mut previous = None;
    for c in world.colliders.values() {
        let (r, i) = row(c, previous, &world.bodies, margin);
        reals.push(r);
        ints.push(i);
        previous = Some(&c.shape);
    }
    reals.write(packer);
    ints.write(packer);
}

/// A collider's reals and integers.
fn row(
    collider: &Collider,
    previous: Option<&Shape>,
    bodies: &TaggedMap<BodyKey, Body>,
    margin: Real,
) -> ([Real; REALS], [u64; INTS]) {
    let Collider {
        body,
        shape,
        local_pose,
        density,
        friction,
        restitution,
        filter,
        sensor,
        user_data,
        tangent_speed,
        rolling_resistance,
        custom_filter,
        pre_solve,
        aabb,
        proxy_box: _,  // taken back from the broad phase
        proxy_hint: _, // likewise
    } = collider;
    let p = crate::broad_phase::contact_bounds(collider, &bodies[*body].pose, margin);
    let t = local_pose.translation.vector;
    let reals = [
        t.x,
        t.y,
        local_pose.rotation.re,
        local_pose.rotation.im,
        *density,
        *friction,
        *restitution,
        residual(aabb.mins.x, p.mins.x),
        residual(aabb.mins.y, p.mins.y),
        residual(aabb.maxs.x, p.maxs.x),
        residual(aabb.maxs.y, p.maxs.y),
        *tangent_speed,
        *rolling_resistance,
    ];
    let ffi = slotmap::Key::data(body).as_ffi();
    let mut flags = if *sensor { SENSOR } else { 0 };
    if is_new(previous, shape) {
        flags |= NEW_SHAPE;
    }
    if *custom_filter {
        flags |= CUSTOM_FILTER;
    }
    if *pre_solve {
        flags |= PRE_SOLVE;
    }
    let ints = [
        ffi & 0xffff_ffff,
        ffi >> 32,
        u64::from(filter.category),
        u64::from(filter.mask),
        i64::from(filter.group) as u64,
        flags,
        *user_data,
    ];
    (reals, ints)
}

/// The colliders read back, built one at a time by [`CollidersIn::collider`],
/// with the residuals of their bounds, which [`restore_bounds`] applies once
/// the bodies are in place.
pub(crate) struct CollidersIn {
    reals: RealRows<REALS>,
    ints: IntRows<INTS>,
    shapes: Vec<Shape>,
    /// Per collider, its shape's index in `shapes`.
    shape_of: Vec<usize>,
}

impl CollidersIn {
    /// Reads `count` colliders, in the order [`write()`] wrote them, taking
    /// their shapes from `shapes` where they changed, and checks every number
    /// that is not a real.
    pub(crate) fn read(
        unpacker: &mut Unpacker<'_>,
        count: usize,
        shapes: Vec<Shape>,
    ) -> Result<Self, String> {
        let reals = RealRows::<REALS>::read(unpacker, count)?;
        let ints = IntRows::<INTS>::read(unpacker, count)?;
        let mut shape_of = Vec::with_capacity(count);
        let mut next_shape = 0;
        for i in 0..count {
            let [index, version, category, mask, group, flags, _] = ints.row(i);
            if flags & !FLAGS != 0 {
                return Err(format!("a collider with flags {flags:#x}"));
            }
            if flags & NEW_SHAPE != 0 {
                next_shape += 1;
            }
            if next_shape == 0 || next_shape > shapes.len() {
                return Err("the colliders' shapes do not match the shapes written".into());
            }
            shape_of.push(next_shape - 1);
            let fits_u32 = [index, version, category, mask].iter().all(|&v| u32::try_from(v).is_ok());
            if !fits_u32 || i32::try_from(group as i64).is_err() {
                return Err("a collider's key or filter out of range".into());
            }
        }
        if next_shape != shapes.len() {
            return Err("more shapes than colliders that need one".into());
        }
        // The materials as `ColliderDesc::validate` allows them: what a
        // world hands its solver.
        for i in 0..count {
            let r = reals.row(i);
            let coefficient = |v: Real| (0.0..=MAX_COEFFICIENT).contains(&v);
            let ok = r[4].is_finite()
                && r[4] >= 0.0
                && coefficient(r[5])
                && coefficient(r[6])
                && r[11].abs() <= MAX_TANGENT_SPEED
                && coefficient(r[12]);
            if !ok {
                return Err(format!(
                    "collider {i} has a material out of range: {:?}",
                    [r[4], r[5], r[6], r[11], r[12]]
                ));
            }
        }
        Ok(CollidersIn { reals, ints, shapes, shape_of })
    }

    /// Collider `i` of `world`, with its bounds and broad-phase box not yet set.
    pub(crate) fn collider(&self, i: usize, world: crate::WorldTag) -> Collider {
        // All in range: checked by `read`.
        let [index, version, category, mask, group, flags, user_data] = self.ints.row(i);
        let r = self.reals.row(i);
        let body = slotmap::KeyData::from_ffi(version << 32 | index);
        Collider {
            body: crate::WorldKey::in_world(BodyKey::from(body), world),
            shape: self.shapes[self.shape_of[i]].clone(),
            local_pose: Isometry::from_parts(
                Vec2::new(r[0], r[1]).into(),
                Rotation::new_unchecked(nalgebra::Complex { re: r[2], im: r[3] }),
            ),
            density: r[4],
            friction: r[5],
            restitution: r[6],
            filter: CollisionFilter {
                category: category as u32,
                mask: mask as u32,
                group: group as i64 as i32,
            },
            sensor: flags & SENSOR != 0,
            user_data,
            tangent_speed: r[11],
            rolling_resistance: r[12],
            custom_filter: flags & CUSTOM_FILTER != 0,
            pre_solve: flags & PRE_SOLVE != 0,
            aabb: crate::collider::unset_bounds(),
            proxy_box: crate::collider::unset_bounds(),
            proxy_hint: ProxyHint::NONE,
        }
    }

    /// The residual of collider `i`'s bounds.
    fn bounds(&self, i: usize) -> [Real; 4] {
        let r = self.reals.row(i);
        [r[7], r[8], r[9], r[10]]
    }
}

/// Rebuilds the bounds of the colliders of `world`, whose keys and poses are
/// checked already, from the residuals `read` holds, and takes their
/// broad-phase boxes back from the broad phase.
pub(crate) fn restore_bounds(world: &mut World, read: &CollidersIn) -> Result<(), String> {
    let margin = world.settings.speculative_distance;
    for (i, (key, c)) in world.colliders.iter_mut().enumerate() {
        let r = read.bounds(i);
        let p = crate::broad_phase::contact_bounds(c, &world.bodies[c.body].pose, margin);
        c.aabb = Aabb::new(
            Point::new(unflip(p.mins.x, r[0]), unflip(p.mins.y, r[1])),
            Point::new(unflip(p.maxs.x, r[2]), unflip(p.maxs.y, r[3])),
        );
        let proxy = crate::broad_phase::ProxyKey::of(key);
        c.proxy_box = world.broad_phase.all().fat_aabb(proxy).ok_or("a collider has no broad-phase proxy")?;
        c.proxy_hint = world.broad_phase.all().hint(proxy).unwrap_or(ProxyHint::NONE);
    }
    Ok(())
}
