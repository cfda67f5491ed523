// Bad input throws LaminaError naming the value, and the world is unchanged;
// a freed world, and a world whose call panicked, refuse every call.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Box, Circle, LaminaError, Polygon, World } from "../pkg/node.js";

function scene() {
    const w = new World();
    const ground = w.addBody("fixed", { position: [0, -0.5] });
    w.addCollider(ground, new Box(10, 0.5));
    const b = w.addBody("dynamic", { position: [0, 2] });
    w.addCollider(b, new Box(0.5, 0.5));
    for (let i = 0; i < 10; i++) w.step(1 / 60);
    return { w, ground, b };
}

// Asserts that `f` throws a LaminaError whose message matches `message`, and
// that the world's state hash and body count are what they were.
function refuses(w, f, message) {
    const [hash, count] = [w.stateHash(), w.bodyCount];
    assert.throws(f, (e) => {
        assert.ok(e instanceof LaminaError, `${e} is a LaminaError`);
        assert.ok(e instanceof Error);
        assert.match(e.message, message);
        return true;
    });
    assert.equal(w.stateHash(), hash, "the state hash is unchanged");
    assert.equal(w.bodyCount, count, "the body count is unchanged");
}

test("bad values are refused by name, the world unchanged", () => {
    const { w, ground, b } = scene();
    refuses(w, () => w.step(0), /dt|time step/);
    refuses(w, () => w.step(NaN), /dt must be a finite number, got NaN/);
    refuses(w, () => w.step("1"), /dt must be a number, got "1"/);
    refuses(w, () => w.addBody("dynamic", { position: [NaN, 0] }), /position\[0\] must be a finite number, got NaN/);
    refuses(w, () => w.addBody("dynamic", { position: [0] }), /position must be \[x, y\]/);
    refuses(w, () => w.addBody("wobbly"), /kind must be .* got "wobbly"/);
    refuses(w, () => w.addBody("dynamic", { positon: [0, 0] }), /addBody has no option named "positon"/);
    refuses(w, () => w.addBody("dynamic", { angle: Infinity }), /angle must be a finite number, got inf/);
    refuses(w, () => w.addCollider(b, new Circle(0.5), { density: -1 }), /density/);
    refuses(w, () => w.addCollider(b, new Circle(0.5), { friction: NaN }), /friction must be a finite number/);
    refuses(w, () => w.addRevoluteJoint(ground, b, { anchor: [0, 0], lower: 1, upper: -1 }), /lower|upper/);
    refuses(w, () => w.addRevoluteJoint(ground, b, { anchor: [0, 0], lower: 1 }), /limits need both lower and upper/);
    refuses(w, () => w.addRevoluteJoint(b, b, { anchor: [0, 0] }), /two different bodies/);
    refuses(w, () => w.addRevoluteJoint(ground, b, {}), /needs the option anchor/);
    refuses(w, () => (b.position = [0, Infinity]), /position\[1\] must be a finite number, got inf/);
    refuses(w, () => (b.angularVelocity = NaN), /angularVelocity must be a finite number, got NaN/);
    refuses(w, () => (b.linearVelocity = "fast"), /linearVelocity must be \[x, y\], got "fast"/);
    refuses(w, () => w.castRay([0, 0], [0, 0]), /translation|direction/);
    refuses(w, () => new World({ substeps: 0 }), /substeps/);
    refuses(w, () => new World({ gravty: [0, 0] }), /new World has no option named "gravty"/);
    w.free();
});

test("bad shapes are refused by name", () => {
    assert.throws(() => new Circle(-1), (e) => e instanceof LaminaError && /radius/.test(e.message));
    assert.throws(() => new Circle(NaN), /radius must be a finite number, got NaN/);
    assert.throws(() => new Box(0.5, 0), LaminaError);
    assert.throws(() => new Polygon([[0, 0], [1, 1], [2, 2]]), LaminaError);
    assert.throws(() => new Polygon([[0, 0], [1, 0], [0, NaN]]), /points\[2\]\[1\] must be a finite number, got NaN/);
});

test("handles of another world and removed handles are refused", () => {
    const { w, b } = scene();
    const other = new World();
    const theirs = other.addBody("dynamic");
    refuses(w, () => w.addCollider(theirs, new Circle(1)), /body belongs to another world/);
    refuses(w, () => w.removeBody(theirs), /belongs to another world/);
    w.removeBody(b);
    refuses(w, () => b.position, /the body was removed from its world/);
    refuses(w, () => w.addCollider(b, new Circle(1)), /the body was removed from its world/);
    assert.equal(b.isValid, false);
    other.free();
    w.free();
});

test("a freed world throws LaminaError on every call", () => {
    const { w, b } = scene();
    w.free();
    for (const f of [() => w.step(1 / 60), () => w.stateHash(), () => b.position, () => w.addBody("dynamic")]) {
        assert.throws(f, (e) => e instanceof LaminaError && /the world was freed/.test(e.message));
    }
    w.free(); // twice is fine
});

test("a world whose call panicked refuses every later call; other worlds go on", () => {
    const { w, b } = scene();
    const other = scene();
    assert.throws(
        () => w._panicForTest(),
        (e) => e instanceof LaminaError && /panicked inside the engine \([\s\S]*a panic asked for by a test/.test(e.message),
    );
    for (const f of [() => w.step(1 / 60), () => w.stateHash(), () => b.position]) {
        assert.throws(f, (e) => e instanceof LaminaError && /can no longer be used/.test(e.message));
    }
    w.free();
    const before = other.w.stateHash();
    other.w.step(1 / 60);
    assert.notEqual(other.w.stateHash(), before);
    other.w.free();
});
