// The API: physics you can check by hand, queries, handles, snapshots and
// the bulk views.

import assert from "node:assert/strict";
import { test } from "node:test";

import init, { Box, Capsule, Circle, LaminaError, Polygon, Segment, World, loadedBuild } from "../pkg/node.js";

const SLOP = 0.005; // the engine's linear slop, m

function groundAndBox(w, { y = 4, angle = 0 } = {}) {
    const ground = w.addBody("fixed", { position: [0, -0.5] });
    w.addCollider(ground, new Box(10, 0.5));
    const box = w.addBody("dynamic", { position: [0, y], angle });
    w.addCollider(box, new Box(0.5, 0.5), { density: 2, friction: 0.6, restitution: 0 });
    return { ground, box };
}

test("the Node entry loads the wasm on import; init() is a no-op there", async () => {
    assert.ok(["simd", "nosimd"].includes(loadedBuild()));
    await init();
});

test("a box falls and rests on the ground, a half height above it", () => {
    const w = new World({ gravity: [0, -10] });
    const { box } = groundAndBox(w, { y: 3, angle: 0.2 });
    for (let i = 0; i < 180; i++) w.step(1 / 60);
    const [, y] = box.position;
    assert.ok(Math.abs(y - 0.5) <= SLOP, `the box rests at y = ${y}`);
    assert.equal(box.isAwake, false);
    assert.ok(Math.abs(box.mass - 2) < 1e-6, `mass ${box.mass}`);
    w.free();
});

test("a body falls freely as v = g t", () => {
    const w = new World({ gravity: [0, -9.8], substeps: 4 });
    const b = w.addBody("dynamic", { position: [0, 100] });
    w.addCollider(b, new Circle(0.5));
    for (let i = 0; i < 60; i++) w.step(1 / 60);
    const [, vy] = b.linearVelocity;
    assert.ok(Math.abs(vy + 9.8) < 1e-3, `vy = ${vy}`);
    w.free();
});

test("a ray hits the ground's top face at the right distance", () => {
    const w = new World();
    const { ground } = groundAndBox(w, { y: 4 });
    const hit = w.castRay([3, 5], [0, -10]);
    assert.ok(hit !== null);
    assert.equal(hit.body.key, ground.key);
    assert.ok(Math.abs(hit.fraction - 0.5) < 1e-6, `fraction ${hit.fraction}`);
    assert.ok(Math.abs(hit.point[1]) < 1e-6 && Math.abs(hit.point[0] - 3) < 1e-6, `point ${hit.point}`);
    assert.deepEqual(hit.normal, [0, 1]);
    // The box is in the way of a ray down the middle: its top face at y = 4.5.
    const onBox = w.castRay([0, 10], [0, -20]);
    assert.ok(Math.abs(onBox.fraction * 20 - 5.5) < 1e-5, `toi ${onBox.fraction * 20}`);
    assert.equal(w.castRay([3, 5], [0, 1]), null);
    assert.equal(w.queryPoint([0, -0.25]).length, 1);
    assert.equal(w.queryAabb([-1, 3], [1, 5]).length, 1);
    w.free();
});

test("every shape makes a collider; a polygon is its convex hull", () => {
    const w = new World();
    const b = w.addBody("dynamic");
    for (const shape of [
        new Circle(0.5),
        new Box(0.5, 0.25),
        new Box(0.5, 0.25, 0.05),
        new Polygon([[0, 0], [1, 0], [0.2, 0.2], [0, 1]]),
        new Capsule([-0.5, 0], [0.5, 0], 0.2),
        new Segment([-1, 0], [1, 0]),
    ]) {
        w.addCollider(b, shape);
    }
    assert.equal(new Polygon([[0, 0], [1, 0], [0.2, 0.2], [0, 1]]).vertices.length, 3);
    assert.ok(b.mass > 0);
    w.free();
});

