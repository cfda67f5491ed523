// The demo page: Lamina's scenes stepped in WebAssembly and drawn on a 2D
// canvas. The engine knows nothing of drawing, so the page keeps each body's
// shape from the scene's description (web/scenes/descriptions.mjs) and reads
// every body's position and angle in bulk once a frame.
//
// `window.laminaDemo` lets a test (web/test/browser) drive the page and read
// the physics without going through the pixels.

import init, * as lamina from "../pkg/lamina2d.js";
import { DEMO_SCENES, buildInLamina } from "../scenes/descriptions.mjs";

const DT = 1 / 60;
// A frame that took long (a slow machine, a hidden tab) runs at most this many
// steps: the simulation slows down rather than falling further behind.
const MAX_STEPS_PER_FRAME = 4;
// The weight of the newest step time in the smoothed one shown.
const SMOOTHING = 0.05;

const PALETTE = ["#e9a23b", "#e76f51", "#4fb5a5", "#7aa2e3", "#b48ead", "#a3be8c"];
const FIXED_COLOUR = "#4b525d";
const BACKGROUND = "#14171c";

const canvas = document.querySelector("#view");
const context = canvas.getContext("2d");
const ui = {
    scene: document.querySelector("#scene"),
    pause: document.querySelector("#pause"),
    step: document.querySelector("#step"),
    reset: document.querySelector("#reset"),
    stats: document.querySelector("#stats"),
};

// Everything about the scene on screen; `load` replaces it whole.
const state = {
    name: null,
    scene: null,
    world: null,
    bodies: [],
    // The index in `bodies` of each body's key (for what queries return).
    indexOfKey: new Map(),
    // slot[i]: where body i of the scene sits in positions() and angles(),
    // which list bodies in key order.
    slot: null,
    xy: new Float32Array(0),
    angle: new Float32Array(0),
    stepCount: 0,
    paused: false,
    stepMs: null,
    accumulator: 0,
    drag: null, // { index, joint, local: [x, y] in the body's frame, target: [x, y] }
};

// --- the world -----------------------------------------------------------------

function load(name) {
    if (!Object.hasOwn(DEMO_SCENES, name)) throw new Error(`no scene named ${name}`);
    endDrag();
    state.world?.free();
    const scene = DEMO_SCENES[name]();
    const { world, bodies } = buildInLamina(lamina, scene);
    const order = new Map(world.bodies().map((body, slot) => [body.key, slot]));
    Object.assign(state, {
        name,
        scene,
        world,
        bodies,
        indexOfKey: new Map(bodies.map((body, i) => [body.key, i])),
        slot: Int32Array.from(bodies, (body) => order.get(body.key)),
        xy: new Float32Array(2 * bodies.length),
        angle: new Float32Array(bodies.length),
        stepCount: 0,
        stepMs: null,
        accumulator: 0,
    });
    ui.scene.value = name;
    if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
    readBodies();
}

function stepOnce() {
    const start = performance.now();
    state.world.step(DT);
    const ms = performance.now() - start;
    state.stepMs = state.stepMs === null ? ms : state.stepMs + SMOOTHING * (ms - state.stepMs);
    state.stepCount += 1;
}

// Copies every body's position and angle out of the views at once: a later
// call into the module may move or refill the memory they look at.
function readBodies() {
    const positions = state.world.positions();
    const xy = state.xy;
    for (let i = 0; i < state.slot.length; i++) {
        const s = state.slot[i];
        xy[2 * i] = positions[2 * s];
        xy[2 * i + 1] = positions[2 * s + 1];
    }
    const angles = state.world.angles();
    for (let i = 0; i < state.slot.length; i++) state.angle[i] = angles[state.slot[i]];
}

function setPaused(paused) {
    state.paused = paused;
    ui.pause.textContent = paused ? "Play" : "Pause";
    ui.step.disabled = !paused;
}

function stepPaused() {
    if (!state.paused) setPaused(true);
    stepOnce();
    readBodies();
}

// --- the view: world metres to canvas pixels -------------------------------------

// Fits the scene's view rectangle into the canvas, y up. `scale` is CSS pixels
// per metre; the backing store has devicePixelRatio times as many.
function viewTransform() {
    const { center, width, height } = state.scene.view;
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    const scale = Math.min(w / width, h / height);
    return { scale, originX: w / 2 - center[0] * scale, originY: h / 2 + center[1] * scale };
}

function toWorld(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    const { scale, originX, originY } = viewTransform();
    return [(clientX - rect.left - originX) / scale, (originY - (clientY - rect.top)) / scale];
}

