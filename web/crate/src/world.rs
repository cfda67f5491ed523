//! `RawWorld`: the engine's world with the calls the JavaScript `World`
//! makes, and `Settings`, the `WorldSettings` it is made from, set field by
//! field by name. Steps run on the calling thread alone (wasm32 has no
//! threads here), which gives the same bits as any thread count natively.

use lamina2d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::convert::{Result, angle_of, engine, error, real, vec2};

/// A world's settings, filled in by name before the world is made.
#[wasm_bindgen]
pub struct Settings {
    pub(crate) settings: WorldSettings,
}

#[wasm_bindgen]
impl Settings {
    /// The engine's defaults.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Settings {
        Settings { settings: WorldSettings::default() }
    }

    /// Sets gravity, m/s².
    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&mut self, x: f64, y: f64) -> Result<()> {
        self.settings.gravity = vec2("gravity", x, y)?;
        Ok(())
    }

    /// Sets the number field `name` (the JavaScript name, camelCase); flags
    /// come as 0 or 1.
    pub fn set(&mut self, name: &str, value: f64) -> Result<()> {
        let s = &mut self.settings;
        let number = || real(name, value);
        let flag = || value != 0.0;
        match name {
            "substeps" => {
                if !(value.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&value)) {
                    return Err(error(format!("substeps must be a whole number, got {value}")));
                }
                s.substeps = value as u32
            }
            "contactHertz" => s.contact_hertz = number()?,
            "contactDampingRatio" => s.contact_damping_ratio = number()?,
            "contactPushMaxVelocity" => s.contact_push_max_velocity = number()?,
            "jointHertz" => s.joint_hertz = number()?,
            "jointDampingRatio" => s.joint_damping_ratio = number()?,
            "restitutionThreshold" => s.restitution_threshold = number()?,
            "speculativeDistance" => s.speculative_distance = number()?,
            "sleepLinearVelocity" => s.sleep_linear_velocity = number()?,
            "timeToSleep" => s.time_to_sleep = number()?,
            "maxLinearSpeed" => s.max_linear_speed = number()?,
            "hitEventThreshold" => {
                s.hit_event_threshold = if value == f64::INFINITY { Real::INFINITY } else { number()? }
            }
            "enableSleep" => s.enable_sleep = flag(),
            "enableWarmStarting" => s.enable_warm_starting = flag(),
            "enableContinuous" => s.enable_continuous = flag(),
            "keepEvents" => s.keep_events = flag(),
            _ => return Err(error(format!("World has no setting named {name:?}"))),
        }
        Ok(())
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self::new()
    }
}

/// The world and the buffers its bulk reads fill.
#[wasm_bindgen]
pub struct RawWorld {
    pub(crate) world: World,
    /// What `positions()` and `angles()` return views on.
    positions: Vec<Real>,
    angles: Vec<Real>,
    velocities: Vec<Real>,
}

impl RawWorld {
    fn wrap(mut world: World) -> RawWorld {
        // One thread, and no clock: wasm32-unknown-unknown has neither.
        world.set_sharing(Sharing::Never);
        RawWorld { world, positions: Vec::new(), angles: Vec::new(), velocities: Vec::new() }
    }
}

#[wasm_bindgen]
impl RawWorld {
    /// A world of `settings` (which it takes).
    #[wasm_bindgen(constructor)]
    pub fn new(settings: Settings) -> Result<RawWorld> {
        Ok(Self::wrap(World::try_new(settings.settings).map_err(engine)?))
    }

    /// Advances the world by `dt` seconds.
    pub fn step(&mut self, dt: f64) -> Result<()> {
        let dt = real("dt", dt)?;
        self.world.step(dt).map_err(engine)
    }

    /// The engine's `state_hash`: every body's pose and velocity bits, in key order.
    #[wasm_bindgen(js_name = stateHash)]
    pub fn state_hash(&self) -> u64 {
        self.world.state_hash()
    }

    /// Sets gravity, m/s².
    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&mut self, x: f64, y: f64) -> Result<()> {
        self.world.set_gravity(vec2("gravity", x, y)?).map_err(engine)
    }

    /// Gravity as `[x, y]`.
    pub fn gravity(&self) -> Box<[f64]> {
        let g = self.world.settings().gravity;
        Box::new([g.x as f64, g.y as f64])
    }

    #[wasm_bindgen(js_name = bodyCount)]
    pub fn body_count(&self) -> usize {
        self.world.body_count()
    }

    #[wasm_bindgen(js_name = jointCount)]
    pub fn joint_count(&self) -> usize {
        self.world.joint_count()
    }

    /// Wakes every sleeping body.
    #[wasm_bindgen(js_name = wakeAll)]
    pub fn wake_all(&mut self) {
        self.world.wake_all();
    }

    /// The world as snapshot bytes.
    pub fn snapshot(&self) -> Vec<u8> {
        self.world.snapshot()
    }

    /// The world a snapshot saved.
    pub fn restore(bytes: &[u8]) -> Result<RawWorld> {
        let world = World::restore(bytes).map_err(|e| error(format!("not a snapshot of a world: {e}")))?;
        Ok(Self::wrap(world))
    }

    /// A copy that steps on bit for bit as this world.
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_world(&self) -> RawWorld {
        Self::wrap(self.world.clone())
    }

    /// The bodies' origins, `x0, y0, x1, y1, ...` in key order: a view on
    /// the wasm memory, valid until the next call into the module (one that
    /// grows the memory detaches it).
    pub fn positions(&mut self) -> js_sys::Float32Array {
        self.positions.clear();
        for (_, b) in self.world.bodies() {
            let t = b.translation();
            self.positions.extend([t.x, t.y]);
        }
        view(&self.positions)
    }

    /// The bodies' angles in key order, a view as `positions`'.
    pub fn angles(&mut self) -> js_sys::Float32Array {
        self.angles.clear();
        self.angles.extend(self.world.bodies().map(|(_, b)| angle_of(&b.position().rotation)));
        view(&self.angles)
    }

    /// The bodies' velocities, `vx0, vy0, w0, ...` in key order, a view as `positions`'.
    pub fn velocities(&mut self) -> js_sys::Float32Array {
        self.velocities.clear();
        for (_, b) in self.world.bodies() {
            let v = b.linear_velocity();
            self.velocities.extend([v.x, v.y, b.angular_velocity()]);
        }
        view(&self.velocities)
    }

    /// Panics inside a call, for the test that a world whose call panicked
    /// is refused afterwards.
    #[wasm_bindgen(js_name = panicForTest)]
    pub fn panic_for_test(&mut self) {
        panic!("a panic asked for by a test");
    }
}

/// A view on `values` in the wasm memory.
fn view(values: &[Real]) -> js_sys::Float32Array {
    // SAFETY: the view is handed to JavaScript at once; the JavaScript
    // half documents that it is valid until the next call into the module,
    // which may move `values` or grow (and so detach) the memory.
    unsafe { js_sys::Float32Array::view(values) }
}
