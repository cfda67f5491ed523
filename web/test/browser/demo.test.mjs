// The demo page (web/demo) in headless Chromium: it loads the package in a
// browser, steps the scenes and draws them, and its controls and mouse
// dragging work. It reads the physics through the page's test hook,
// `window.laminaDemo`, and the pixels through the canvas.
//
//   node --test web/test/browser/*.test.mjs   (or: node web/test/browser/demo.test.mjs)
//
// It needs web/pkg (web/build.sh), playwright-core (`npm ci` in web/) and
// Debian's Chromium at /usr/bin/chromium. Without the last two it skips,
// saying which is missing, unless LAMINA_REQUIRE_BROWSER=1 (CI), which makes
// that a failure. It writes a screenshot to web/target/demo.png.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { serve } from "../../demo/serve.mjs";
import { mismatches, nativeHashes } from "../../scenes/native-hashes.mjs";

const WEB = fileURLToPath(new URL("../../", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--headless",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
];
// Every wait is bounded: a page that stops stepping fails in seconds, not at
// the test runner's mercy.
const WAIT_MS = 20_000;
const TEST_MS = 60_000;

async function loadPlaywright() {
    try {
        return await import("playwright-core");
    } catch {
        return null;
    }
}

const playwright = await loadPlaywright();
const missing =
    playwright === null
        ? "playwright-core is not installed (run `npm ci` in web/)"
        : existsSync(CHROMIUM)
          ? null
          : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
if (missing !== null && process.env.LAMINA_REQUIRE_BROWSER === "1") {
    throw new Error(`the browser test cannot run: ${missing}`);
}
const skip = missing ?? false;

let server = null;
let native = null; // the native state hashes of the determinism scenes
let context = null;
let profile = null;
let page = null;
const problems = []; // console errors, uncaught exceptions, failed requests

before(async () => {
    if (skip) return;
    assert.ok(existsSync(join(WEB, "pkg/raw/lamina2d_simd.wasm")), "web/pkg is not built (web/build.sh)");
    // Before the tests and their time limits: on a fresh checkout this
    // builds the native helper (a minute or two).
    native = nativeHashes();
    ({ server } = await serve(0));
    profile = await mkdtemp(join(tmpdir(), "lamina2d-chromium-"));
    context = await playwright.chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
        headless: true,
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        timeout: 30_000,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(WAIT_MS);
    page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
    page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
    page.on("response", (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
});

after(async () => {
    await context?.close().catch(() => {});
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    if (profile !== null) await rm(profile, { recursive: true, force: true });
});

// The page's state, through its test hook.
const demo = (f, argument) => page.evaluate(f, argument);
const stepCount = () => demo(() => window.laminaDemo.stepCount);

// Waits until the page has stepped `steps` more times than now.
async function stepsPass(steps) {
    const target = (await stepCount()) + steps;
    await page.waitForFunction((n) => window.laminaDemo.stepCount >= n, target, { timeout: WAIT_MS });
}

async function loadScene(name) {
    await demo((n) => window.laminaDemo.load(n), name);
    assert.equal(await demo(() => window.laminaDemo.sceneName), name);
}

test("the demo page loads the package and steps", { skip, timeout: TEST_MS }, async () => {
    const { port } = server.address();
    await page.goto(`http://127.0.0.1:${port}/demo/#pyramid`);
    await page.waitForFunction(() => window.laminaDemo?.stepCount > 10, null, { timeout: WAIT_MS });
    assert.equal(await demo(() => window.laminaDemo.sceneName), "pyramid");
    assert.equal(await demo(() => window.laminaDemo.paused), false);
    // The step time shown is a number of milliseconds.
    await page.waitForFunction(() => /\d ms\/step/.test(document.querySelector("#stats").textContent));
    const shown = await page.textContent("#stats");
    assert.match(shown, /211 bodies/); // 210 boxes and the ground
    // The scene menu lists every scene.
    const options = await page.$$eval("#scene option", (list) => list.map((o) => o.value));
    assert.deepEqual(options, await demo(() => window.laminaDemo.scenes));
});

test("falling bodies fall", { skip, timeout: TEST_MS }, async () => {
    await page.selectOption("#scene", "falling");
    assert.equal(await demo(() => window.laminaDemo.sceneName), "falling");
    // The last body of the scene starts highest.
    const last = await demo(() => window.laminaDemo.scene.bodies.length - 1);
    const [, y0] = await demo((i) => window.laminaDemo.bodyPosition(i), last);
    await stepsPass(30);
    const [, y1] = await demo((i) => window.laminaDemo.bodyPosition(i), last);
    // Half a second of free fall at 10 m/s² is 1.25 m.
    assert.ok(y1 < y0 - 0.8, `the top body went from y = ${y0} to ${y1}`);
});

test("the pyramid stands", { skip, timeout: TEST_MS }, async () => {
    await loadScene("pyramid");
    const start = await demo(() => window.laminaDemo.scene.bodies.map((b) => b.position));
    await stepsPass(150);
    const now = await demo(() => window.laminaDemo.bodyPositions());
    const top = start.length - 1;
    const sink = start[top][1] - now[top][1];
    assert.ok(Math.abs(sink) < 0.1, `the top box sank ${sink} m in 2.5 s`);
    let drift = 0;
    for (let i = 1; i < start.length; i++) {
        drift = Math.max(drift, Math.hypot(now[i][0] - start[i][0], now[i][1] - start[i][1]));
    }
    assert.ok(drift < 0.2, `a box moved ${drift} m`);
});

test("dragging a box with the mouse pulls it toward the mouse", { skip, timeout: TEST_MS }, async () => {
    const top = await demo(() => window.laminaDemo.scene.bodies.length - 1);
    const start = await demo((i) => window.laminaDemo.bodyPosition(i), top);
    const target = [start[0] + 6, start[1] + 4];
    const grab = await demo((p) => window.laminaDemo.toClient(p), start);
    const to = await demo((p) => window.laminaDemo.toClient(p), target);
    await page.mouse.move(grab[0], grab[1]);
    await page.mouse.down();
    await page.mouse.move(to[0], to[1], { steps: 10 });
    assert.equal(await demo(() => window.laminaDemo.dragged), top);
    assert.equal(await demo(() => window.laminaDemo.world.jointCount), 1);
    await stepsPass(90);
    const held = await demo((i) => window.laminaDemo.bodyPosition(i), top);
    await page.mouse.up();
    const before = Math.hypot(target[0] - start[0], target[1] - start[1]);
    const afterDrag = Math.hypot(target[0] - held[0], target[1] - held[1]);
    assert.ok(afterDrag < 0.25 * before, `the box went from ${start} to ${held}, the mouse at ${target}`);
    // Letting go removes the mouse joint.
    assert.equal(await demo(() => window.laminaDemo.dragged), null);
    assert.equal(await demo(() => window.laminaDemo.world.jointCount), 0);
});

test("pause stops stepping, step advances one step, reset starts over", { skip, timeout: TEST_MS }, async () => {
    await page.click("#pause");
    assert.equal(await demo(() => window.laminaDemo.paused), true);
    assert.equal(await page.textContent("#pause"), "Play");
    const paused = await stepCount();
    await page.waitForTimeout(300);
    assert.equal(await stepCount(), paused, "the page stepped while paused");
    await page.click("#step");
    assert.equal(await stepCount(), paused + 1);
    await page.keyboard.press("s");
    assert.equal(await stepCount(), paused + 2);
    await page.waitForTimeout(100);
    assert.equal(await stepCount(), paused + 2);
    await page.click("#pause");
    await stepsPass(5);
    // Reset starts the scene over (paused, so that the count stays at 0).
    await page.keyboard.press(" ");
    assert.equal(await demo(() => window.laminaDemo.paused), true);
    await page.click("#reset");
    assert.equal(await stepCount(), 0);
    await page.click("#pause");
    await stepsPass(5);
});

test("the canvas shows the scene; a screenshot goes to web/target/demo.png", { skip, timeout: TEST_MS }, async () => {
    await loadScene("bridge");
    await stepsPass(100);
    const pixels = await page.evaluate(() => {
        const canvas = document.querySelector("#view");
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4);
        const colours = new Set();
        let painted = 0;
        for (const word of words) {
            colours.add(word);
            if (word !== words[0]) painted += 1;
        }
        return { colours: colours.size, painted: painted / words.length, width: canvas.width };
    });
    assert.ok(pixels.width >= 1000, `the canvas is ${pixels.width} px wide`);
    assert.ok(pixels.colours >= 8, `the canvas has ${pixels.colours} colours`);
    assert.ok(pixels.painted > 0.03, `${(100 * pixels.painted).toFixed(1)}% of the canvas is painted`);
    // The pointer off the buttons, which it would otherwise light up.
    await page.mouse.move(640, 780);
    await mkdir(join(WEB, "target"), { recursive: true });
    await page.screenshot({ path: join(WEB, "target/demo.png") });
});

// The determinism scenes stepped in Chromium, each build on a page of its
// own (a page loads one build): the native build's state hashes, bit for bit.
for (const build of ["simd", "nosimd"]) {
    test(`Chromium's ${build} build gives the native state hashes`, { skip, timeout: 2 * TEST_MS }, async () => {
        const { port } = server.address();
        const hashPage = await context.newPage();
        try {
            await hashPage.goto(`http://127.0.0.1:${port}/test/browser/hashes.html?build=${build}&steps=300`);
            await hashPage.waitForFunction(() => window.laminaHashes !== undefined, null, { timeout: 2 * WAIT_MS });
            const got = await hashPage.evaluate(() => window.laminaHashes);
            assert.equal(got.error, undefined, `the page failed: ${got.error}`);
            assert.equal(got.build, build);
            const wrong = mismatches(native, got.hashes, 300);
            assert.deepEqual(wrong, [], wrong.join("; "));
        } finally {
            await hashPage.close();
        }
    });
}

test("no console errors, uncaught exceptions or failed requests", { skip }, () => {
    assert.deepEqual(problems, []);
});
