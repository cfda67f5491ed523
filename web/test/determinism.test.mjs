// The WebAssembly builds (with and without SIMD) give the state hashes of a
// native x86-64 build on 1 and 2 threads, scene by scene, in Node. The same
// in Chromium: test/browser/demo.test.mjs.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { mismatches, nativeHashes } from "../scenes/native-hashes.mjs";

const web = fileURLToPath(new URL("..", import.meta.url));
const STEPS = 300;

// Each build in a process of its own: a process loads one build.
function wasmHashes(simd) {
    const out = execFileSync(process.execPath, [`${web}scenes/hash-scenes.mjs`, String(STEPS)], {
        env: { ...process.env, LAMINA_SIMD: simd ? "1" : "0" },
        encoding: "utf8",
        timeout: 120_000,
    });
    return JSON.parse(out);
}

const native = nativeHashes();

for (const simd of [true, false]) {
    const build = simd ? "simd" : "nosimd";
    test(`the ${build} build's state hashes equal the native ones`, () => {
        const got = wasmHashes(simd);
        assert.equal(got.build, build);
        const wrong = mismatches(native, got.hashes, STEPS);
        assert.deepEqual(wrong, [], wrong.join("; "));
    });
}
