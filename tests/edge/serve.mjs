// Serve a Netlify project through Netlify's local emulator (@netlify/dev) on a loopback port.
//
//   node tests/edge/serve.mjs PROJECT_DIR
//
// Prints one JSON line when ready: {"url": ..., "blobs": {"api_url", "site_id", "token"}},
// then serves until stdin closes or SIGTERM. Every request goes through `dev.handle()`: static
// files, headers, redirects and the real edge functions (run by Deno) with a local Blobs
// sandbox. The Blobs fields let a test act as the operator's CLI on the same sandbox.

import http from "node:http";
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

import { BlobsServer } from "@netlify/blobs/server";
import { NetlifyDev } from "@netlify/dev";

// The emulator differs from production in three ways the functions depend on; make it behave
// like production (the functions under test are not touched):
// 1. A GET does not return the blob's ETag, so `getWithMetadata` has none for `onlyIfMatch`.
// 2. A conditional PUT checks and writes in two steps, and the ETag is derived from the file's
//    mtime (ms): two quick writes can race or share an ETag. Production's conditional write
//    is atomic and its ETag changes with the content.
const etagOf = (bytes) => `"${createHash("sha256").update(bytes).digest("hex")}"`;
BlobsServer.generateETag = async (file) => {
  try {
    return etagOf(await fs.readFile(file));
  } catch {
    return "";
  }
};
const originalGet = BlobsServer.prototype.get;
BlobsServer.prototype.get = async function (req) {
  const response = await originalGet.call(this, req);
  if (response.status !== 200 || response.headers.get("content-type")?.startsWith("application/json")) {
    return response; // listings and signed-URL answers carry no blob
  }
  // The ETag of exactly the bytes returned (the file may change between two reads).
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set("etag", etagOf(body));
  return new Response(body, { headers, status: response.status });
};
const writes = new Map();
const originalPut = BlobsServer.prototype.put;
BlobsServer.prototype.put = function (req) {
  // One write per blob at a time: the check and the write become one step.
  const key = new URL(req.url ?? "", "http://x").pathname;
  const previous = writes.get(key) ?? Promise.resolve();
  const result = previous.then(() => originalPut.call(this, req));
  const settled = result.catch(() => {});
  writes.set(key, settled);
  settled.then(() => writes.get(key) === settled && writes.delete(key));
  return result;
};

// 3. The emulator hands a request to the edge functions' Deno server with fetch's default
//    `redirect: "follow"`, so a redirect a function answers (the search, 302) is followed
//    inside the emulator, back into the function, instead of reaching the client. Production
//    passes it on: hand those requests on with `redirect: "manual"`.
const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  if (init instanceof Request && init.headers.has("x-nf-edge-functions")) {
    return originalFetch(new Request(new Request(input, init), { redirect: "manual" }));
  }
  return originalFetch(input, init);
};

const projectRoot = path.resolve(process.argv[2] ?? ".");
process.chdir(projectRoot);
const dev = new NetlifyDev({
  projectRoot,
  aiGateway: { enabled: false },
  database: { enabled: false },
  functions: { enabled: false },
  geolocation: { enabled: false },
  images: { enabled: false },
});
await dev.start();

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade"]);

const server = http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? Buffer.concat(chunks) : null;
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      // Framing belongs to this hop: the body is passed on whole.
      if (!HOP_BY_HOP.has(req.rawHeaders[i].toLowerCase())) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    }
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? null : body,
    });
    const response = (await dev.handle(request)) ?? new Response("Not found", { status: 404 });
    const out = {};
    for (const [name, value] of response.headers) {
      if (name === "transfer-encoding" || name === "connection") continue;
      out[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
    }
    const payload = req.method === "HEAD" ? null : Buffer.from(await response.arrayBuffer());
    if (payload && !("content-length" in out)) out["content-length"] = String(payload.length);
    res.writeHead(response.status, out);
    res.end(payload ?? undefined);
  } catch (err) {
    console.error(err);
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(err?.stack ?? err));
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

const context = JSON.parse(Buffer.from(process.env.NETLIFY_BLOBS_CONTEXT, "base64").toString());
console.log(
  JSON.stringify({
    url: `http://127.0.0.1:${server.address().port}`,
    blobs: { api_url: context.edgeURL, site_id: context.siteID, token: context.token },
  }),
);

const stop = async () => {
  server.close();
  await dev.stop();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.resume();
