//! The world's queries: ray casts (closest hit and every hit), box, point and
//! shape overlaps, and shape casts. Every query takes the same keyword
//! filter: `exclude_body`, `exclude_sensors`, and `category`/`mask` (the
//! query acts as a collider of that category and mask).

use lamina2d::prelude::*;
use pyo3::prelude::*;

use crate::convert::{Pair, pair, point, point_pair, real, vec2};
use crate::errors::from_engine;
use crate::handles::{PyBody, PyCollider};
use crate::shapes::PyShape;
use crate::world::PyWorld;

/// Where a ray met a collider.
#[pyclass(module = "lamina2d", name = "RayHit", frozen, get_all)]
pub struct PyRayHit {
    /// The body hit.
    pub body: Py<PyBody>,
    /// The collider hit.
    pub collider: Py<PyCollider>,
    /// The hit point, world frame.
    pub point: Pair,
    /// The collider's outward unit normal there.
    pub normal: Pair,
    /// How far along the translation the hit is, 0 to 1.
    pub fraction: f64,
}

#[pymethods]
impl PyRayHit {
    fn __repr__(&self) -> String {
        format!("RayHit(point={:?}, normal={:?}, fraction={})", self.point, self.normal, self.fraction)
    }
}

/// Where a moving shape first touched a collider.
#[pyclass(module = "lamina2d", name = "ShapeHit", frozen, get_all)]
pub struct PyShapeHit {
    /// The body hit.
    pub body: Py<PyBody>,
    /// The collider hit.
    pub collider: Py<PyCollider>,
    /// The contact point on the collider, world frame.
    pub point: Pair,
    /// The collider's outward unit normal there, toward the moving shape.
    pub normal: Pair,
    /// The fraction of the translation travelled when they touch, 0 to 1.
    pub fraction: f64,
}

#[pymethods]
impl PyShapeHit {
    fn __repr__(&self) -> String {
        format!("ShapeHit(point={:?}, normal={:?}, fraction={})", self.point, self.normal, self.fraction)
    }
}

/// The keyword filter as the engine's, checked against this world.
pub(crate) fn filter<'a>(
    slf: &Bound<'_, PyWorld>,
    exclude_body: Option<PyRef<'_, PyBody>>,
    exclude_sensors: bool,
    category: Option<&Bound<'_, PyAny>>,
    mask: Option<&Bound<'_, PyAny>>,
) -> PyResult<QueryFilter<'a>> {
    use crate::convert::integer;
    let category: Option<u32> = category.map(|v| integer("category", v)).transpose()?;
    let mask: Option<u32> = mask.map(|v| integer("mask", v)).transpose()?;
    let mut f = QueryFilter::default();
    if let Some(body) = exclude_body {
        f = f.exclude_body(PyBody::key_in(slf, &body)?);
    }
    if exclude_sensors {
        f = f.exclude_sensors();
    }
    if category.is_some() || mask.is_some() {
        f = f.groups(CollisionFilter {
            category: category.unwrap_or(1),
            mask: mask.unwrap_or(u32::MAX),
            group: 0,
        });
    }
    Ok(f)
}

/// The handles of a hit's body and collider.
pub(crate) fn handles(
    slf: &Bound<'_, PyWorld>,
    body: BodyKey,
    key: ColliderKey,
) -> PyResult<(Py<PyBody>, Py<PyCollider>)> {
    let py = slf.py();
    Ok((
        Py::new(py, PyBody { world: slf.clone().unbind(), key: body })?,
        Py::new(py, PyCollider { world: slf.clone().unbind(), key })?,
    ))
}

fn ray_hit(slf: &Bound<'_, PyWorld>, hit: &WorldRayHit) -> PyResult<PyRayHit> {
    let (body, collider) = handles(slf, hit.body, hit.collider)?;
    Ok(PyRayHit {
        body,
        collider,
        point: point_pair(hit.point),
        normal: pair(hit.normal),
        fraction: hit.toi as f64,
    })
}

fn collider_handles(slf: &Bound<'_, PyWorld>, keys: &[ColliderKey]) -> Vec<PyCollider> {
    keys.iter().map(|&key| PyCollider { world: slf.clone().unbind(), key }).collect()
}

