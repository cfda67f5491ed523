// lamina2d: the Lamina 2D physics engine in WebAssembly.
//
// This module is the API (`World`, its handles `Body`, `Collider`, `Joint`,
// the shapes and `LaminaError`) over the compiled module's one low-level
// class, `RawWorld` (web/crate/src). It checks the types of what it is given
// and names the option or argument that is wrong; the engine checks the
// values (finite, in range) and names them too. Either way the call throws a
// `LaminaError` and the world is unchanged.
//
// Loading: in Node, `node.js` (the package's "node" export) loads the wasm
// synchronously on import; in browsers, `await init()` (the default export)
// first. `init` picks the build with SIMD instructions where the runtime
// validates them, the build without elsewhere; both give the same bits.

import rawInit, * as raw from "./raw/lamina2d_wasm.js";

/** Thrown for every refused call; the message names the bad value. */
export class LaminaError extends Error {
    constructor(message, options) {
        super(message, options);
        this.name = "LaminaError";
    }
}

// --- loading -------------------------------------------------------------------

// The smallest module with a SIMD instruction (i8x16.splat, i8x16.popcnt):
// a runtime that validates it runs the SIMD build.
const SIMD_PROBE = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** True when the runtime runs WebAssembly SIMD (and so loads the SIMD build). */
export function simdSupported() {
    return WebAssembly.validate(SIMD_PROBE);
}

/** The file name of the build to load: `simd` true, false, or the runtime's choice. */
export function wasmFileName(simd = simdSupported()) {
    return simd ? "lamina2d_simd.wasm" : "lamina2d_nosimd.wasm";
}

let loaded = null;
let loading = null;

/** Which build is loaded: "simd", "nosimd", or null before loading. */
export function loadedBuild() {
    return loaded;
}

/**
 * Loads the compiled module, once: from `input` (a URL, a Response, bytes or a
 * WebAssembly.Module) or from the build beside this file that the runtime
 * runs. Resolves when the API is ready.
 */
export default function init(input) {
    // Calls made while the module loads wait for the same load.
    loading ??= (async () => {
        if (loaded !== null) return;
        const simd = simdSupported();
        const source = input ?? new URL(`./raw/${wasmFileName(simd)}`, import.meta.url);
        await rawInit({ module_or_path: source });
        loaded = input === undefined ? (simd ? "simd" : "nosimd") : "given";
    })().catch((error) => {
        loading = null; // a later call may try again, from another source
        throw error;
    });
    return loading;
}

/** Loads the compiled module synchronously from its bytes or a WebAssembly.Module. */
export function initSync(module, build = "given") {
    if (loaded !== null) return;
    raw.initSync({ module });
    loaded = build;
}

// --- argument checks -------------------------------------------------------------

function fail(message) {
    throw new LaminaError(message);
}

function show(value) {
    if (typeof value === "string") return JSON.stringify(value);
    if (typeof value === "bigint") return `${value}n`;
    if (Array.isArray(value)) return `[${value.map(show).join(", ")}]`;
    if (value !== null && typeof value === "object") return value.constructor?.name ?? "object";
    return String(value);
}

function number(name, value) {
    if (typeof value !== "number") fail(`${name} must be a number, got ${show(value)}`);
    return value;
}

function flag(name, value) {
    if (typeof value !== "boolean") fail(`${name} must be true or false, got ${show(value)}`);
    return value;
}

function pair(name, value) {
    if (!(Array.isArray(value) || ArrayBuffer.isView(value)) || value.length !== 2) {
        fail(`${name} must be [x, y], got ${show(value)}`);
    }
    number(`${name}[0]`, value[0]);
    number(`${name}[1]`, value[1]);
    return value;
}

function integer(name, value, lowest, highest) {
    if (!Number.isInteger(value) || value < lowest || value > highest) {
        fail(`${name} must be a whole number from ${lowest} to ${highest}, got ${show(value)}`);
    }
    return value;
}

