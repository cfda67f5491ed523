// Scenes as plain data, free of any engine: the demo page builds them in
// Lamina and draws them, the benchmark builds the same data in Lamina,
// planck.js, matter.js and Rapier. Nothing here imports the package, so the
// module loads in browsers and in Node alike.
//
// A scene is
//   { title, view: { center, width, height }, bodies, joints }
// with, in metres, kilograms and radians (y up):
//   body:  { kind: "fixed" | "dynamic", position, angle?, angularVelocity?,
//            shape, density?, friction?, restitution?, group? }
//   shape: { type: "box", halfWidth, halfHeight } | { type: "circle", radius }
//          | { type: "capsule", p1, p2, radius } | { type: "segment", p1, p2 }
//   joint: a hinge { a, b, anchor, lower?, upper?, motorSpeed?, maxMotorTorque? }
//          between the bodies of index a and b, anchor in world coordinates.
// Omitted numbers take Lamina's defaults: density 1, friction 0.6,
// restitution 0. A negative `group` shared by two bodies keeps them from
// colliding (Box2D's rule, which all four engines have).

const box = (halfWidth, halfHeight) => ({ type: "box", halfWidth, halfHeight });
const circle = (radius) => ({ type: "circle", radius });
const capsule = (p1, p2, radius) => ({ type: "capsule", p1, p2, radius });
const segment = (p1, p2) => ({ type: "segment", p1, p2 });

// A fixed slab whose top face is y = 0.
function ground(halfWidth) {
    return { kind: "fixed", position: [0, -0.5], shape: box(halfWidth, 0.5) };
}

/** `rows` rows of unit boxes, 5 cm apart, standing on the ground. */
export function pyramid(rows = 20) {
    const bodies = [ground(Math.max(40, rows))];
    for (let row = 0; row < rows; row++) {
        const count = rows - row;
        for (let i = 0; i < count; i++) {
            bodies.push({
                kind: "dynamic",
                position: [(i - (count - 1) / 2) * 1.05, 0.5 + row],
                shape: box(0.5, 0.5),
            });
        }
    }
    const width = rows * 1.05 + 4;
    return {
        title: `Pyramid, ${rows} rows`,
        view: { center: [0, rows / 2], width, height: rows + 3 },
        bodies,
        joints: [],
    };
}

/** The index of a pyramid's top box (its last body). */
export const pyramidTop = (scene) => scene.bodies.length - 1;

/** `count` boxes and circles, alternating, dropped in rows into a walled bin. */
export function falling(count = 500) {
    const halfWidth = 20;
    const columns = 25;
    const rows = Math.ceil(count / columns);
    const top = 2 + rows * 1.3;
    const wallHalfHeight = top / 2 + 1;
    const bodies = [ground(halfWidth)];
    for (const x of [-halfWidth - 0.5, halfWidth + 0.5]) {
        bodies.push({ kind: "fixed", position: [x, wallHalfHeight - 1], shape: box(0.5, wallHalfHeight) });
    }
    for (let i = 0; i < count; i++) {
        const column = i % columns;
        const row = Math.floor(i / columns);
        // Every other row shifted by half a spacing, so that bodies land on
        // gaps rather than stack in columns.
        const x = (column - (columns - 1) / 2) * 1.45 + (row % 2) * 0.7;
        bodies.push({
            kind: "dynamic",
            position: [x, 2 + row * 1.3],
            angle: 0.1 * (i % 5),
            shape: i % 2 === 0 ? box(0.45, 0.35) : circle(0.4),
            friction: 0.5,
        });
    }
    return {
        title: `${count} boxes and circles`,
        view: { center: [0, top / 2], width: 2 * halfWidth + 4, height: top + 3 },
        bodies,
        joints: [],
    };
}

/**
 * A `side` × `side` grid of circles, each hinged to the one above and the one
 * on its left, midway between them; the circles never collide. Hinged at
 * their edges' midpoints the circles make a lattice as stiff as a plate, held
 * by joints alone. It hangs from seven fixed circles in the middle of its top
 * row (Box2D's joint grid benchmark), or with `hangByCorner` from its
 * top-left circle alone, and swings about it as a pendulum.
 */
export function jointGrid(side = 20, { hangByCorner = false } = {}) {
    const bodies = [];
    const joints = [];
    const index = (row, column) => column * side + row;
    const middle = Math.floor(side / 2);
    for (let column = 0; column < side; column++) {
        for (let row = 0; row < side; row++) {
            const x = hangByCorner ? column : column - (side - 1) / 2;
            const y = -row;
            const fixed = row === 0 && (hangByCorner ? column === 0 : Math.abs(column - middle) <= 3);
            bodies.push({ kind: fixed ? "fixed" : "dynamic", position: [x, y], shape: circle(0.4), group: -1 });
            if (row > 0) joints.push({ a: index(row - 1, column), b: index(row, column), anchor: [x, y + 0.5] });
            if (column > 0) joints.push({ a: index(row, column - 1), b: index(row, column), anchor: [x - 0.5, y] });
        }
    }
    // Hung by a corner, it swings through the half-disc below the corner
    // whose radius is its diagonal.
    const reach = Math.SQRT2 * (side - 1) + 1;
    const view = hangByCorner
        ? { center: [0, 1 - reach / 2], width: 2 * reach + 2, height: reach + 3 }
        : { center: [0, 1 - side / 2], width: side + 4, height: side + 3 };
    const title = `Joint grid, ${side} × ${side}${hangByCorner ? ", hung by a corner" : ""}`;
    return { title, view, bodies, joints };
}

