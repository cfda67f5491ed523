//! JavaScript numbers to the engine's and back, and the error a refused
//! call throws: a string with the engine's message, which the JavaScript
//! half throws as a `LaminaError`.

use lamina2d::prelude::*;
use wasm_bindgen::JsValue;

/// What a call returns: its value, or the message of the bad input.
pub type Result<T> = std::result::Result<T, JsValue>;

/// The error that names a bad input.
pub fn error(message: impl AsRef<str>) -> JsValue {
    JsValue::from_str(message.as_ref())
}

/// The engine's error as the error of a call.
pub fn engine(e: WorldError) -> JsValue {
    error(e.to_string())
}

/// The engine's scalar from a JavaScript number, refusing what is not
/// finite there (`name` names the value in the message).
pub fn real(name: &str, value: f64) -> Result<Real> {
    let r = value as Real;
    if value.is_finite() && r.is_finite() {
        Ok(r)
    } else {
        Err(error(format!("{name} must be a finite number, got {value}")))
    }
}

/// A vector from two numbers, refusing non-finite coordinates.
pub fn vec2(name: &str, x: f64, y: f64) -> Result<Vec2> {
    Ok(Vec2::new(real(&format!("{name}[0]"), x)?, real(&format!("{name}[1]"), y)?))
}

/// A point from two numbers, refusing non-finite coordinates.
pub fn point(name: &str, x: f64, y: f64) -> Result<Point> {
    Ok(Point::from(vec2(name, x, y)?))
}

/// The bits of a key, as JavaScript holds them.
pub fn bits(key: impl slotmap::Key) -> u64 {
    key.data().as_ffi()
}

/// A key of `world` from its bits.
pub fn key<K: WorldKey>(world: &World, bits: u64) -> K {
    K::from(slotmap::KeyData::from_ffi(bits)).in_world(world.tag())
}

/// A rotation's angle in (−π, π], from the engine's platform-independent
/// arctangent (std's differs in the last bit between platforms).
pub fn angle_of(rotation: &Rotation) -> Real {
    lamina2d::geometry::trig::atan2(rotation.im, rotation.re)
}

/// The rotation by `angle`, from the engine's platform-independent sine
/// and cosine, as a body made at that angle gets it.
pub fn rotation(angle: Real) -> Rotation {
    let (sin, cos) = lamina2d::geometry::trig::sin_cos(angle);
    Rotation::from_cos_sin_unchecked(cos, sin)
}