// The options object of a call, refusing names it does not take.
function options(call, given, names) {
    if (given === undefined) return {};
    if (given === null || typeof given !== "object" || Array.isArray(given)) {
        fail(`the options of ${call} must be an object, got ${show(given)}`);
    }
    for (const name of Object.keys(given)) {
        if (!names.includes(name)) fail(`${call} has no option named ${show(name)}`);
    }
    return given;
}

// Engine refusals arrive as strings; anything else is not ours to rename.
function rethrow(error) {
    if (typeof error === "string") return new LaminaError(error);
    return error;
}

// A call into the module that belongs to no world (the shapes' checks).
function unbound(f) {
    try {
        return f();
    } catch (error) {
        if (error instanceof WebAssembly.RuntimeError) {
            const panic = raw.takePanic();
            return fail(`the engine panicked (${panic ?? error.message})`);
        }
        throw rethrow(error);
    }
}

// --- worlds ----------------------------------------------------------------------

// Each World's state, out of reach of its users: the RawWorld, and why the
// world refuses calls (freed, or a call of it panicked).
const states = new WeakMap();
// Worlds whose call panicked: their memory is never dropped (their state
// may break what a drop relies on), so their RawWorld is kept here forever,
// out of reach of wasm-bindgen's finalizer.
const poisoned = [];

function state(world) {
    const s = states.get(world);
    if (s === undefined) fail("not a World");
    return s;
}

// Runs `f` on the world's RawWorld: a refusal throws LaminaError, a panic
// (a trap: wasm32 cannot unwind) makes the world refuse every later call.
function call(world, f) {
    const s = state(world);
    if (s.refusal !== null) fail(s.refusal);
    try {
        return f(s.raw);
    } catch (error) {
        if (error instanceof WebAssembly.RuntimeError) {
            const panic = raw.takePanic() ?? error.message;
            s.refusal = `the world can no longer be used: a call panicked inside the engine (${panic})`;
            poisoned.push(s.raw);
            throw new LaminaError(s.refusal, { cause: error });
        }
        throw rethrow(error);
    }
}

function key(name, handle, kind, world) {
    if (!(handle instanceof kind)) fail(`${name} must be a ${kind.name}, got ${show(handle)}`);
    if (handle.world !== world) fail(`${name} belongs to another world`);
    return handle.key;
}

const BODY_KINDS = { dynamic: 0, fixed: 1, kinematic: 2 };
const BODY_KIND_NAMES = ["dynamic", "fixed", "kinematic"];

const SETTINGS = {
    substeps: "integer",
    contactHertz: "number",
    contactDampingRatio: "number",
    contactPushMaxVelocity: "number",
    jointHertz: "number",
    jointDampingRatio: "number",
    restitutionThreshold: "number",
    speculativeDistance: "number",
    sleepLinearVelocity: "number",
    timeToSleep: "number",
    maxLinearSpeed: "number",
    hitEventThreshold: "number",
    enableSleep: "boolean",
    enableWarmStarting: "boolean",
    enableContinuous: "boolean",
    keepEvents: "boolean",
};

const BODY_OPTIONS = [
    "position",
    "angle",
    "linearVelocity",
    "angularVelocity",
    "bullet",
    "linearDamping",
    "angularDamping",
    "gravityScale",
    "fixedRotation",
    "canSleep",
    "awake",
];

const COLLIDER_OPTIONS = [
    "density",
    "friction",
    "restitution",
    "tangentSpeed",
    "rollingResistance",
    "sensor",
    "localPosition",
    "localAngle",
    "category",
    "mask",
    "group",
];

const QUERY_OPTIONS = ["excludeBody", "excludeSensors"];

// What `World.#around` passes the constructor in place of settings: a World
// made around a RawWorld that exists already (restore, clone) still runs the
// constructor, which gives it the class's private methods.
const AROUND = Symbol("around a RawWorld");