function toClient([x, y]) {
    const rect = canvas.getBoundingClientRect();
    const { scale, originX, originY } = viewTransform();
    return [rect.left + originX + x * scale, rect.top + originY - y * scale];
}

// --- drawing -------------------------------------------------------------------------

function traceShape(shape) {
    context.beginPath();
    switch (shape.type) {
        case "box":
            context.rect(-shape.halfWidth, -shape.halfHeight, 2 * shape.halfWidth, 2 * shape.halfHeight);
            break;
        case "circle":
            context.arc(0, 0, shape.radius, 0, 2 * Math.PI);
            // A radius, so that rolling shows.
            context.moveTo(0, 0);
            context.lineTo(shape.radius, 0);
            break;
        case "capsule": {
            const [[x1, y1], [x2, y2]] = [shape.p1, shape.p2];
            const a = Math.atan2(y2 - y1, x2 - x1);
            context.arc(x2, y2, shape.radius, a - Math.PI / 2, a + Math.PI / 2);
            context.arc(x1, y1, shape.radius, a + Math.PI / 2, a + (3 * Math.PI) / 2);
            context.closePath();
            break;
        }
        case "segment":
            context.moveTo(...shape.p1);
            context.lineTo(...shape.p2);
            break;
    }
}

function draw() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(canvas.clientWidth * dpr);
    const h = Math.round(canvas.clientHeight * dpr);
    if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
    }
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = BACKGROUND;
    context.fillRect(0, 0, w, h);

    const { scale, originX, originY } = viewTransform();
    const k = scale * dpr;
    const ox = originX * dpr;
    const oy = originY * dpr;
    context.lineWidth = 1 / scale;
    context.lineJoin = "round";
    const { bodies } = state.scene;
    for (let i = 0; i < bodies.length; i++) {
        const body = bodies[i];
        const x = state.xy[2 * i];
        const y = state.xy[2 * i + 1];
        const c = Math.cos(state.angle[i]);
        const s = Math.sin(state.angle[i]);
        // The body's frame to device pixels: rotate, translate, scale, flip y.
        context.setTransform(k * c, -k * s, -k * s, -k * c, ox + k * x, oy - k * y);
        traceShape(body.shape);
        const fixed = body.kind === "fixed";
        const colour = fixed ? FIXED_COLOUR : PALETTE[i % PALETTE.length];
        if (body.shape.type !== "segment") {
            context.fillStyle = fixed ? colour : `${colour}b0`;
            context.fill();
        }
        context.strokeStyle = state.drag?.index === i ? "#ffffff" : colour;
        context.lineWidth = (state.drag?.index === i ? 2.5 : fixed && body.shape.type === "segment" ? 3 : 1) / scale;
        context.stroke();
    }

    // The drag: a line from the grabbed point to the mouse.
    if (state.drag !== null) {
        const { index, local, target } = state.drag;
        const c = Math.cos(state.angle[index]);
        const s = Math.sin(state.angle[index]);
        const gx = state.xy[2 * index] + c * local[0] - s * local[1];
        const gy = state.xy[2 * index + 1] + s * local[0] + c * local[1];
        context.setTransform(k, 0, 0, -k, ox, oy);
        context.beginPath();
        context.moveTo(gx, gy);
        context.lineTo(target[0], target[1]);
        context.strokeStyle = "#ffffff";
        context.lineWidth = 1.5 / scale;
        context.stroke();
        context.beginPath();
        context.arc(target[0], target[1], 4 / scale, 0, 2 * Math.PI);
        context.fillStyle = "#ffffff";
        context.fill();
    }
}

let statsShown = 0;
function showStats(now) {
    // Four times a second: a number that changes every frame cannot be read.
    if (now - statsShown < 250) return;
    statsShown = now;
    const ms = state.stepMs === null ? "–" : state.stepMs.toFixed(2);
    const build = lamina.loadedBuild() === "simd" ? "SIMD" : "no SIMD";
    ui.stats.textContent =
        `${state.bodies.length} bodies · ${state.scene.joints.length} joints · ` +
        `step ${state.stepCount} · ${ms} ms/step (${build})`;
}

// --- the loop ------------------------------------------------------------------------

