// The scenes of the determinism test, built through the JavaScript API with
// the same numbers as web/native-hashes/src/main.rs builds them natively:
// the two files change together. Each scene takes `L`, the package's API
// (Node's pkg/node.js, or pkg/lamina2d.js in a browser), and the world.

function ground(L, w, halfWidth) {
    const g = w.addBody("fixed", { position: [0, -0.5] });
    w.addCollider(g, new L.Box(halfWidth, 0.5));
    return g;
}

// A 20-row pyramid of unit boxes on the ground.
function pyramid(L, w) {
    ground(L, w, 40);
    const rows = 20;
    for (let row = 0; row < rows; row++) {
        const count = rows - row;
        for (let i = 0; i < count; i++) {
            const x = (i - (count - 1) / 2) * 1.05;
            const y = 0.5 + row * 1.0;
            const b = w.addBody("dynamic", { position: [x, y] });
            w.addCollider(b, new L.Box(0.5, 0.5));
        }
    }
}

// Eight chains of five capsules hinged end to end, their hinges limited,
// dropped turning onto the ground.
function ragdolls(L, w) {
    ground(L, w, 40);
    for (let k = 0; k < 8; k++) {
        const x = -14 + k * 4;
        let previous = null;
        for (let link = 0; link < 5; link++) {
            const y = 3 + link * 0.6;
            const b = w.addBody("dynamic", { position: [x, y], angle: 0.1 * k, angularVelocity: 0.5 - 0.15 * link });
            w.addCollider(b, new L.Capsule([0, -0.25], [0, 0.25], 0.12), { density: 2, friction: 0.4 });
            if (previous !== null) {
                w.addRevoluteJoint(previous, b, { anchor: [x, y - 0.3], lower: -0.6, upper: 0.6 });
            }
            previous = b;
        }
    }
}

// A paddle turned by a motor on a hinge, in a box of walls, stirring
// circles and boxes.
function spinner(L, w) {
    const g = ground(L, w, 10);
    for (const x of [-10, 10]) {
        const wall = w.addBody("fixed", { position: [x, 5] });
        w.addCollider(wall, new L.Segment([0, -5.5], [0, 5]));
    }
    const paddle = w.addBody("dynamic", { position: [0, 3] });
    w.addCollider(paddle, new L.Box(6, 0.25), { density: 5 });
    w.addRevoluteJoint(g, paddle, { anchor: [0, 3], motorSpeed: 2, maxMotorTorque: 50000 });
    for (let i = 0; i < 120; i++) {
        const x = -8 + (i % 12) * 1.4;
        const y = 6 + Math.floor(i / 12) * 1.1;
        const b = w.addBody("dynamic", { position: [x, y] });
        const shape = i % 2 === 0 ? new L.Circle(0.4) : new L.Box(0.35, 0.3);
        w.addCollider(b, shape, { restitution: 0.2 });
    }
}

const HEXAGON = [
    [0.5, 0],
    [0.25, 0.433],
    [-0.25, 0.433],
    [-0.5, 0],
    [-0.25, -0.433],
    [0.25, -0.433],
];

// Boxes, circles, polygons and capsules in a grid, dropped on the ground.
function falling(L, w) {
    ground(L, w, 40);
    const hexagon = new L.Polygon(HEXAGON);
    for (let i = 0; i < 200; i++) {
        const x = -15 + (i % 20) * 1.5;
        const y = 2 + Math.floor(i / 20) * 1.6;
        const b = w.addBody("dynamic", { position: [x, y], angle: 0.05 * (i % 7) });
        const shapes = [new L.Box(0.5, 0.4), new L.Circle(0.45), hexagon, new L.Capsule([-0.3, 0], [0.3, 0], 0.25)];
        w.addCollider(b, shapes[i % 4], { density: 1 + (i % 3), friction: 0.5 });
    }
}

// A 12 × 12 grid of circles hinged to their left and upper neighbours, hung
// from its top-left corner; the circles do not collide (group -1).
function jointGrid(L, w) {
    const n = 12;
    const keys = Array.from({ length: n }, () => new Array(n).fill(null));
    for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
            const x = i * 1.0;
            const y = 20 - j * 1.0;
            const b = w.addBody(i === 0 && j === 0 ? "fixed" : "dynamic", { position: [x, y] });
            w.addCollider(b, new L.Circle(0.4), { group: -1 });
            if (i > 0) w.addRevoluteJoint(keys[i - 1][j], b, { anchor: [x - 0.5, y] });
            if (j > 0) w.addRevoluteJoint(keys[i][j - 1], b, { anchor: [x, y + 0.5] });
            keys[i][j] = b;
        }
    }
}

export const SCENES = { pyramid, ragdolls, spinner, falling, joint_grid: jointGrid };

// The state hash of a scene after `steps` steps of 1/60 s, built and stepped
// through `L`, the package's API as Node (pkg/node.js) or a browser
// (pkg/lamina2d.js after `init`) loads it.
export function sceneHash(L, name, steps) {
    const w = new L.World();
    try {
        SCENES[name](L, w);
        for (let s = 0; s < steps; s++) w.step(1 / 60);
        return w.stateHash();
    } finally {
        w.free();
    }
}

// Every scene's state hash after `steps` steps, as decimal strings by name.
export function sceneHashes(L, steps) {
    const hashes = {};
    for (const name of Object.keys(SCENES)) hashes[name] = String(sceneHash(L, name, steps));
    return hashes;
}