/** A physics world: bodies, their colliders and joints, stepped in time. */
export class World {
    /**
     * `new World({ gravity: [0, -10], substeps: 4, ... })`: every field of the
     * engine's WorldSettings by its camelCase name.
     */
    constructor(settings, rawWorld) {
        if (settings === AROUND) {
            states.set(this, { raw: rawWorld, refusal: null, freed: false });
            return;
        }
        const given = options("new World", settings, ["gravity", ...Object.keys(SETTINGS)]);
        const s = unbound(() => new raw.Settings());
        try {
            if (given.gravity !== undefined) {
                const g = pair("gravity", given.gravity);
                unbound(() => s.setGravity(g[0], g[1]));
            }
            for (const [name, type] of Object.entries(SETTINGS)) {
                const value = given[name];
                if (value === undefined) continue;
                if (type === "boolean") unbound(() => s.set(name, flag(name, value) ? 1 : 0));
                else if (type === "integer") unbound(() => s.set(name, integer(name, value, 1, 0xffff_ffff)));
                else unbound(() => s.set(name, number(name, value)));
            }
        } catch (error) {
            s.free();
            throw error;
        }
        // RawWorld's constructor takes the settings (and frees them).
        states.set(this, { raw: unbound(() => new raw.RawWorld(s)), refusal: null, freed: false });
    }