test("joints of every kind hold their bodies", () => {
    const w = new World();
    const g = w.addBody("fixed");
    const bodies = [];
    for (let i = 0; i < 7; i++) {
        const b = w.addBody("dynamic", { position: [i * 3, 2] });
        w.addCollider(b, new Box(0.2, 0.2));
        bodies.push(b);
    }
    const [a, b, c, d, e, f, m] = bodies;
    const hinge = w.addRevoluteJoint(g, a, { anchor: [0, 3], lower: -1, upper: 1, motorSpeed: 1, maxMotorTorque: 10 });
    w.addPrismaticJoint(g, b, { anchor: [3, 2], axis: [0, 1], lower: -1, upper: 0 });
    w.addWeldJoint(g, c, { anchor: [6, 2] });
    w.addDistanceJoint(g, d, { anchorA: [9, 4], anchorB: [9, 2] });
    w.addWheelJoint(g, e, { anchor: [12, 2], axis: [0, 1], hertz: 4, dampingRatio: 0.7 });
    w.addMotorJoint(g, f, { maxForce: 1000, maxTorque: 100 });
    const mouse = w.addMouseJoint(m, { target: [18, 3], maxForce: 1000 });
    assert.equal(w.jointCount, 7);
    for (let i = 0; i < 120; i++) w.step(1 / 60);
    assert.ok(Math.abs(c.position[1] - 2) < 0.01, `the welded body at ${c.position}`);
    const dy = d.position[1] - 2;
    assert.ok(Math.abs(dy) < 0.01, `the distance joint's body moved by ${dy}`);
    assert.ok(b.position[1] >= 1 - 0.01, `the prismatic limit holds: ${b.position}`);
    // The mouse joint holds the body's point at its target against gravity.
    assert.ok(Math.abs(m.position[1] - 2) < 0.05, `the mouse joint holds its body: ${m.position}`);
    assert.ok(Math.abs(hinge.angle) <= 1.01);
    mouse.setTarget([18, 4]);
    hinge.setMotorSpeed(-1);
    for (let i = 0; i < 120; i++) w.step(1 / 60);
    assert.ok(Math.abs(m.position[1] - 3) < 0.05, `the mouse joint pulls its body up: ${m.position}`);
    w.removeJoint(mouse);
    assert.equal(mouse.isValid, false);
    w.free();
});

test("setters change the body; getters read it back", () => {
    const w = new World();
    const b = w.addBody("dynamic", { position: [1, 2], angle: 0.5, linearVelocity: [3, 4], angularVelocity: 5 });
    assert.deepEqual(b.position, [1, 2]);
    assert.ok(Math.abs(b.angle - 0.5) < 1e-6);
    assert.deepEqual(b.linearVelocity, [3, 4]);
    assert.equal(b.angularVelocity, 5);
    b.position = [-1, -2];
    b.angle = -0.25;
    b.linearVelocity = [0, 1];
    b.angularVelocity = 0;
    assert.deepEqual(b.position, [-1, -2]);
    assert.ok(Math.abs(b.angle + 0.25) < 1e-6);
    assert.deepEqual(b.linearVelocity, [0, 1]);
    assert.equal(b.kind, "dynamic");
    w.free();
});

test("positions() and angles() are Float32Array views in key order", () => {
    const w = new World({ gravity: [0, 0] });
    const bodies = [0, 1, 2].map((i) => w.addBody("dynamic", { position: [i, 10 * i], angle: i / 10 }));
    const p = w.positions();
    assert.ok(p instanceof Float32Array);
    assert.deepEqual(Array.from(p), [0, 0, 1, 10, 2, 20]);
    // A view: its buffer is the module's memory (read before the next call,
    // which may grow the memory and detach it).
    assert.ok(p.buffer.byteLength > p.byteLength);
    const a = w.angles();
    assert.ok(a instanceof Float32Array && a.length === 3);
    assert.ok(Math.abs(a[2] - 0.2) < 1e-6);
    assert.deepEqual(w.bodies().map((b) => b.key), bodies.map((b) => b.key));
    w.free();
});

