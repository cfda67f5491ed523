// Prints the state hash of every scene (JSON, hashes as decimal strings) and
// which build ran them: the determinism test runs this once per build
// (LAMINA_SIMD=1 and 0) in a process of its own.

import * as lamina from "../pkg/node.js";
import { sceneHashes } from "./scenes.mjs";

const steps = Number(process.argv[2] ?? 300);
console.log(JSON.stringify({ build: lamina.loadedBuild(), hashes: sceneHashes(lamina, steps) }));
