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

#[wasm_bindgen]
impl RawWorld {
    /// The contact events, three numbers each: [`BEGIN`] or [`END`], then
    /// the two colliders' keys.
    #[wasm_bindgen(js_name = contactEvents)]
    pub fn contact_events(&self) -> Vec<u64> {
        let mut out = Vec::with_capacity(3 * self.world.contact_events().len());
        for event in self.world.contact_events() {
            let (kind, a, b) = match *event {
                ContactEvent::Begin { a, b } => (BEGIN, a, b),
                ContactEvent::End { a, b } => (END, a, b),
            };
            out.extend([kind, bits(a), bits(b)]);
        }
        out
    }

    /// The sensor events, three numbers each: [`BEGIN`] or [`END`], then
    /// the sensor's key and the visitor's.
    #[wasm_bindgen(js_name = sensorEvents)]
    pub fn sensor_events(&self) -> Vec<u64> {
        let mut out = Vec::with_capacity(3 * self.world.sensor_events().len());
        for event in self.world.sensor_events() {
            let (kind, sensor, visitor) = match *event {
                SensorEvent::Begin { sensor, visitor } => (BEGIN, sensor, visitor),
                SensorEvent::End { sensor, visitor } => (END, sensor, visitor),
            };
            out.extend([kind, bits(sensor), bits(visitor)]);
        }
        out
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
