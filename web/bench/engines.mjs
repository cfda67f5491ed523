// The four engines of the benchmark behind one small interface:
//
//   engine.build(scene) -> { step(), position(i) -> [x, y], free() }
//
// `scene` is a description from web/scenes/descriptions.mjs (metres, y up);
// each adapter makes the same bodies, shapes, materials and hinges in its
// engine's terms and steps 1/60 s. Sleeping is off in all four, so that every
// step does the full work of the scene whatever each engine's sleep rules.
// Solver settings are each engine's own defaults, named in `settings`.

import { readFileSync } from "node:fs";

import RAPIER from "@dimforge/rapier2d-compat";
import Matter from "matter-js";
import * as planck from "planck";

import * as lamina from "../pkg/node.js";
import { buildInLamina } from "../scenes/descriptions.mjs";

export const DT = 1 / 60;

function versionOf(packageDirectory) {
    const file = new URL(`../${packageDirectory}/package.json`, import.meta.url);
    return JSON.parse(readFileSync(file, "utf8")).version;
}

function unsupported(engine, what) {
    throw new Error(`the ${engine} adapter does not build ${what}`);
}

// A point given in world coordinates, in the frame of a body at `position`
// turned by `angle`.
function toLocal([x, y], position, angle) {
    const dx = x - position[0];
    const dy = y - position[1];
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    return [c * dx + s * dy, -s * dx + c * dy];
}

// --- Lamina ----------------------------------------------------------------------

const laminaEngine = {
    name: "Lamina",
    version: `${versionOf(".")} (${lamina.loadedBuild() === "simd" ? "wasm SIMD" : "wasm"})`,
    settings: "4 substeps (its default), soft contacts and joints",
    build(scene) {
        const { world, bodies } = buildInLamina(lamina, scene, { enableSleep: false });
        return {
            step: () => world.step(DT),
            position: (i) => bodies[i].position,
            free: () => world.free(),
        };
    },
};

// --- planck.js (Box2D 2.x in JavaScript) --------------------------------------------

const planckEngine = {
    name: "planck.js",
    version: versionOf("node_modules/planck"),
    settings: "8 velocity and 3 position iterations (Box2D 2.x's usual)",
    build(scene) {
        const world = new planck.World({ gravity: { x: 0, y: -10 }, allowSleep: false });
        const bodies = scene.bodies.map((d) => {
            const body = world.createBody({
                type: d.kind === "fixed" ? "static" : "dynamic",
                position: { x: d.position[0], y: d.position[1] },
                angle: d.angle ?? 0,
                angularVelocity: d.angularVelocity ?? 0,
            });
            body.createFixture(planckShape(d.shape), {
                density: d.density ?? 1,
                friction: d.friction ?? 0.6,
                restitution: d.restitution ?? 0,
                filterGroupIndex: d.group ?? 0,
            });
            return body;
        });
        for (const j of scene.joints) {
            const limited = j.lower !== undefined;
            const motor = j.motorSpeed !== undefined;
            const options = {
                enableLimit: limited,
                lowerAngle: j.lower ?? 0,
                upperAngle: j.upper ?? 0,
                enableMotor: motor,
                motorSpeed: j.motorSpeed ?? 0,
                maxMotorTorque: j.maxMotorTorque ?? 0,
            };
            const anchor = { x: j.anchor[0], y: j.anchor[1] };
            world.createJoint(new planck.RevoluteJoint(options, bodies[j.a], bodies[j.b], anchor));
        }
        return {
            step: () => world.step(DT, 8, 3),
            position: (i) => {
                const p = bodies[i].getPosition();
                return [p.x, p.y];
            },
            free: () => {},
        };
    },
};

function planckShape(shape) {
    switch (shape.type) {
        case "box":
            return new planck.Box(shape.halfWidth, shape.halfHeight);
        case "circle":
            return new planck.Circle(shape.radius);
        case "segment":
            return new planck.Edge({ x: shape.p1[0], y: shape.p1[1] }, { x: shape.p2[0], y: shape.p2[1] });
        default:
            return unsupported("planck.js", `a ${shape.type}`);
    }
}

// --- matter.js ------------------------------------------------------------------------

// matter.js works in pixels with y down, and its default gravity (1 × 0.001
// px/ms²) is 1000 px/s²: at 100 px a metre that is 10 m/s², and its defaults
// (slop, resting thresholds) are tuned for bodies tens of pixels across.
const PX = 100;

