//! What the last step reported (or the steps since `clearEvents`, with the
//! `keepEvents` setting): contacts that began or stopped touching, sensors
//! entered and left, and hits. Each list comes as flat typed arrays, a few
//! numbers an event, which the JavaScript half turns into objects: one copy
//! across the boundary for the whole list rather than one object per event.

use lamina2d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::convert::bits;
use crate::world::RawWorld;

/// The first number of a contact or sensor event: it began.
const BEGIN: u64 = 1;
/// The first number of a contact or sensor event: it ended.
const END: u64 = 0;

/// Events that begin or end between two colliders, as three numbers each:
/// [`BEGIN`] or [`END`], then the two keys that `split` names.
fn flat_pairs<E>(events: &[E], split: impl Fn(&E) -> (bool, ColliderKey, ColliderKey)) -> Vec<u64> {
    let mut out = Vec::with_capacity(3 * events.len());
    for event in events {
        let (begins, a, b) = split(event);
        out.extend([if begins { BEGIN } else { END }, bits(a), bits(b)]);
    }
    out
}

#[wasm_bindgen]
impl RawWorld {
    /// The contact events, three numbers each: [`BEGIN`] or [`END`], then
    /// the two colliders' keys.
    #[wasm_bindgen(js_name = contactEvents)]
    pub fn contact_events(&self) -> Vec<u64> {
        flat_pairs(self.world.contact_events(), |e| match *e {
            ContactEvent::Begin { a, b } => (true, a, b),
            ContactEvent::End { a, b } => (false, a, b),
        })
    }

    /// The sensor events, three numbers each: [`BEGIN`] or [`END`], then
    /// the sensor's key and the visitor's.
    #[wasm_bindgen(js_name = sensorEvents)]
    pub fn sensor_events(&self) -> Vec<u64> {
        flat_pairs(self.world.sensor_events(), |e| match *e {
            SensorEvent::Begin { sensor, visitor } => (true, sensor, visitor),
            SensorEvent::End { sensor, visitor } => (false, sensor, visitor),
        })
    }

    /// The hit events' colliders, two keys each, in the order of
    /// [`RawWorld::hit_event_values`].
    #[wasm_bindgen(js_name = hitEventKeys)]
    pub fn hit_event_keys(&self) -> Vec<u64> {
        self.world.hit_events().iter().flat_map(|h| [bits(h.a), bits(h.b)]).collect()
    }

    /// The hit events' numbers, five each: the point (x, y), the normal
    /// from the first collider to the second (x, y), and the approach
    /// speed, m/s.
    #[wasm_bindgen(js_name = hitEventValues)]
    pub fn hit_event_values(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(5 * self.world.hit_events().len());
        for h in self.world.hit_events() {
            out.extend([h.point.x, h.point.y, h.normal.x, h.normal.y, h.approach_speed].map(|v| v as f64));
        }
        out
    }

    /// Forgets the events kept so far.
    #[wasm_bindgen(js_name = clearEvents)]
    pub fn clear_events(&mut self) {
        self.world.clear_events();
    }
}