    /** A World around a RawWorld already made (restore, clone). */
    static #around(rawWorld) {
        return new World(AROUND, rawWorld);
    }

    /** The world saved by `snapshot()`: it steps on bit for bit as the original. */
    static restore(bytes) {
        if (!(bytes instanceof Uint8Array)) fail(`a snapshot must be a Uint8Array, got ${show(bytes)}`);
        return World.#around(unbound(() => raw.RawWorld.restore(bytes)));
    }

    /** The world as bytes (a compact, versioned snapshot with a checksum). */
    snapshot() {
        return call(this, (r) => r.snapshot());
    }

    /** A copy that steps on bit for bit as this world. Handles of this world name the copy's parts with `copy.body(key)`. */
    clone() {
        return World.#around(call(this, (r) => r.clone()));
    }

    /** Releases the world's memory; every later call throws LaminaError. */
    free() {
        const s = state(this);
        if (s.freed) return;
        // A world whose call panicked keeps its memory (see `poisoned`).
        if (s.refusal === null) s.raw.free();
        s.freed = true;
        s.refusal = "the world was freed";
    }

    [Symbol.dispose ?? Symbol.for("Symbol.dispose")]() {
        this.free();
    }

    /** Advances the world by `dt` seconds. */
    step(dt) {
        number("dt", dt);
        call(this, (r) => r.step(dt));
    }

    /** Gravity, m/s², as [x, y]. */
    get gravity() {
        return Array.from(call(this, (r) => r.gravity()));
    }

    set gravity(g) {
        pair("gravity", g);
        call(this, (r) => r.setGravity(g[0], g[1]));
    }

    /** The number of bodies. */
    get bodyCount() {
        return call(this, (r) => r.bodyCount());
    }

    /** The number of joints. */
    get jointCount() {
        return call(this, (r) => r.jointCount());
    }

    /** The Rust state_hash (a bigint): equal hashes mean bit-identical states. */
    stateHash() {
        return call(this, (r) => r.stateHash());
    }

    /** Wakes every sleeping body. */
    wakeAll() {
        call(this, (r) => r.wakeAll());
    }

    /**
     * Adds a body of `kind` ("dynamic", "fixed" or "kinematic"): options
     * position, angle, linearVelocity, angularVelocity, bullet, linearDamping,
     * angularDamping, gravityScale, fixedRotation, canSleep, awake.
     */
    addBody(kind, desc) {
        if (!Object.hasOwn(BODY_KINDS, kind)) {
            fail(`kind must be "fixed", "kinematic" or "dynamic", got ${show(kind)}`);
        }
        const o = options("addBody", desc, BODY_OPTIONS);
        const p = pair("position", o.position ?? [0, 0]);
        const v = pair("linearVelocity", o.linearVelocity ?? [0, 0]);
        const args = [
            BODY_KINDS[kind],
            p[0],
            p[1],
            number("angle", o.angle ?? 0),
            v[0],
            v[1],
            number("angularVelocity", o.angularVelocity ?? 0),
            flag("bullet", o.bullet ?? false),
            number("linearDamping", o.linearDamping ?? 0),
            number("angularDamping", o.angularDamping ?? 0),
            number("gravityScale", o.gravityScale ?? 1),
            flag("fixedRotation", o.fixedRotation ?? false),
            flag("canSleep", o.canSleep ?? true),
            flag("awake", o.awake ?? true),
        ];
        return new Body(this, call(this, (r) => r.addBody(...args)));
    }

    /** Removes a body with its colliders and joints. */
    removeBody(body) {
        const k = key("body", body, Body, this);
        call(this, (r) => r.removeBody(k));
    }

    /** The body of `key` (a Body's `key`, of this world or of the world it was cloned or restored from). */
    body(key) {
        if (typeof key !== "bigint") fail(`a body key must be a bigint, got ${show(key)}`);
        if (!call(this, (r) => r.hasBody(key))) fail("no body of this world has that key");
        return new Body(this, key);
    }

    /** Every body, in key order (the order of positions() and angles()). */
    bodies() {
        return Array.from(call(this, (r) => r.bodies()), (k) => new Body(this, k));
    }

    /**
     * Fixes `shape` to `body`: options density (kg/m², 1), friction (0.6),
     * restitution (0), tangentSpeed (m/s, 0), rollingResistance (0), sensor,
     * localPosition, localAngle, category, mask, group.
     */
    addCollider(body, shape, desc) {
        const b = key("body", body, Body, this);
        if (!(shape instanceof Shape)) fail(`shape must be a Shape, got ${show(shape)}`);
        const o = options("addCollider", desc, COLLIDER_OPTIONS);
        const local = pair("localPosition", o.localPosition ?? [0, 0]);
        const args = [
            b,
            shape.kind,
            shape.numbers,
            number("density", o.density ?? 1),
            number("friction", o.friction ?? 0.6),
            number("restitution", o.restitution ?? 0),
            number("tangentSpeed", o.tangentSpeed ?? 0),
            number("rollingResistance", o.rollingResistance ?? 0),
            flag("sensor", o.sensor ?? false),
            local[0],
            local[1],
            number("localAngle", o.localAngle ?? 0),
            integer("category", o.category ?? 1, 0, 0xffff_ffff),
            integer("mask", o.mask ?? 0xffff_ffff, 0, 0xffff_ffff),
            integer("group", o.group ?? 0, -0x8000_0000, 0x7fff_ffff),
        ];
        return new Collider(this, call(this, (r) => r.addCollider(...args)));
    }

    /** Removes a collider; its body's mass follows. */
    removeCollider(collider) {
        const k = key("collider", collider, Collider, this);
        call(this, (r) => r.removeCollider(k));
    }

    /** A hinge at `anchor`: options anchor, lower, upper, motorSpeed, maxMotorTorque, hertz, dampingRatio, collideConnected. */
    addRevoluteJoint(a, b, desc) {
        return this.#joint("addRevoluteJoint", 0, a, b, desc, ["anchor"], "maxMotorTorque");
    }

    /** B slides along `axis` (fixed in A) through `anchor`, without turning. */
    addPrismaticJoint(a, b, desc) {
        return this.#joint("addPrismaticJoint", 1, a, b, desc, ["anchor", "axis"], "maxMotorForce");
    }

    /** No relative motion (or a soft one, with hertz). */
    addWeldJoint(a, b, desc) {
        return this.#joint("addWeldJoint", 2, a, b, desc, ["anchor"], null);
    }

    /** The anchors keep their distance at creation (or within lower..upper, or sprung). */
    addDistanceJoint(a, b, desc) {
        return this.#joint("addDistanceJoint", 3, a, b, desc, ["anchorA", "anchorB"], "maxMotorForce");
    }

    /** B turns freely about `anchor`, which slides on A's `axis` (sprung, as a wheel's suspension). */
    addWheelJoint(a, b, desc) {
        return this.#joint("addWheelJoint", 4, a, b, desc, ["anchor", "axis"], "maxMotorTorque");
    }

    /** Drives B toward its pose relative to A at creation: options maxForce, maxTorque, collideConnected. */
    addMotorJoint(a, b, desc) {
        return this.#joint("addMotorJoint", 5, a, b, desc, [], null);
    }

    /** Pulls the body's point now at `target` toward `target`: options target, maxForce, hertz, dampingRatio. */
    addMouseJoint(body, desc) {
        return this.#joint("addMouseJoint", 6, body, undefined, desc, ["target"], null);
    }

    #joint(callName, kind, a, b, desc, geometry, maxMotor) {
        const ka = key("a", a, Body, this);
        const kb = kind === 6 ? 0n : key("b", b, Body, this);
        const springs = kind !== 5;
        const limited = kind === 0 || kind === 1 || kind === 3 || kind === 4;
        const names = [
            ...geometry,
            ...(limited ? ["lower", "upper"] : []),
            ...(maxMotor ? ["motorSpeed", maxMotor] : []),
            ...(springs ? ["hertz", "dampingRatio"] : []),
            ...(kind === 5 || kind === 6 ? ["maxForce"] : []),
            ...(kind === 5 ? ["maxTorque"] : []),
            ...(kind === 6 ? [] : ["collideConnected"]),
        ];
        const o = options(callName, desc, names);
        const g = [];
        for (const name of geometry) {
            if (o[name] === undefined) fail(`${callName} needs the option ${name}`);
            g.push(...pair(name, o[name]));
        }
        const given = (name) => o[name] !== undefined;
        if (given("lower") !== given("upper")) fail("limits need both lower and upper");
        if (maxMotor && given("motorSpeed") !== given(maxMotor)) {
            fail(given("motorSpeed") ? `motorSpeed needs ${maxMotor}, the motor's strength` : `${maxMotor} needs motorSpeed`);
        }
        if (given("dampingRatio") && !given("hertz")) fail("dampingRatio needs hertz, the spring's stiffness");
        const opt = (name) => (given(name) ? number(name, o[name]) : 0);
        const settings = new Float64Array([
            given("lower") ? 1 : 0,
            opt("lower"),
            opt("upper"),
            maxMotor && given("motorSpeed") ? 1 : 0,
            opt("motorSpeed"),
            maxMotor ? opt(maxMotor) : 0,
            given("hertz") ? 1 : 0,
            opt("hertz"),
            given("dampingRatio") ? number("dampingRatio", o.dampingRatio) : NaN,
            given("maxForce") ? 1 : 0,
            opt("maxForce"),
            given("maxTorque") ? 1 : 0,
            opt("maxTorque"),
            flag("collideConnected", o.collideConnected ?? false) ? 1 : 0,
        ]);
        return new Joint(this, call(this, (r) => r.addJoint(kind, ka, kb, new Float64Array(g), settings)));
    }

    /** Removes a joint. */
    removeJoint(joint) {
        const k = key("joint", joint, Joint, this);
        call(this, (r) => r.removeJoint(k));
    }

    #filter(callName, desc) {
        const o = options(callName, desc, QUERY_OPTIONS);
        const exclude = o.excludeBody === undefined ? undefined : key("excludeBody", o.excludeBody, Body, this);
        return [exclude, flag("excludeSensors", o.excludeSensors ?? false)];
    }

    /**
     * The closest collider that the segment from `origin` along `translation`
     * meets: { body, collider, point, normal, fraction } or null. Options
     * excludeBody, excludeSensors.
     */
    castRay(origin, translation, desc) {
        pair("origin", origin);
        pair("translation", translation);
        const filter = this.#filter("castRay", desc);
        const hit = call(this, (r) => r.castRay(origin[0], origin[1], translation[0], translation[1], ...filter));
        if (hit === undefined || hit === null) return null;
        try {
            return {
                body: new Body(this, hit.body),
                collider: new Collider(this, hit.collider),
                point: [hit.pointX, hit.pointY],
                normal: [hit.normalX, hit.normalY],
                fraction: hit.fraction,
            };
        } finally {
            hit.free();
        }
    }

    /** The colliders whose bounds overlap the box from `lower` to `upper`. */
    queryAabb(lower, upper, desc) {
        pair("lower", lower);
        pair("upper", upper);
        const filter = this.#filter("queryAabb", desc);
        const keys = call(this, (r) => r.queryAabb(lower[0], lower[1], upper[0], upper[1], ...filter));
        return Array.from(keys, (k) => new Collider(this, k));
    }

    /** The colliders whose shape contains `point`. */
    queryPoint(point, desc) {
        pair("point", point);
        const filter = this.#filter("queryPoint", desc);
        const keys = call(this, (r) => r.queryPoint(point[0], point[1], ...filter));
        return Array.from(keys, (k) => new Collider(this, k));
    }

    /**
     * The contact events of the last step (or of the steps since
     * clearEvents(), with the keepEvents setting), in the order they
     * happened: [{ type: "begin" | "end", colliderA, colliderB }]. An end
     * event may name a collider that has since been removed.
     */
    contactEvents() {
        return this.#pairEvents(call(this, (r) => r.contactEvents()), "colliderA", "colliderB");
    }

    /** The sensor events, as contactEvents(): [{ type, sensor, visitor }]. */
    sensorEvents() {
        return this.#pairEvents(call(this, (r) => r.sensorEvents()), "sensor", "visitor");
    }

    // Begin and end events of two colliders from the module's flat list,
    // three numbers each (1 for begin, 0 for end, then the two keys), with
    // the colliders under the names `first` and `second`.
    #pairEvents(flat, first, second) {
        const events = [];
        for (let i = 0; i < flat.length; i += 3) {
            events.push({
                type: flat[i] === 1n ? "begin" : "end",
                [first]: new Collider(this, flat[i + 1]),
                [second]: new Collider(this, flat[i + 2]),
            });
        }
        return events;
    }

    /**
     * The hit events: contacts that began touching faster than the
     * hitEventThreshold setting (m/s), for impact sounds and damage:
     * [{ colliderA, colliderB, point, normal (from A to B), approachSpeed }].
     */
    hitEvents() {
        const keys = call(this, (r) => r.hitEventKeys());
        const values = call(this, (r) => r.hitEventValues());
        const events = [];
        for (let i = 0; i < keys.length / 2; i++) {
            const v = values.subarray(5 * i, 5 * i + 5);
            events.push({
                colliderA: new Collider(this, keys[2 * i]),
                colliderB: new Collider(this, keys[2 * i + 1]),
                point: [v[0], v[1]],
                normal: [v[2], v[3]],
                approachSpeed: v[4],
            });
        }
        return events;
    }

    /** Forgets the events kept so far (with the keepEvents setting). */
    clearEvents() {
        call(this, (r) => r.clearEvents());
    }

    /**
     * Every body's origin, x0, y0, x1, y1, ... in key order: a Float32Array
     * view on the wasm memory, no copy. Valid until the next call into the
     * world or any other (a call may grow the memory, which detaches every
     * view, or refill the buffer): read it at once, or copy it (`.slice()`).
     */
    positions() {
        return call(this, (r) => r.positions());
    }

    /** Every body's angle in key order: a view as positions()'. */
    angles() {
        return call(this, (r) => r.angles());
    }

    /** Every body's vx, vy, angular velocity in key order: a view as positions()'. */
    velocities() {
        return call(this, (r) => r.velocities());
    }

    /** Panics inside the engine: for the test that a world refuses calls after a panic. */
    _panicForTest() {
        call(this, (r) => r.panicForTest());
    }
}

