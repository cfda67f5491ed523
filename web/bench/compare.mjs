// Lamina against planck.js, matter.js and Rapier in one Node process: the
// same scenes (web/scenes/descriptions.mjs), the same 1/60 s step, each
// engine's own solver defaults (bench/engines.mjs says which), sleeping off.
//
//   node bench/compare.mjs            # from web/; about a minute on two cores
//   node bench/compare.mjs --quick    # a few steps of each: does it all run?
//
// Options: --rounds N, --warmup N, --steps N, --scene TEXT (the scenes whose
// name contains TEXT). Needs web/pkg (build.sh) and `npm ci` in web/.
//
// Each round builds every engine's world afresh, steps it through the
// warm-up (bodies land, contacts form, JIT compilers settle) and times the
// next steps; the engines take turns within a round, in an order that
// rotates from round to round, so that a slow patch of the machine does not
// fall on one engine alone. The table keeps each engine's fastest round.
// After the last round it also says what each world looks like, since a time
// means little for a pyramid that fell.

import { cpus } from "node:os";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";

import { falling, jointGrid, pyramid, pyramidTop } from "../scenes/descriptions.mjs";
import { ENGINES } from "./engines.mjs";

const { values: args } = parseArgs({
    options: {
        quick: { type: "boolean", default: false },
        rounds: { type: "string" },
        warmup: { type: "string" },
        steps: { type: "string" },
        scene: { type: "string", default: "" },
    },
});

function count(name, fallback) {
    if (args[name] === undefined) return fallback;
    const n = Number(args[name]);
    if (!Number.isInteger(n) || n < (name === "warmup" ? 0 : 1)) {
        console.error(`--${name} takes a whole number, got ${args[name]}`);
        process.exit(2);
    }
    return n;
}

// A full garbage collection before each engine's timed steps, so that none
// is timed while the collector's helper threads still work through another
// engine's garbage (they share the cores, and on a machine with two
// hyperthreads, the core). Each engine's own garbage is still timed.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc");

const ROUNDS = count("rounds", args.quick ? 1 : 5);
const WARMUP = count("warmup", args.quick ? 5 : 60);
const STEPS = count("steps", args.quick ? 5 : 100);

// How a pyramid stands: how far its top box moved up or down, and the
// farthest any box moved. (Box2D 2.x's polygons carry a skin of 1 cm, which
// lifts each row of a stack a little.)
function topSink(scene, sim) {
    const top = pyramidTop(scene);
    const dy = sim.position(top)[1] - scene.bodies[top].position[1];
    let farthest = 0;
    scene.bodies.forEach((body, i) => {
        const [x, y] = sim.position(i);
        farthest = Math.max(farthest, Math.hypot(x - body.position[0], y - body.position[1]));
    });
    return `top ${dy > 0 ? "rose" : "sank"} ${Math.abs(dy).toFixed(3)} m, a box moved ${farthest.toFixed(2)} m`;
}

// How many bodies left the bin (through the floor or over a wall).
function escaped(scene, sim) {
    let out = 0;
    scene.bodies.forEach((body, i) => {
        if (body.kind !== "dynamic") return;
        const [x, y] = sim.position(i);
        if (y < -0.5 || Math.abs(x) > 20) out += 1;
    });
    return `${out} out of the bin`;
}

// How far the hinged neighbours of a grid came apart: at most their distance
// at the start while the hinges hold.
function stretch(scene, sim) {
    let most = 0;
    for (const { a, b } of scene.joints) {
        const [pa, pb] = [sim.position(a), sim.position(b)];
        const [qa, qb] = [scene.bodies[a].position, scene.bodies[b].position];
        const now = Math.hypot(pa[0] - pb[0], pa[1] - pb[1]);
        most = Math.max(most, now - Math.hypot(qa[0] - qb[0], qa[1] - qb[1]));
    }
    return `stretched ${most.toFixed(3)} m`;
}

const SCENES = [
    { name: "pyramid, 20 rows", make: () => pyramid(20), check: topSink },
    { name: "pyramid, 40 rows", make: () => pyramid(40), check: topSink },
    { name: "500 boxes and circles falling into a bin", make: () => falling(500), check: escaped },
    { name: "joint grid, 20 × 20 hinges", make: () => jointGrid(20), check: stretch },
].filter((s) => s.name.includes(args.scene));

if (SCENES.length === 0) {
    console.error(`no scene's name contains ${JSON.stringify(args.scene)}`);
    process.exit(2);
}

function run(engine, scene, check) {
    const sim = engine.build(scene);
    try {
        for (let i = 0; i < WARMUP; i++) sim.step();
        collectGarbage();
        const start = process.hrtime.bigint();
        for (let i = 0; i < STEPS; i++) sim.step();
        const ms = Number(process.hrtime.bigint() - start) / 1e6 / STEPS;
        return { ms, state: check?.(scene, sim) };
    } finally {
        sim.free();
    }
}

const began = performance.now();
const results = [];
for (const { name, make, check } of SCENES) {
    const scene = make();
    const best = ENGINES.map(() => Infinity);
    const states = ENGINES.map(() => "");
    for (let round = 0; round < ROUNDS; round++) {
        for (let turn = 0; turn < ENGINES.length; turn++) {
            const e = (turn + round) % ENGINES.length;
            const last = round === ROUNDS - 1;
            const { ms, state } = run(ENGINES[e], scene, last ? check : undefined);
            best[e] = Math.min(best[e], ms);
            if (last) states[e] = state;
        }
        process.stderr.write(`${name}: round ${round + 1} of ${ROUNDS}\n`);
    }
    results.push({ name, scene, best, states });
}
const seconds = (performance.now() - began) / 1000;

// --- the report ---------------------------------------------------------------------------

const ms = (t) => (t < 1 ? t.toFixed(3) : t.toFixed(2));
const row = (cells) => `| ${cells.join(" | ")} |`;
const names = ENGINES.map((e) => e.name);
const others = names.slice(1);
const lines = [
    `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}); ` +
        `dt 1/60 s, sleeping off; ${ROUNDS} round(s) of ${WARMUP} warm-up and ${STEPS} timed steps, ` +
        `the fastest round's ms per step, the garbage collected before each engine's timed steps.`,
    "",
    row(["scene", "bodies", "joints", ...names, ...others.map((name) => `${name} / Lamina`)]),
    row(["---", "---:", "---:", ...names.map(() => "---:"), ...others.map(() => "---:")]),
];
for (const { name, scene, best } of results) {
    const ratios = best.slice(1).map((t) => `${(t / best[0]).toFixed(2)}×`);
    lines.push(row([name, scene.bodies.length, scene.joints.length, ...best.map(ms), ...ratios]));
}
lines.push("", "A ratio above 1 means Lamina took less time per step.", "");
lines.push(row(["engine", "version", "solver"]), row(["---", "---", "---"]));
for (const e of ENGINES) lines.push(row([e.name, e.version, e.settings]));
lines.push("", `The worlds after ${WARMUP + STEPS} steps (the last round):`, "");
lines.push(row(["scene", ...names]), row(["---", ...names.map(() => "---")]));
for (const { name, states } of results) lines.push(row([name, ...states]));
lines.push("", `(${seconds.toFixed(0)} s in all)`);
console.log(lines.join("\n"));