#[pymethods]
impl PyWorld {
    /// The closest collider that the segment from `origin` along
    /// `translation` meets, or None.
    #[pyo3(signature = (origin, translation, *, exclude_body=None, exclude_sensors=false, category=None, mask=None))]
    fn cast_ray(
        slf: &Bound<'_, Self>,
        origin: Pair,
        translation: Pair,
        exclude_body: Option<PyRef<'_, PyBody>>,
        exclude_sensors: bool,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyRayHit>> {
        let f = filter(slf, exclude_body, exclude_sensors, category, mask)?;
        let ray = Ray::new(point("origin", origin)?, vec2("translation", translation)?);
        let this = slf.borrow();
        let hit = this.world.try_cast_ray(&ray, 1.0, &f).map_err(from_engine)?;
        hit.map(|h| ray_hit(slf, &h)).transpose()
    }

    /// Every collider that the segment from `origin` along `translation`
    /// meets, nearest first.
    #[pyo3(signature = (origin, translation, *, exclude_body=None, exclude_sensors=false, category=None, mask=None))]
    fn cast_ray_all(
        slf: &Bound<'_, Self>,
        origin: Pair,
        translation: Pair,
        exclude_body: Option<PyRef<'_, PyBody>>,
        exclude_sensors: bool,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyRayHit>> {
        let f = filter(slf, exclude_body, exclude_sensors, category, mask)?;
        let ray = Ray::new(point("origin", origin)?, vec2("translation", translation)?);
        let this = slf.borrow();
        let mut hits = Vec::new();
        this.world.try_cast_ray_all(&ray, 1.0, &f, &mut hits).map_err(from_engine)?;
        hits.iter().map(|h| ray_hit(slf, h)).collect()
    }

    /// The colliders whose bounds overlap the box from `lower` to `upper`.
    #[pyo3(signature = (lower, upper, *, exclude_body=None, exclude_sensors=false, category=None, mask=None))]
    fn query_aabb(
        slf: &Bound<'_, Self>,
        lower: Pair,
        upper: Pair,
        exclude_body: Option<PyRef<'_, PyBody>>,
        exclude_sensors: bool,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyCollider>> {
        let f = filter(slf, exclude_body, exclude_sensors, category, mask)?;
        let aabb = Aabb::new(point("lower", lower)?, point("upper", upper)?);
        let mut keys = Vec::new();
        slf.borrow().world.try_query_aabb(&aabb, &f, &mut keys).map_err(from_engine)?;
        Ok(collider_handles(slf, &keys))
    }

    /// The colliders whose shape contains `point`.
    #[pyo3(signature = (point, *, exclude_body=None, exclude_sensors=false, category=None, mask=None))]
    fn query_point(
        slf: &Bound<'_, Self>,
        point: Pair,
        exclude_body: Option<PyRef<'_, PyBody>>,
        exclude_sensors: bool,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyCollider>> {
        let f = filter(slf, exclude_body, exclude_sensors, category, mask)?;
        let p = crate::convert::point("point", point)?;
        let mut keys = Vec::new();
        slf.borrow().world.try_query_point(p, &f, &mut keys).map_err(from_engine)?;
        Ok(collider_handles(slf, &keys))
    }

    /// The colliders that overlap `shape` placed at `position` turned by `angle`.
    #[pyo3(signature = (shape, position=(0.0, 0.0), angle=0.0, *, exclude_body=None, exclude_sensors=false, category=None, mask=None))]
    #[allow(clippy::too_many_arguments)]
    fn overlap_shape(
        slf: &Bound<'_, Self>,
        shape: PyRef<'_, PyShape>,
        position: Pair,
        angle: f64,
        exclude_body: Option<PyRef<'_, PyBody>>,
        exclude_sensors: bool,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyCollider>> {
        let f = filter(slf, exclude_body, exclude_sensors, category, mask)?;
        let pose = Isometry::new(vec2("position", position)?, real("angle", angle)?);
        let mut keys = Vec::new();
        slf.borrow().world.try_overlap_shape(&shape.shape, &pose, &f, &mut keys).map_err(from_engine)?;
        Ok(collider_handles(slf, &keys))
    }

    /// The first collider that `shape`, placed at `position` turned by
    /// `angle` and moved along `translation` without turning, touches; or None.
    #[pyo3(signature = (shape, position, angle, translation, *, exclude_body=None, exclude_sensors=false, category=None, mask=None))]
    #[allow(clippy::too_many_arguments)]
    fn cast_shape(
        slf: &Bound<'_, Self>,
        shape: PyRef<'_, PyShape>,
        position: Pair,
        angle: f64,
        translation: Pair,
        exclude_body: Option<PyRef<'_, PyBody>>,
        exclude_sensors: bool,
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyShapeHit>> {
        let f = filter(slf, exclude_body, exclude_sensors, category, mask)?;
        let pose = Isometry::new(vec2("position", position)?, real("angle", angle)?);
        let velocity = vec2("translation", translation)?;
        let this = slf.borrow();
        let hit = this.world.try_cast_shape(&shape.shape, &pose, velocity, 1.0, &f).map_err(from_engine)?;
        hit.map(|h| {
            let (body, collider) = handles(slf, h.body, h.collider)?;
            Ok(PyShapeHit {
                body,
                collider,
                point: point_pair(h.point),
                normal: pair(h.normal),
                fraction: h.toi as f64,
            })
        })
        .transpose()
    }
}

/// Adds the hit classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRayHit>()?;
    m.add_class::<PyShapeHit>()?;
    Ok(())
}