// --- handles -------------------------------------------------------------------

/** One body of a world (made by World.addBody). */
export class Body {
    constructor(world, key) {
        /** The world the body belongs to. */
        this.world = world;
        /** The body's key (a bigint): equal keys name the same body. */
        this.key = key;
        Object.freeze(this);
    }

    #state() {
        return call(this.world, (r) => r.bodyState(this.key));
    }

    #info() {
        return call(this.world, (r) => r.bodyInfo(this.key));
    }

    /** The body's origin in the world, m, [x, y]. */
    get position() {
        const s = this.#state();
        return [s[0], s[1]];
    }

    set position(p) {
        pair("position", p);
        call(this.world, (r) => r.setBodyPosition(this.key, p[0], p[1]));
    }

    /** The angle, radians counter-clockwise, in (−π, π]. */
    get angle() {
        return this.#state()[2];
    }

    set angle(a) {
        number("angle", a);
        call(this.world, (r) => r.setBodyAngle(this.key, a));
    }

    /** The velocity of the centre of mass, m/s, [x, y]. */
    get linearVelocity() {
        const s = this.#state();
        return [s[3], s[4]];
    }

    set linearVelocity(v) {
        pair("linearVelocity", v);
        call(this.world, (r) => r.setLinearVelocity(this.key, v[0], v[1]));
    }

    /** The angular velocity, rad/s counter-clockwise. */
    get angularVelocity() {
        return this.#state()[5];
    }

    set angularVelocity(w) {
        number("angularVelocity", w);
        call(this.world, (r) => r.setAngularVelocity(this.key, w));
    }

    /** Mass, kg (0 for fixed and kinematic bodies). */
    get mass() {
        return this.#info()[0];
    }

    /** Rotational inertia about the centre of mass, kg·m². */
    get inertia() {
        return this.#info()[1];
    }

    /** "dynamic", "fixed" or "kinematic". */
    get kind() {
        return BODY_KIND_NAMES[this.#info()[2]];
    }

    /** False while the body sleeps. */
    get isAwake() {
        return this.#info()[3] === 0;
    }

    /** True while the body is swept against dynamic bodies too. */
    get isBullet() {
        return this.#info()[4] === 1;
    }

    /** True while the body is in its world. */
    get isValid() {
        return call(this.world, (r) => r.hasBody(this.key));
    }

    /** Applies a force, N, at the centre of mass or at a world point, and wakes the body. */
    applyForce(force, point) {
        pair("force", force);
        const at = point !== undefined;
        if (at) pair("point", point);
        call(this.world, (r) => r.applyForce(this.key, force[0], force[1], at, at ? point[0] : 0, at ? point[1] : 0));
    }

    /** Applies an impulse, N·s, at the centre of mass or at a world point, and wakes the body. */
    applyImpulse(impulse, point) {
        pair("impulse", impulse);
        const at = point !== undefined;
        if (at) pair("point", point);
        call(this.world, (r) => r.applyImpulse(this.key, impulse[0], impulse[1], at, at ? point[0] : 0, at ? point[1] : 0));
    }
}