/**
 * A rope bridge of planks between two posts, a few boxes and balls dropped
 * onto it, and chains of capsules that start level under a beam above and
 * swing down through what falls.
 */
export function bridge() {
    const bodies = [ground(30)];
    const joints = [];
    const add = (body) => bodies.push(body) - 1;
    // Posts, and the bridge: 30 planks from x = -15 to 15, hinged end to end.
    const posts = [-15.5, 15.5].map((x) => add({ kind: "fixed", position: [x, 3.5], shape: box(0.5, 4) }));
    const planks = 30;
    let previous = posts[0];
    for (let i = 0; i < planks; i++) {
        const x = -15 + 0.5 + i;
        const plank = add({ kind: "dynamic", position: [x, 7.4], shape: box(0.5, 0.1), friction: 0.8 });
        joints.push({ a: previous, b: plank, anchor: [x - 0.5, 7.4] });
        previous = plank;
    }
    joints.push({ a: previous, b: posts[1], anchor: [15, 7.4] });
    for (let i = 0; i < 12; i++) {
        const x = -9 + i * 1.6;
        const shape = i % 3 === 0 ? circle(0.45) : box(0.45, 0.45);
        add({ kind: "dynamic", position: [x, 9 + (i % 4) * 1.2], angle: 0.3 * i, shape });
    }
    // Chains: ten capsule links 0.6 m long, hinged end to end and laid out
    // level, away from the middle, and a weight at the end of each.
    const beam = add({ kind: "fixed", position: [0, 19], shape: box(14, 0.2) });
    for (const x of [-10, -3, 3, 10]) {
        const direction = Math.sign(x);
        const y = 18.7;
        previous = beam;
        for (let link = 0; link < 10; link++) {
            const start = x + direction * link * 0.6;
            const body = add({
                kind: "dynamic",
                position: [start + direction * 0.3, y],
                shape: capsule([-0.25, 0], [0.25, 0], 0.1),
                density: 2,
            });
            joints.push({ a: previous, b: body, anchor: [start, y] });
            previous = body;
        }
        const end = x + direction * 6;
        const weight = add({ kind: "dynamic", position: [end + direction * 0.5, y], shape: circle(0.5), density: 2 });
        joints.push({ a: previous, b: weight, anchor: [end, y] });
    }
    return { title: "Bridge and chains", view: { center: [0, 9.5], width: 36, height: 21 }, bodies, joints };
}

/**
 * A paddle turned by a motor on a hinge, in a closed bin, stirring circles
 * and boxes (the determinism test's spinner, in a taller bin with a lid).
 */
export function spinner() {
    const bodies = [ground(10)];
    const wall = (position, p1, p2) => bodies.push({ kind: "fixed", position, shape: segment(p1, p2) });
    for (const x of [-10, 10]) wall([x, 8], [0, -8.5], [0, 8]);
    wall([0, 16], [-10, 0], [10, 0]);
    const paddle = bodies.push({ kind: "dynamic", position: [0, 7], shape: box(6, 0.25), density: 5 }) - 1;
    const joints = [{ a: 0, b: paddle, anchor: [0, 7], motorSpeed: 2, maxMotorTorque: 50000 }];
    for (let i = 0; i < 120; i++) {
        bodies.push({
            kind: "dynamic",
            position: [-9 + (i % 15) * 1.25, 8.5 + Math.floor(i / 15) * 0.95],
            shape: i % 2 === 0 ? circle(0.4) : box(0.35, 0.3),
            restitution: 0.2,
        });
    }
    return { title: "Spinner", view: { center: [0, 7.75], width: 23, height: 18 }, bodies, joints };
}

/** The scenes of the demo page, in the order of its menu. */
export const DEMO_SCENES = {
    pyramid: () => pyramid(20),
    falling: () => falling(300),
    bridge,
    grid: () => jointGrid(20, { hangByCorner: true }),
    spinner,
};

function laminaShape(lamina, shape) {
    switch (shape.type) {
        case "box":
            return new lamina.Box(shape.halfWidth, shape.halfHeight);
        case "circle":
            return new lamina.Circle(shape.radius);
        case "capsule":
            return new lamina.Capsule(shape.p1, shape.p2, shape.radius);
        case "segment":
            return new lamina.Segment(shape.p1, shape.p2);
        default:
            throw new Error(`no shape of type ${shape.type}`);
    }
}

/**
 * Builds `scene` in Lamina: `lamina` is the package's module (browsers'
 * lamina2d.js after `init()`, or node.js), `settings` the World's options
 * beyond gravity (0, -10). Returns { world, bodies, joints }, the handles in
 * the scene's order.
 */
export function buildInLamina(lamina, scene, settings = {}) {
    const world = new lamina.World({ gravity: [0, -10], ...settings });
    const bodies = scene.bodies.map((d) => {
        const body = world.addBody(d.kind, {
            position: d.position,
            angle: d.angle ?? 0,
            angularVelocity: d.angularVelocity ?? 0,
        });
        world.addCollider(body, laminaShape(lamina, d.shape), {
            density: d.density ?? 1,
            friction: d.friction ?? 0.6,
            restitution: d.restitution ?? 0,
            group: d.group ?? 0,
        });
        return body;
    });
    const joints = scene.joints.map((j) =>
        world.addRevoluteJoint(bodies[j.a], bodies[j.b], {
            anchor: j.anchor,
            lower: j.lower,
            upper: j.upper,
            motorSpeed: j.motorSpeed,
            maxMotorTorque: j.maxMotorTorque,
        }),
    );
    return { world, bodies, joints };
}
