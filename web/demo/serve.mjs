// A static file server for the demo: serves web/ on 127.0.0.1, so that the
// page at /demo/ imports the package from /pkg/ and its scenes from /scenes/.
//
//   node web/demo/serve.mjs [port]     # 0 or none: any free port
//
// It prints the demo's URL. Browsers load ES modules and wasm only over HTTP
// (not from file:), and compile wasm while it downloads only when it comes
// as application/wasm; hence this server rather than opening the file.

import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".wasm": "application/wasm",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".ts": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
};

const HEADERS = {
    // Always the file on disk: the package is rebuilt under the same names.
    "Cache-Control": "no-store",
    // Cross-origin isolation, which gives the page a finer performance.now()
    // (5 µs rather than 100 µs in Chromium) for the step times it shows.
    // Everything the page loads comes from this server, so nothing breaks.
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "X-Content-Type-Options": "nosniff",
};

function send(response, status, text, headers = {}) {
    response.writeHead(status, { ...HEADERS, "Content-Type": "text/plain; charset=utf-8", ...headers });
    response.end(text);
}

async function handle(request, response) {
    if (request.method !== "GET" && request.method !== "HEAD") {
        return send(response, 405, "method not allowed\n", { Allow: "GET, HEAD" });
    }
    const url = new URL(request.url, "http://localhost");
    let path;
    try {
        path = decodeURIComponent(url.pathname);
    } catch {
        return send(response, 400, "bad path\n");
    }
    // Nothing outside web/: normalize away any `..` and check the prefix.
    const file = normalize(join(ROOT, path));
    if (file !== ROOT.slice(0, -1) && !file.startsWith(ROOT)) return send(response, 403, "forbidden\n");
    let info;
    try {
        info = await stat(file);
    } catch {
        return send(response, 404, `not found: ${path}\n`);
    }
    if (info.isDirectory()) {
        // /demo must become /demo/, or the page's relative imports resolve from /.
        if (!path.endsWith("/")) return send(response, 301, "", { Location: `${url.pathname}/${url.search}` });
        return handleFile(request, response, join(file, "index.html"));
    }
    return handleFile(request, response, file, info);
}

async function handleFile(request, response, file, info) {
    try {
        info ??= await stat(file);
    } catch {
        return send(response, 404, "no index.html here\n");
    }
    if (!info.isFile()) return send(response, 404, "not a file\n");
    response.writeHead(200, {
        ...HEADERS,
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        "Content-Length": info.size,
        // The page's own resources, under COEP's require-corp.
        "Cross-Origin-Resource-Policy": "same-origin",
    });
    if (request.method === "HEAD") return response.end();
    createReadStream(file)
        .on("error", () => response.destroy())
        .pipe(response);
}

/**
 * Starts the server on 127.0.0.1 and `port` (0: any free one). Resolves to
 * { server, url }, url the root's (the demo is at `${url}demo/`).
 */
export function serve(port = 0) {
    const server = createServer((request, response) => {
        handle(request, response).catch((error) => {
            if (!response.headersSent) send(response, 500, `${error.message}\n`);
            else response.destroy();
        });
    });
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
            server.off("error", reject);
            resolve({ server, url: `http://127.0.0.1:${server.address().port}/` });
        });
    });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
    const port = Number(process.argv[2] ?? 0);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
        console.error(`usage: node serve.mjs [port], a port from 0 to 65535, got ${process.argv[2]}`);
        process.exit(2);
    }
    const { url } = await serve(port);
    console.log(`serving web/ at ${url}`);
    console.log(`the demo: ${url}demo/`);
}