/** One collider of a world (made by World.addCollider). */
export class Collider {
    constructor(world, key) {
        this.world = world;
        this.key = key;
        Object.freeze(this);
    }

    #info() {
        return call(this.world, (r) => r.colliderInfo(this.key));
    }

    /** The body the collider is fixed to. */
    get body() {
        return new Body(this.world, call(this.world, (r) => r.colliderBody(this.key)));
    }

    get density() {
        return this.#info()[0];
    }

    get friction() {
        return this.#info()[1];
    }

    get restitution() {
        return this.#info()[2];
    }

    get tangentSpeed() {
        return this.#info()[3];
    }

    get rollingResistance() {
        return this.#info()[4];
    }

    get isSensor() {
        return this.#info()[5] === 1;
    }

    get isValid() {
        return call(this.world, (r) => r.hasCollider(this.key));
    }
}

/** One joint of a world (made by one of World.add*Joint). */
export class Joint {
    constructor(world, key) {
        this.world = world;
        this.key = key;
        Object.freeze(this);
    }

    /** The force the joint applied on B over the last step, N, world frame, [x, y]. */
    get constraintForce() {
        const f = call(this.world, (r) => r.jointForces(this.key));
        return [f[0], f[1]];
    }

    /** The torque the joint applied on B over the last step, N·m. */
    get constraintTorque() {
        return call(this.world, (r) => r.jointForces(this.key))[2];
    }

