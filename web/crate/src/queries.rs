//! The world's queries: the closest collider along a ray, and the
//! colliders in a box or at a point. Each takes a filter: a body whose
//! colliders are skipped (or none) and whether sensors are.

use lamina2d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::convert::{Result, bits, engine, point, vec2};
use crate::world::RawWorld;

/// A ray's hit: the collider and its body, the fraction of the ray's
/// translation at which it meets the collider, the point and the normal.
#[wasm_bindgen]
pub struct RawRayHit {
    pub collider: u64,
    pub body: u64,
    pub fraction: f64,
    #[wasm_bindgen(js_name = pointX)]
    pub point_x: f64,
    #[wasm_bindgen(js_name = pointY)]
    pub point_y: f64,
    #[wasm_bindgen(js_name = normalX)]
    pub normal_x: f64,
    #[wasm_bindgen(js_name = normalY)]
    pub normal_y: f64,
}

impl RawWorld {
    fn filter(&self, exclude_body: Option<u64>, exclude_sensors: bool) -> Result<QueryFilter<'_>> {
        let mut f = QueryFilter::default();
        if let Some(body) = exclude_body {
            f = f.exclude_body(self.body_key(body)?);
        }
        if exclude_sensors {
            f = f.exclude_sensors();
        }
        Ok(f)
    }
}

#[wasm_bindgen]
impl RawWorld {
    /// The closest collider that the segment from `origin` along
    /// `translation` meets, or none.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = castRay)]
    pub fn cast_ray(
        &self,
        ox: f64,
        oy: f64,
        tx: f64,
        ty: f64,
        exclude_body: Option<u64>,
        exclude_sensors: bool,
    ) -> Result<Option<RawRayHit>> {
        let f = self.filter(exclude_body, exclude_sensors)?;
        let ray = Ray::new(point("origin", ox, oy)?, vec2("translation", tx, ty)?);
        let hit = self.world.try_cast_ray(&ray, 1.0, &f).map_err(engine)?;
        Ok(hit.map(|h| RawRayHit {
            collider: bits(h.collider),
            body: bits(h.body),
            fraction: h.toi as f64,
            point_x: h.point.x as f64,
            point_y: h.point.y as f64,
            normal_x: h.normal.x as f64,
            normal_y: h.normal.y as f64,
        }))
    }

    /// The colliders whose bounds overlap the box from `lower` to `upper`.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = queryAabb)]
    pub fn query_aabb(
        &self,
        lx: f64,
        ly: f64,
        ux: f64,
        uy: f64,
        exclude_body: Option<u64>,
        exclude_sensors: bool,
    ) -> Result<Vec<u64>> {
        let f = self.filter(exclude_body, exclude_sensors)?;
        let aabb = Aabb::new(point("lower", lx, ly)?, point("upper", ux, uy)?);
        let mut keys = Vec::new();
        self.world.try_query_aabb(&aabb, &f, &mut keys).map_err(engine)?;
        Ok(keys.into_iter().map(bits).collect())
    }

    /// The colliders whose shape contains `point`.
    #[wasm_bindgen(js_name = queryPoint)]
    pub fn query_point(
        &self,
        x: f64,
        y: f64,
        exclude_body: Option<u64>,
        exclude_sensors: bool,
    ) -> Result<Vec<u64>> {
        let f = self.filter(exclude_body, exclude_sensors)?;
        let mut keys = Vec::new();
        self.world.try_query_point(point("point", x, y)?, &f, &mut keys).map_err(engine)?;
        Ok(keys.into_iter().map(bits).collect())
    }
}
