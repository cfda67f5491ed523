//! Lamina's narrow phase: GJK (overlap, distance, closest points), EPA
//! (penetration depth and direction), contact manifolds by clipping, and time of
//! impact, for every pair of [`lamina_geometry::Shape`]s and for user support maps.
