//! The gameplay calls: explosions, and the character mover (`cast_mover`,
//! `collide_mover`, the `CollisionPlane` class, `solve_planes` and
//! `clip_vector`), with Box2D v3.1's semantics as the engine gives them
//! (`docs/gameplay.md`). The surface materials (`tangent_speed`,
//! `rolling_resistance`) are keywords of `add_collider` (`colliders.rs`).
//!
//! A mover is a `Capsule` or a `Circle` placed at `position` (a keyword,
//! default the origin): the shape's own frame moved there, unturned. A
//! `CollisionPlane` is a mutable Python object; `solve_planes` writes each
//! plane's `push` back into the objects it was given, as the Rust solver
//! does through `&mut`, so that `clip_vector` can read them.

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::convert::{Pair, pair, point, point_pair, real, vec2};
use crate::errors::{from_engine, world_error};
use crate::handles::{PyBody, PyCollider};
use crate::queries::{filter, handles};
use crate::shapes::PyShape;
use crate::world::PyWorld;

/// How far from 1 the length of a plane's normal may be.
const UNIT_TOLERANCE: f64 = 1e-3;

/// A plane that a mover's displacement ``d`` must end clear of:
/// ``normal · d − offset ≥ 0``.
///
/// ``CollisionPlane(normal, offset, *, push_limit=inf, push=0.0,
/// clip_velocity=True, collider=None, body=None, point=(0.0, 0.0))``.
/// ``World.collide_mover`` makes them for what a mover touches; one made by
/// hand is rigid (no push limit) and belongs to no collider. Every attribute
/// can be set, and is checked when it is: ``normal`` a unit vector,
/// ``offset``, ``push`` and ``point`` finite, ``push_limit`` not negative
/// (``inf`` for a rigid plane). ``solve_planes`` sets ``push``.
#[pyclass(module = "lamina2d", name = "CollisionPlane")]
pub struct PyCollisionPlane {
    plane: CollisionPlane,
    collider: Option<Py<PyCollider>>,
    body: Option<Py<PyBody>>,
}

fn unit_normal(normal: Pair) -> PyResult<Vec2> {
    let n = vec2("normal", normal)?;
    let length = (normal.0 * normal.0 + normal.1 * normal.1).sqrt();
    if (length - 1.0).abs() > UNIT_TOLERANCE {
        return Err(world_error(format!(
            "normal must be a unit vector, got ({}, {}) of length {length}",
            normal.0, normal.1
        )));
    }
    Ok(n)
}

fn push_limit(limit: f64) -> PyResult<Real> {
    if limit.is_nan() || limit < 0.0 {
        return Err(world_error(format!("push_limit must be a number not below 0, got {limit}")));
    }
    // `inf` (and anything past the engine's largest number) is rigid.
    Ok(if limit >= Real::MAX as f64 { Real::MAX } else { limit as Real })
}

impl PyCollisionPlane {
    /// The planes' engine values, in order.
    fn engine_planes(planes: &[Bound<'_, PyCollisionPlane>]) -> Vec<CollisionPlane> {
        planes.iter().map(|p| p.borrow().plane).collect()
    }
}

#[pymethods]
impl PyCollisionPlane {
    #[new]
    #[pyo3(signature = (
        normal, offset, *, push_limit=f64::INFINITY, push=0.0, clip_velocity=true,
        collider=None, body=None, point=(0.0, 0.0)
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        normal: Pair,
        offset: f64,
        push_limit: f64,
        push: f64,
        clip_velocity: bool,
        collider: Option<Py<PyCollider>>,
        body: Option<Py<PyBody>>,
        point: Pair,
    ) -> PyResult<Self> {
        let mut plane = CollisionPlane::new(unit_normal(normal)?, real("offset", offset)?)
            .push_limit(self::push_limit(push_limit)?)
            .clip_velocity(clip_velocity);
        plane.push = real("push", push)?;
        plane.point = crate::convert::point("point", point)?;
        Ok(Self { plane, collider, body })
    }

    /// Unit normal, from the surface towards the mover.
    #[getter]
    fn normal(&self) -> Pair {
        pair(self.plane.normal)
    }

    #[setter]
    fn set_normal(&mut self, normal: Pair) -> PyResult<()> {
        self.plane.normal = unit_normal(normal)?;
        Ok(())
    }

    /// How deep the mover is in the surface along ``normal``, m: positive
    /// when it overlaps, negative when it is still that far from touching.
    #[getter]
    fn offset(&self) -> f64 {
        self.plane.offset as f64
    }

    #[setter]
    fn set_offset(&mut self, offset: f64) -> PyResult<()> {
        self.plane.offset = real("offset", offset)?;
        Ok(())
    }