const matterEngine = {
    name: "matter.js",
    version: versionOf("node_modules/matter-js"),
    settings: "its defaults: 6 position, 4 velocity and 2 constraint iterations",
    build(scene) {
        const engine = Matter.Engine.create({ enableSleeping: false, gravity: { x: 0, y: 1, scale: 0.001 } });
        const bodies = scene.bodies.map((d) => {
            const options = {
                angle: -(d.angle ?? 0),
                isStatic: d.kind === "fixed",
                friction: d.friction ?? 0.6,
                restitution: d.restitution ?? 0,
                // Its density is mass per px²; only mass ratios matter here.
                density: (d.density ?? 1) / (PX * PX),
                collisionFilter: { group: d.group ?? 0 },
            };
            const [x, y] = [d.position[0] * PX, -d.position[1] * PX];
            const shape = d.shape;
            if (shape.type === "box") {
                return Matter.Bodies.rectangle(x, y, 2 * shape.halfWidth * PX, 2 * shape.halfHeight * PX, options);
            }
            if (shape.type === "circle") return Matter.Bodies.circle(x, y, shape.radius * PX, options);
            return unsupported("matter.js", `a ${shape.type}`);
        });
        Matter.Composite.add(engine.world, bodies);
        for (const j of scene.joints) {
            if (j.lower !== undefined || j.motorSpeed !== undefined) {
                unsupported("matter.js", "hinge limits or motors (it has neither)");
            }
            // A pin: both bodies' points at the anchor, held at distance 0.
            const [a, b] = [bodies[j.a], bodies[j.b]];
            const ax = j.anchor[0] * PX;
            const ay = -j.anchor[1] * PX;
            const pin = Matter.Constraint.create({
                bodyA: a,
                bodyB: b,
                pointA: { x: ax - a.position.x, y: ay - a.position.y },
                pointB: { x: ax - b.position.x, y: ay - b.position.y },
                length: 0,
                stiffness: 1,
            });
            Matter.Composite.add(engine.world, pin);
        }
        return {
            step: () => Matter.Engine.update(engine, 1000 * DT),
            position: (i) => [bodies[i].position.x / PX, -bodies[i].position.y / PX],
            free: () => Matter.Engine.clear(engine),
        };
    },
};

// --- Rapier (@dimforge/rapier2d-compat: Rust in WebAssembly) ------------------------

await RAPIER.init();

// Box2D's rule for negative groups (members never collide with each other)
// in Rapier's terms: the members of group -n belong to bit n alone and
// collide with every bit but n. Interaction groups are 16 bits of
// membership over 16 bits of filter.
function rapierGroups(group) {
    if (group === undefined || group >= 0) return 0xffff_ffff;
    if (-group > 15) unsupported("Rapier", `collision group ${group}`);
    const bit = 1 << -group;
    return ((bit << 16) | (0xffff & ~bit)) >>> 0;
}

const rapierEngine = {
    name: "Rapier",
    version: versionOf("node_modules/@dimforge/rapier2d-compat"),
    settings: "its defaults: 4 solver iterations, 1 internal PGS iteration",
    build(scene) {
        const world = new RAPIER.World({ x: 0, y: -10 });
        world.timestep = DT;
        const bodies = scene.bodies.map((d) => {
            const desc = (d.kind === "fixed" ? RAPIER.RigidBodyDesc.fixed() : RAPIER.RigidBodyDesc.dynamic())
                .setTranslation(d.position[0], d.position[1])
                .setRotation(d.angle ?? 0)
                .setAngvel(d.angularVelocity ?? 0)
                .setCanSleep(false);
            const body = world.createRigidBody(desc);
            const collider = rapierShape(d.shape)
                .setDensity(d.density ?? 1)
                .setFriction(d.friction ?? 0.6)
                .setRestitution(d.restitution ?? 0)
                .setCollisionGroups(rapierGroups(d.group));
            world.createCollider(collider, body);
            return body;
        });
        for (const j of scene.joints) {
            const [da, db] = [scene.bodies[j.a], scene.bodies[j.b]];
            const la = toLocal(j.anchor, da.position, da.angle ?? 0);
            const lb = toLocal(j.anchor, db.position, db.angle ?? 0);
            const data = RAPIER.JointData.revolute({ x: la[0], y: la[1] }, { x: lb[0], y: lb[1] });
            const joint = world.createImpulseJoint(data, bodies[j.a], bodies[j.b], true);
            if (j.lower !== undefined) joint.setLimits(j.lower, j.upper);
            if (j.motorSpeed !== undefined) unsupported("Rapier", "hinge motors");
        }
        return {
            step: () => world.step(),
            position: (i) => {
                const t = bodies[i].translation();
                return [t.x, t.y];
            },
            free: () => world.free(),
        };
    },
};

function rapierShape(shape) {
    switch (shape.type) {
        case "box":
            return RAPIER.ColliderDesc.cuboid(shape.halfWidth, shape.halfHeight);
        case "circle":
            return RAPIER.ColliderDesc.ball(shape.radius);
        case "segment":
            return RAPIER.ColliderDesc.segment({ x: shape.p1[0], y: shape.p1[1] }, { x: shape.p2[0], y: shape.p2[1] });
        default:
            return unsupported("Rapier", `a ${shape.type}`);
    }
}

/** Lamina first: the ratios are against it. */
export const ENGINES = [laminaEngine, planckEngine, matterEngine, rapierEngine];
