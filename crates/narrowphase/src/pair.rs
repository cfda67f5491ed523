//! A pair of shapes seen from A's frame: the cores, the radii and the relative
//! transform that every query starts from.

use lamina_geometry::{Isometry, Real, Shape, Vec2};

use crate::closed_form::{self, Separation};
use crate::epa::{EpaOutput, epa};
use crate::gjk::{GjkOutput, gjk_distance};
use crate::pairs::boxes::BoxView;
use crate::shape_core::Core;

/// Two shapes reduced to their cores, B placed in A's frame.
pub(crate) struct CorePair<'a> {
    pub a: Core<'a>,
    pub b: Core<'a>,
    pub radius_a: Real,
    pub radius_b: Real,
    /// B's frame to A's.
    pub xf: Isometry,
}

/// How the cores relate: apart (GJK's closest points) or overlapping (EPA's answer).
pub(crate) enum CoreContact {
    Apart(GjkOutput),
    Overlapping(EpaOutput),
}

impl<'a> CorePair<'a> {
    #[inline]
    pub fn new(a: &'a Shape, pa: &Isometry, b: &'a Shape, pb: &Isometry) -> Self {
        let (core_a, radius_a) = Core::of(a);
        let (core_b, radius_b) = Core::of(b);
        Self { a: core_a, b: core_b, radius_a, radius_b, xf: pa.inv_mul(pb) }
    }

    /// A vector roughly from B's core towards A's: GJK's first search direction.
    pub fn guess(&self) -> Vec2 {
        self.a.interior_point() - self.xf * self.b.interior_point()
    }

    /// GJK on the cores, then EPA if they overlap.
    pub fn core_contact(&self) -> CoreContact {
        let guess = self.guess();
        let g = gjk_distance(&self.a, &self.b, &self.xf, &guess);
        if g.overlapping {
            CoreContact::Overlapping(epa(&self.a, &self.b, &self.xf, &g.simplex, &-guess))
        } else {
            CoreContact::Apart(g)
        }
    }

    /// The separation in closed form, for the pairs that have one (see
    /// `closed_form.rs`); `None` sends the pair to GJK and EPA.
    #[inline(always)]
    fn closed_form_separation(&self) -> Option<Separation> {
        let (ra, rb, xf) = (self.radius_a, self.radius_b, &self.xf);
        match (&self.a, &self.b) {
            (Core::Point(p), Core::Point(q)) => closed_form::point_point(p, ra, &(xf * q), rb),
            (Core::Segment(a, b), Core::Point(q)) => closed_form::segment_point(a, b, ra, &(xf * q), rb),
            (Core::Point(p), Core::Segment(a, b)) => {
                closed_form::point_segment(p, ra, &(xf * a), &(xf * b), rb)
            }
            (Core::Segment(a, b), Core::Segment(c, d)) => {
                closed_form::segment_segment([a, b], ra, [&(xf * c), &(xf * d)], rb)
            }
            (Core::Polygon(p), Core::Point(q)) if closed_form::is_small(p) => {
                closed_form::polygon_point(p, ra, &(xf * q), rb)
            }
            (Core::Point(q), Core::Polygon(p)) if closed_form::is_small(p) => {
                let s = closed_form::polygon_point(p, rb, &xf.inverse_transform_point(q), ra)?;
                Some(closed_form::swapped(&s, xf))
            }
            (Core::Polygon(p), Core::Polygon(q)) => {
                closed_form::box_box(&BoxView::of_polygon(p)?, &BoxView::of_polygon(q)?, xf)
            }
            _ => None,
        }
    }

    /// The signed separation of the full shapes, radii included.
    #[inline]
    pub fn separation(&self) -> Separation {
        match self.closed_form_separation() {
            Some(s) => s,
            None => self.costly_separation(),
        }
    }

    /// The separation of pairs with no cheap closed form: two small polygons by
    /// the separating-axis test where that settles it, GJK and EPA otherwise.
    /// Out of line, so that it does not weigh on the cheap closed forms.
    #[inline(never)]
    fn costly_separation(&self) -> Separation {
        if let (Core::Polygon(p), Core::Polygon(q)) = (&self.a, &self.b)
            && closed_form::is_small(p)
            && closed_form::is_small(q)
            && let Some(s) = closed_form::polygon_polygon(p, self.radius_a, q, self.radius_b, &self.xf)
        {
            return s;
        }
        self.core_separation()
    }

    /// [`CorePair::separation`] by GJK on the cores, then EPA if they overlap.
    #[inline(never)]
    pub fn core_separation(&self) -> Separation {
        let (ra, rb) = (self.radius_a, self.radius_b);
        match self.core_contact() {
            CoreContact::Apart(g) => {
                // Apart cores always have a direction; the fallback keeps this total.
                let normal = g.normal().unwrap_or_else(|| {
                    lamina_geometry::math::try_normalize(&-self.guess()).unwrap_or_else(Vec2::x)
                });
                Separation {
                    distance: g.distance - ra - rb,
                    normal,
                    point_a: g.point_a + normal * ra,
                    point_b: g.point_b - normal * rb,
                }
            }
            CoreContact::Overlapping(e) => Separation {
                distance: -(e.depth + ra + rb),
                normal: e.normal,
                point_a: e.point_a + e.normal * ra,
                point_b: e.point_b - e.normal * rb,
            },
        }
    }
}