test("a snapshot restores a world that steps on bit for bit; so does a clone", () => {
    const w = new World();
    groundAndBox(w, { y: 2, angle: 0.3 });
    for (let i = 0; i < 20; i++) w.step(1 / 60);
    const bytes = w.snapshot();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 0);
    const restored = World.restore(bytes);
    const copy = w.clone();
    for (let i = 0; i < 40; i++) {
        w.step(1 / 60);
        restored.step(1 / 60);
        copy.step(1 / 60);
    }
    assert.equal(restored.stateHash(), w.stateHash());
    assert.equal(copy.stateHash(), w.stateHash());
    assert.equal(typeof w.stateHash(), "bigint");
    assert.throws(() => World.restore(new Uint8Array([1, 2, 3])), LaminaError);
    // A restored world and a copy take every call a new world does: joints,
    // queries, their errors.
    for (const x of [restored, copy]) {
        const a = x.addBody("dynamic", { position: [5, 5] });
        const b = x.addBody("dynamic", { position: [6, 5] });
        x.addCollider(b, new Circle(0.5));
        assert.ok(x.addRevoluteJoint(a, b, { anchor: [5.5, 5] }).isValid);
        assert.equal(x.castRay([6, 8], [0, -4]).body.key, b.key);
        assert.deepEqual(x.queryPoint([6, 5]).map((c) => c.body.key), [b.key]);
        assert.throws(() => x.castRay([0, 0], [0, 1], { excludeBody: 3 }), LaminaError);
    }
    for (const x of [w, restored, copy]) x.free();
});

test("events: a dropped box begins touching the ground once, hits it at sqrt(2 g h), passes a sensor", () => {
    // The box's bottom starts 2.5 m above the ground (its centre at 3): it
    // meets the ground at sqrt(2 * 10 * 2.5) = 7.07 m/s, a little less where
    // the contact begins a few centimetres early (speculatively). On the way
    // it passes through a sensor 1.4 to 1.6 m up, entering and leaving it.
    const w = new World({ gravity: [0, -10] });
    const ground = w.addBody("fixed", { position: [0, -0.5] });
    const groundCollider = w.addCollider(ground, new Box(10, 0.5));
    const gate = w.addBody("fixed", { position: [0, 1.5] });
    const sensor = w.addCollider(gate, new Box(2, 0.1), { sensor: true });
    const box = w.addBody("dynamic", { position: [0, 3] });
    const boxCollider = w.addCollider(box, new Box(0.5, 0.5));
    const contacts = [];
    const hits = [];
    const sensors = [];
    for (let i = 0; i < 120; i++) {
        w.step(1 / 60);
        contacts.push(...w.contactEvents());
        hits.push(...w.hitEvents());
        sensors.push(...w.sensorEvents());
    }
    const pair = (a, b) => [a.key, b.key].sort((x, y) => (x < y ? -1 : 1));
    assert.deepEqual(
        contacts.map((e) => [e.type, ...pair(e.colliderA, e.colliderB)]),
        [["begin", ...pair(groundCollider, boxCollider)]],
    );
    assert.equal(hits.length, 1, `hits: ${JSON.stringify(hits.map((h) => h.approachSpeed))}`);
    const speed = Math.sqrt(2 * 10 * 2.5);
    assert.ok(Math.abs(hits[0].approachSpeed - speed) < 0.3, `approach speed ${hits[0].approachSpeed}, by hand ${speed}`);
    assert.ok(Math.abs(Math.abs(hits[0].normal[1]) - 1) < 1e-4, `normal ${hits[0].normal}`);
    assert.ok(Math.abs(hits[0].point[1]) < 0.05, `point ${hits[0].point}`);
    assert.deepEqual(
        sensors.map((e) => [e.type, e.sensor.key, e.visitor.key]),
        [
            ["begin", sensor.key, boxCollider.key],
            ["end", sensor.key, boxCollider.key],
        ],
    );
    // Lifted away, the box stops touching: one end event, then nothing.
    box.position = [0, 5];
    w.step(1 / 60);
    assert.deepEqual(
        w.contactEvents().map((e) => [e.type, ...pair(e.colliderA, e.colliderB)]),
        [["end", ...pair(groundCollider, boxCollider)]],
    );
    w.step(1 / 60);
    assert.deepEqual(w.contactEvents(), []);
    w.free();
});

test("events are kept across steps with keepEvents until clearEvents()", () => {
    const w = new World({ keepEvents: true });
    const { box } = groundAndBox(w, { y: 1 });
    for (let i = 0; i < 60; i++) w.step(1 / 60);
    assert.equal(w.contactEvents().length, 1, "the landing's begin is kept");
    w.clearEvents();
    assert.deepEqual(w.contactEvents(), []);
    assert.deepEqual(w.hitEvents(), []);
    assert.ok(box.isValid);
    w.free();
});
