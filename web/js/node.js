// lamina2d for Node: the API of lamina2d.js with the compiled module loaded
// synchronously on import, from the wasm file beside this one. The build
// with SIMD instructions where the runtime runs them; LAMINA_SIMD=0 (or 1)
// in the environment picks one by hand (the determinism tests run both).

import { readFileSync } from "node:fs";
import { initSync, simdSupported, wasmFileName } from "./lamina2d.js";

const asked = process.env.LAMINA_SIMD;
const simd = asked === undefined || asked === "" ? simdSupported() : asked !== "0";
initSync(readFileSync(new URL(`./raw/${wasmFileName(simd)}`, import.meta.url)), simd ? "simd" : "nosimd");

export * from "./lamina2d.js";
export { default } from "./lamina2d.js";