    /** B's angle relative to A since creation, rad. */
    get angle() {
        return call(this.world, (r) => r.jointMotion(this.key))[0];
    }

    /** B's angular velocity relative to A, rad/s. */
    get angularSpeed() {
        return call(this.world, (r) => r.jointMotion(this.key))[1];
    }

    /** Translation along the axis (prismatic, wheel) or the anchors' distance (distance), m. */
    get translation() {
        return call(this.world, (r) => r.jointMotion(this.key))[2];
    }

    /** The rate of change of `translation`, m/s. */
    get linearSpeed() {
        return call(this.world, (r) => r.jointMotion(this.key))[3];
    }

    get isValid() {
        return call(this.world, (r) => r.hasJoint(this.key));
    }

    /** Sets the motor's target speed (rad/s or m/s) and wakes the bodies. */
    setMotorSpeed(speed) {
        number("motorSpeed", speed);
        call(this.world, (r) => r.setMotorSpeed(this.key, speed));
    }

    /** Moves a mouse joint's target and wakes its body. */
    setTarget(target) {
        pair("target", target);
        call(this.world, (r) => r.setTarget(this.key, target[0], target[1]));
    }
}

// --- shapes ----------------------------------------------------------------------

/** A collision shape in its own frame; a value, copied into each collider made of it. */
export class Shape {
    constructor(kind, numbers) {
        /** The shape's kind and numbers as the compiled module takes them (web/crate/src/shapes.rs). */
        this.kind = kind;
        this.numbers = new Float64Array(numbers);
        unbound(() => raw.checkShape(kind, this.numbers));
    }