let lastFrame = null;
function frame(now) {
    if (!state.paused && lastFrame !== null) {
        // Fixed steps of 1/60 s at the display's own rate, whatever it is.
        state.accumulator += Math.min(now - lastFrame, 250) / 1000;
        let steps = 0;
        while (state.accumulator >= DT && steps < MAX_STEPS_PER_FRAME) {
            stepOnce();
            state.accumulator -= DT;
            steps += 1;
        }
        if (steps === MAX_STEPS_PER_FRAME) state.accumulator = 0;
        if (steps > 0) readBodies();
    }
    lastFrame = now;
    draw();
    showStats(now);
    requestAnimationFrame(frame);
}

// --- dragging: a mouse joint from the grabbed point to the pointer --------------------

function dynamicBodyAt(point) {
    for (const collider of state.world.queryPoint(point)) {
        const index = state.indexOfKey.get(collider.body.key);
        if (index !== undefined && state.scene.bodies[index].kind === "dynamic") return index;
    }
    return -1;
}

function beginDrag(point) {
    const index = dynamicBodyAt(point);
    if (index < 0) return false;
    const body = state.bodies[index];
    // A hundred times the body's weight: the pull is firm, and the joint's
    // spring (5 Hz by default) keeps it from being violent.
    const joint = state.world.addMouseJoint(body, { target: point, maxForce: 1000 * body.mass });
    const [x, y] = body.position;
    const a = body.angle;
    const dx = point[0] - x;
    const dy = point[1] - y;
    const local = [Math.cos(a) * dx + Math.sin(a) * dy, -Math.sin(a) * dx + Math.cos(a) * dy];
    state.drag = { index, joint, local, target: point };
    canvas.classList.add("dragging");
    return true;
}

function moveDrag(point) {
    if (state.drag === null) return;
    state.drag.target = point;
    state.drag.joint.setTarget(point);
}

function endDrag() {
    if (state.drag === null) return;
    if (state.drag.joint.isValid) state.world.removeJoint(state.drag.joint);
    state.drag = null;
    canvas.classList.remove("dragging");
}

canvas.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    if (beginDrag(toWorld(event.clientX, event.clientY))) canvas.setPointerCapture(event.pointerId);
});
canvas.addEventListener("pointermove", (event) => moveDrag(toWorld(event.clientX, event.clientY)));
canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);

// --- controls --------------------------------------------------------------------------

for (const [name, make] of Object.entries(DEMO_SCENES)) {
    ui.scene.add(new Option(make().title, name));
}
ui.scene.addEventListener("change", () => load(ui.scene.value));
ui.pause.addEventListener("click", () => setPaused(!state.paused));
ui.step.addEventListener("click", stepPaused);
ui.reset.addEventListener("click", () => load(state.name));
window.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.ctrlKey || event.metaKey || event.altKey) return;
    // Space on a focused button presses that button already.
    if (event.key === " " && event.target instanceof HTMLButtonElement) return;
    const actions = { " ": () => setPaused(!state.paused), s: stepPaused, r: () => load(state.name) };
    const action = actions[event.key.toLowerCase()];
    if (action === undefined) return;
    event.preventDefault();
    action();
});
window.addEventListener("hashchange", () => {
    const name = location.hash.slice(1);
    if (name !== state.name && Object.hasOwn(DEMO_SCENES, name)) load(name);
});

// --- start ---------------------------------------------------------------------------

try {
    await init();
    const asked = location.hash.slice(1);
    load(Object.hasOwn(DEMO_SCENES, asked) ? asked : Object.keys(DEMO_SCENES)[0]);
    setPaused(false);
    requestAnimationFrame(frame);
} catch (error) {
    ui.stats.textContent = "";
    const failure = document.createElement("pre");
    failure.id = "failure";
    failure.textContent = `The demo could not start: ${error.message}\nIs web/pkg built (web/build.sh)?`;
    canvas.replaceWith(failure);
    throw error;
}

// The test hook: what a test needs to drive the page and check the physics.
window.laminaDemo = {
    scenes: Object.keys(DEMO_SCENES),
    get sceneName() {
        return state.name;
    },
    get scene() {
        return state.scene;
    },
    get world() {
        return state.world;
    },
    get stepCount() {
        return state.stepCount;
    },
    get paused() {
        return state.paused;
    },
    get stepMs() {
        return state.stepMs;
    },
    get dragged() {
        return state.drag?.index ?? null;
    },
    /** Body i's position, [x, y], read from the engine now. */
    bodyPosition: (i) => state.bodies[i].position,
    /** Every body's position, [[x, y], ...] in the scene's order. */
    bodyPositions: () => state.bodies.map((body) => body.position),
    /** The page coordinates (for a mouse) of a world point. */
    toClient,
    load,
    pause: () => setPaused(true),
    play: () => setPaused(false),
    step: stepPaused,
};
