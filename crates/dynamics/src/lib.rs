//! Lamina's dynamics: bodies, colliders, the `World`, and its soft-step impulse
//! solver with warm starting, friction, restitution, islands and sleeping.