    /// The most the plane may push the displacement, m, summed over the
    /// solver's passes: ``inf`` for a rigid surface, less for one the mover
    /// may partly pass into (something it shoves).
    #[getter]
    fn push_limit(&self) -> f64 {
        if self.plane.push_limit == Real::MAX { f64::INFINITY } else { self.plane.push_limit as f64 }
    }

    #[setter]
    fn set_push_limit(&mut self, limit: f64) -> PyResult<()> {
        self.plane.push_limit = self::push_limit(limit)?;
        Ok(())
    }

    /// How far the plane pushed in the last ``solve_planes`` it was given
    /// to, m (0 for a plane the solver did not need).
    #[getter]
    fn push(&self) -> f64 {
        self.plane.push as f64
    }

    #[setter]
    fn set_push(&mut self, push: f64) -> PyResult<()> {
        self.plane.push = real("push", push)?;
        Ok(())
    }

    /// Whether ``clip_vector`` takes away the part of a velocity that points
    /// into this plane (when it pushed).
    #[getter]
    fn clip_velocity(&self) -> bool {
        self.plane.clip_velocity
    }

    #[setter]
    fn set_clip_velocity(&mut self, clip: bool) {
        self.plane.clip_velocity = clip;
    }

    /// The collider the plane came from, or None.
    #[getter]
    fn collider(&self, py: Python<'_>) -> Option<Py<PyCollider>> {
        self.collider.as_ref().map(|c| c.clone_ref(py))
    }

    #[setter]
    fn set_collider(&mut self, collider: Option<Py<PyCollider>>) {
        self.collider = collider;
    }

    /// That collider's body, or None.
    #[getter]
    fn body(&self, py: Python<'_>) -> Option<Py<PyBody>> {
        self.body.as_ref().map(|b| b.clone_ref(py))
    }

    #[setter]
    fn set_body(&mut self, body: Option<Py<PyBody>>) {
        self.body = body;
    }

    /// Where the mover touches the surface, world frame: where a character
    /// pushes the body it walks into. The origin for a plane made by hand.
    #[getter]
    fn point(&self) -> Pair {
        point_pair(self.plane.point)
    }

    #[setter]
    fn set_point(&mut self, p: Pair) -> PyResult<()> {
        self.plane.point = point("point", p)?;
        Ok(())
    }

    /// ``normal · d − offset``: positive when displacement ``d`` ends clear
    /// of the plane.
    fn separation(&self, d: Pair) -> PyResult<f64> {
        Ok(self.plane.separation(vec2("d", d)?) as f64)
    }

    fn __repr__(&self) -> String {
        let n = self.plane.normal;
        let limit = if self.plane.push_limit == Real::MAX {
            String::new()
        } else {
            format!(", push_limit={}", self.plane.push_limit)
        };
        format!(
            "CollisionPlane(normal=({}, {}), offset={}{limit}, push={}, clip_velocity={})",
            n.x,
            n.y,
            self.plane.offset,
            self.plane.push,
            if self.plane.clip_velocity { "True" } else { "False" }
        )
    }
}

/// What ``solve_planes`` found: ``translation``, the displacement that ends
/// outside every plane (within the linear slop, 5 mm), and ``iterations``,
/// the solver's passes over the planes (at most 20; 0 for no planes).
#[pyclass(module = "lamina2d", name = "PlaneSolution", frozen, get_all)]
pub struct PyPlaneSolution {
    /// The displacement, m.
    pub translation: Pair,
    /// Passes over the planes.
    pub iterations: usize,
}

#[pymethods]
impl PyPlaneSolution {
    fn __repr__(&self) -> String {
        format!("PlaneSolution(translation={:?}, iterations={})", self.translation, self.iterations)
    }
}

/// Bends ``target_delta``, the displacement a mover would like, so that it
/// ends outside every plane, sliding along them (Box2D's ``b2SolvePlanes``).
/// Each plane's ``push`` is set, in place, to how far it pushed, which
/// ``clip_vector`` reads.
#[pyfunction]
#[pyo3(name = "solve_planes")]
fn py_solve_planes(
    target_delta: Pair,
    planes: Vec<Bound<'_, PyCollisionPlane>>,
) -> PyResult<PyPlaneSolution> {
    let target = vec2("target_delta", target_delta)?;
    let mut engine = PyCollisionPlane::engine_planes(&planes);
    let solution = solve_planes(target, &mut engine);
    for (object, solved) in planes.iter().zip(&engine) {
        object.borrow_mut().plane.push = solved.push;
    }
    Ok(PyPlaneSolution { translation: pair(solution.translation), iterations: solution.iterations })
}

/// ``v`` without the part that points into each plane that pushed in the
/// last ``solve_planes`` (``push != 0``) and clips (``clip_velocity``),
/// as Box2D's ``b2ClipVector``.
#[pyfunction]
#[pyo3(name = "clip_vector")]
fn py_clip_vector(v: Pair, planes: Vec<Bound<'_, PyCollisionPlane>>) -> PyResult<Pair> {
    let v = vec2("v", v)?;
    Ok(pair(clip_vector(v, &PyCollisionPlane::engine_planes(&planes))))
}

