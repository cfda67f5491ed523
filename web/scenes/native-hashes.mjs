// The native state hashes of the determinism scenes, which every WebAssembly
// build (in Node and in Chromium, SIMD or not) must equal: from web/native-hashes
// (JSON), through the file named by LAMINA_NATIVE_HASHES, else
// web/target/native-hashes.json, else a fresh
// `cargo run --profile hashes -p lamina2d-native-hashes` (slow the first time).

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const web = fileURLToPath(new URL("..", import.meta.url));

export function nativeHashes() {
    const file = process.env.LAMINA_NATIVE_HASHES ?? `${web}target/native-hashes.json`;
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
    const out = execFileSync("cargo", ["run", "--quiet", "--profile", "hashes", "-p", "lamina2d-native-hashes"], {
        cwd: web,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        timeout: 900_000, // a cold release build of the engine
    });
    return JSON.parse(out);
}

// The scenes whose WebAssembly hashes (`got`: name -> decimal string) differ
// from the native ones, each as a line; checks that the native helper ran the
// scenes `steps` times and gave one hash on 1 and 2 threads.
export function mismatches(native, got, steps) {
    const lines = [];
    for (const [name, hashes] of Object.entries(native)) {
        if (hashes.steps !== steps) lines.push(`${name}: the native helper stepped ${hashes.steps} times, not ${steps}`);
        if (hashes["1"] !== hashes["2"]) lines.push(`${name}: native 1 and 2 threads differ`);
        if (got[name] !== hashes["1"]) lines.push(`${name}: wasm ${got[name]}, native ${hashes["1"]}`);
    }
    for (const name of Object.keys(got)) {
        if (!(name in native)) lines.push(`${name}: no native hash`);
    }
    return lines;
}