    /** { mass, center: [x, y], inertia } at `density` kg/m². */
    massProperties(density) {
        number("density", density);
        const m = unbound(() => raw.massProperties(this.kind, this.numbers, density));
        return { mass: m[0], center: [m[1], m[2]], inertia: m[3] };
    }
}

/** A disc of `radius` metres about the local origin. */
export class Circle extends Shape {
    constructor(radius) {
        super(0, [number("radius", radius)]);
    }

    get radius() {
        return this.numbers[0];
    }
}

/** A box of half-extents `halfWidth` × `halfHeight` m centred on the local origin, corners rounded by `radius`. */
export class Box extends Shape {
    constructor(halfWidth, halfHeight, radius = 0) {
        super(1, [number("halfWidth", halfWidth), number("halfHeight", halfHeight), number("radius", radius)]);
    }

    get halfExtents() {
        return [this.numbers[0], this.numbers[1]];
    }
}

/** The convex hull of `points` ([[x, y], ...], any order, three or more not on one line), rounded by `radius`. */
export class Polygon extends Shape {
    constructor(points, radius = 0) {
        if (!Array.isArray(points)) fail(`points must be an array of [x, y], got ${show(points)}`);
        const numbers = [number("radius", radius)];
        points.forEach((p, i) => numbers.push(...pair(`points[${i}]`, p)));
        super(2, numbers);
    }

    /** The hull's vertices, counter-clockwise. */
    get vertices() {
        const v = unbound(() => raw.polygonVertices(this.numbers));
        return Array.from({ length: v.length / 2 }, (_, i) => [v[2 * i], v[2 * i + 1]]);
    }
}

/** All points within `radius` of the segment from `p1` to `p2`. */
export class Capsule extends Shape {
    constructor(p1, p2, radius) {
        super(3, [...pair("p1", p1), ...pair("p2", p2), number("radius", radius)]);
    }
}

/** The segment from `p1` to `p2`: no area and no mass, for fixed ground. */
export class Segment extends Shape {
    constructor(p1, p2) {
        super(4, [...pair("p1", p1), ...pair("p2", p2)]);
    }
}

/** The ellipse of semi-axes `rx` (local x) and `ry` (local y). */
export class Ellipse extends Shape {
    constructor(rx, ry) {
        super(5, [number("rx", rx), number("ry", ry)]);
    }
}