/// The mover `shape` moved to `position`, in world coordinates: a circle
/// becomes a capsule whose two centres are one point (which the engine
/// takes as a circle there). Other shapes are passed on for the engine to
/// refuse by kind.
fn placed_mover(shape: &Shape, position: Pair) -> PyResult<Shape> {
    let p = vec2("position", position)?;
    Ok(match shape {
        Shape::Circle(c) => {
            let centre = Point::from(p);
            Shape::capsule(centre, centre, c.radius)
        }
        Shape::Capsule(c) => Shape::capsule(c.a + p, c.b + p, c.radius),
        other => other.clone(),
    })
}

#[pymethods]
impl PyWorld {
    /// Applies a radial blast at once, as Box2D's ``b2World_Explode``: each
    /// collider of a dynamic body within ``radius + falloff`` of ``position``
    /// whose category has a bit in ``mask`` gets an impulse away from the
    /// blast, at its point nearest it, of ``impulse_per_length`` (N·s/m)
    /// times the width it shows the blast, whole within ``radius`` and
    /// fading linearly to nothing across ``falloff``. The defaults are the
    /// engine's: no falloff, no impulse (the blast only wakes what it
    /// reaches), every category.
    #[pyo3(signature = (position, radius, *, falloff=0.0, impulse_per_length=0.0, mask=None))]
    fn explode(
        &mut self,
        position: Pair,
        radius: f64,
        falloff: f64,
        impulse_per_length: f64,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mask: u32 = mask.map_or(Ok(u32::MAX), |v| crate::convert::integer("mask", v))?;
        let desc = ExplosionDesc::new(point("position", position)?, real("radius", radius)?)
            .falloff(real("falloff", falloff)?)
            .impulse_per_length(real("impulse_per_length", impulse_per_length)?)
            .mask(mask);
        self.world.explode(&desc).map_err(from_engine)
    }

    /// The fraction (0 to 1) of ``translation`` that ``mover`` (a
    /// ``Capsule`` or a ``Circle``, placed at ``position``) can travel before
    /// it sinks more than the linear slop into a collider, as Box2D's
    /// ``b2World_CastMover``. Sensors are always skipped.
    #[pyo3(signature = (mover, translation, *, position=(0.0, 0.0), exclude_body=None, category=None, mask=None))]
    #[allow(clippy::too_many_arguments)]
    fn cast_mover(
        slf: &Bound<'_, Self>,
        mover: PyRef<'_, PyShape>,
        translation: Pair,
        position: Pair,
        exclude_body: Option<PyRef<'_, PyBody>>,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<f64> {
        let f = filter(slf, exclude_body, false, category, mask)?;
        let shape = placed_mover(&mover.shape, position)?;
        let translation = vec2("translation", translation)?;
        let fraction = slf.borrow().world.try_cast_mover(&shape, translation, &f).map_err(from_engine)?;
        Ok(fraction as f64)
    }

    /// One ``CollisionPlane`` for each collider that ``mover`` (a
    /// ``Capsule`` or a ``Circle``, placed at ``position``) touches or
    /// overlaps now, in collider key order, as Box2D's
    /// ``b2World_CollideMover``: rigid, clipping velocities, with the
    /// collider, its body and the touch point. Sensors are always skipped.
    #[pyo3(signature = (mover, *, position=(0.0, 0.0), exclude_body=None, category=None, mask=None))]
    fn collide_mover(
        slf: &Bound<'_, Self>,
        mover: PyRef<'_, PyShape>,
        position: Pair,
        exclude_body: Option<PyRef<'_, PyBody>>,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyCollisionPlane>> {
        let f = filter(slf, exclude_body, false, category, mask)?;
        let shape = placed_mover(&mover.shape, position)?;
        let mut planes = Vec::new();
        slf.borrow().world.try_collide_mover(&shape, &f, &mut planes).map_err(from_engine)?;
        planes
            .into_iter()
            .map(|plane| {
                let (body, collider) = match (plane.body, plane.collider) {
                    (Some(b), Some(c)) => {
                        let (b, c) = handles(slf, b, c)?;
                        (Some(b), Some(c))
                    }
                    _ => (None, None),
                };
                Ok(PyCollisionPlane { plane, collider, body })
            })
            .collect()
    }
}

/// Adds the gameplay classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCollisionPlane>()?;
    m.add_class::<PyPlaneSolution>()?;
    m.add_function(wrap_pyfunction!(py_solve_planes, m)?)?;
    m.add_function(wrap_pyfunction!(py_clip_vector, m)?)?;
    Ok(())
}
