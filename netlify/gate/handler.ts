/**
 * The edge gate: the same rules as the Python gate (generator/gate/app.py), on Netlify.
 *
 * Order for an API route (DESIGN §7): route match (404/405) -> body size (413) -> parameter
 * validation (422) -> key (401/403) -> quota (429) -> resource (404 with a clear detail) -> 200.
 * Hidden files under /_data/ are fetched with `context.next()` on a rewritten request, never
 * with `fetch()` (that would re-enter this gate); direct hits on /_data/ are answered 404.
 * Every rule comes from routes.json, written by the build from the one route table.
 */

import type { Context } from "@netlify/edge-functions";

import { nextReset, quotaDay, secondsUntil } from "./clock.ts";
import { type Dumpable, dumps } from "./pyjson.ts";
import { parseQsl, pyStrip, unquote } from "./pytext.ts";
import { detailFor, fileFor, odbLicensed, type Route, type RouteTable } from "./routes.ts";
import { type GateState, StateBusyError } from "./state.ts";
import { BodyParseError, validate } from "./validate.ts";

const HIDDEN_DIR = "_data";
const MAX_KEY_HEADER = 256;
const REQUEST_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

// The Python gate's table (app.CONTENT_TYPES); tests/edge compares the two.
export const CONTENT_TYPES: Record<string, string> = {
  ".json": "application/json; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".parquet": "application/vnd.apache.parquet",
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
};
const JSON_TYPE = CONTENT_TYPES[".json"];
export const EXPOSED =
  "ETag, Link, Content-Disposition, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset";
// Conditional and range headers never reach the origin: the gate answers them itself.
const UPSTREAM_DROPPED = ["if-none-match", "if-match", "if-modified-since", "if-unmodified-since", "if-range", "range"];

type HeaderList = [string, string][];

export interface Dependencies {
  table: RouteTable;
  state: GateState;
  now?: () => number;
}

/** Return the decoded path segments, or null for a path no route may see (app.split_path). */
export function splitPath(pathname: string): string[] | null {
  if (!pathname.startsWith("/") || /%(2f|5c)/i.test(pathname) || pathname.includes("\\")) return null;
  const segments = pathname.slice(1).split("/").map(unquote);
  const last = segments.length - 1;
  for (const [i, segment] of segments.entries()) {
    if (segment === "." || segment === ".." || segment.includes("\0") || segment.includes("\\")) return null;
    if (segment === "" && i !== last) return null;
  }
  return segments;
}

function routeMatch(route: Route, segments: string[]): Record<string, string> | null {
  const template = route.path.replace(/^\/+|\/+$/g, "").split("/");
  if (template.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of template.entries()) {
    if (part.startsWith("{")) {
      if (!segments[i]) return null;
      params[part.slice(1, -1)] = segments[i];
    } else if (part !== segments[i]) return null;
  }
  return params;
}

/** If-None-Match against an ETag: weak comparison, lists and `*` (app._etag_matches). */
function etagMatches(header: string | null, etag: string): boolean {
  const value = pyStrip(header ?? "");
  if (value === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return value.split(",").some((tag) => pyStrip(tag).replace(/^W\//, "") === bare);
}

async function sha256Hex(data: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function newId(prefix: string, length: number): string {
  // Rejection sampling keeps every character equally likely (like secrets.choice).
  let id = prefix;
  while (id.length < prefix.length + length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < 252 && id.length < prefix.length + length) id += REQUEST_ID_ALPHABET[byte % 36];
    }
  }
  return id;
}

/** Micro-second UTC timestamps as the Python state writes them (`_ts`). */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, "000Z");
}

export function createGate({ table, state, now = Date.now }: Dependencies) {
  const settings = table.settings;
  const licensed = odbLicensed(table);
  const keyHeader = settings.key_header;

  const base = (contentType: string | null, cache: string): HeaderList => [
    ...(contentType ? [["content-type", contentType] as [string, string]] : []),
    ["access-control-allow-origin", "*"],
    ["access-control-expose-headers", EXPOSED],
    ["x-content-type-options", "nosniff"],
    ["cache-control", cache],
  ];
  const licenseLink = (): [string, string] => ["link", `<${settings.license_url}>; rel="license"`];

  const json = (status: number, body: Dumpable, headers: HeaderList) =>
    new Response(dumps(body), { status, headers });
  const error = (status: number, detail: string, extra: HeaderList = []) =>
    json(status, { detail }, [...base(JSON_TYPE, "no-store"), ...extra]);
  const notFound = () => error(404, "Not Found");
  const tooLarge = () => error(413, `Request body too large: at most ${settings.max_body_bytes} bytes.`);
  const busy = () =>
    error(503, "The gate's state is busy; please retry in a second.", [["retry-after", "1"]]);

  function preflight(allow: string): Response {
    return new Response(null, {
      status: 204,
      headers: [
        ["access-control-allow-origin", "*"],
        ["access-control-allow-methods", allow],
        ["access-control-allow-headers", `${keyHeader}, Content-Type, If-None-Match`],
        ["access-control-max-age", "86400"],
        ["allow", allow],
        ["cache-control", "public, max-age=86400"],
      ],
    });
  }

  /** Read the whole body; null as soon as it exceeds the limit (the stream is not drained). */
  async function readBody(request: Request): Promise<Uint8Array | null> {
    if (!request.body) return new Uint8Array();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > settings.max_body_bytes) return null;
      chunks.push(chunk);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return body;
  }

  /**
   * Answer a file of the published tree through the CDN (context.next on a rewritten request),
   * with the gate's own headers, ETag and 304; null if the file does not exist.
   */
  async function file(
    rel: string,
    request: Request,
    context: Context,
    cache: string,
    extra: HeaderList,
  ): Promise<Response | null> {
    const headers = new Headers(request.headers);
    for (const name of UPSTREAM_DROPPED) headers.delete(name);
    const path = "/" + rel.split("/").map(encodeURIComponent).join("/");
    // Always GET upstream: a HEAD answer has no body to compute the ETag from.
    const upstream = await context.next(new Request(new URL(path, request.url), { method: "GET", headers }));
    if (upstream.status === 404) return null;
    if (upstream.status !== 200) throw new Error(`the CDN answered ${upstream.status} for ${path}`);
    const body = new Uint8Array(await upstream.arrayBuffer());
    const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
    const suffix = /\.[^./]*$/.exec(rel)?.[0].toLowerCase() ?? "";
    const out: HeaderList = [
      ...base(CONTENT_TYPES[suffix] ?? "application/octet-stream", cache),
      ["etag", etag],
      ...extra,
    ];
    if (rel.endsWith(".csv")) out.push(["content-disposition", `attachment; filename="${rel.split("/").pop()}"`]);
    if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: out });
    // HEAD gets the body too: the HTTP layer drops it and keeps its Content-Length.
    return new Response(body, { status: 200, headers: [...out, ["content-length", String(body.byteLength)]] });
  }

  /** Check the key and count the request; a refusal, or null to go on (app._check_key). */
  async function checkKey(request: Request, extra: HeaderList): Promise<Response | null> {
    const presented = pyStrip(request.headers.get(keyHeader) ?? "");
    if (!presented) {
      return error(
        401,
        `Missing API key: send it in the ${keyHeader} header. Request a key with POST /v1/keys/antrag.`,
        [["www-authenticate", `ApiKey header="${keyHeader}"`]],
      );
    }
    const record = presented.length > MAX_KEY_HEADER
      ? null
      : await state.keyByHash(await sha256Hex(new TextEncoder().encode(presented)));
    if (!record) return error(403, "Invalid API key.");
    if (record.status !== "active") return error(403, "This API key has been revoked.");
    const at = now();
    const reset = nextReset(at);
    const limit = settings.daily_quota;
    const usage = await state.consume(record.id, quotaDay(at), limit);
    extra.push(
      ["x-ratelimit-limit", String(limit)],
      ["x-ratelimit-remaining", String(Math.max(0, limit - usage.used))],
      ["x-ratelimit-reset", String(Math.floor(reset.ms / 1000))],
    );
    if (!usage.allowed) {
      const retryAfter = Math.max(1, secondsUntil(at, reset.ms));
      return error(
        429,
        `Daily quota of ${limit} requests used up. It resets at midnight Europe/Berlin (${reset.iso}), in ${retryAfter} seconds.`,
        [...extra, ["retry-after", String(retryAfter)]],
      );
    }
    return null;
  }

  /** Store an access request before answering 202 (app.access_request). */
  async function accessRequest(values: Record<string, string | null>): Promise<Response> {
    const email = values.email!;
    const at = now();
    const windowMs = settings.request_window * 1000;
    const address = await sha256Hex(new TextEncoder().encode(pyStrip(email).toLowerCase()));
    const burst = await state.reserveBurst(address, at, settings.request_burst, windowMs);
    if (!burst.allowed) {
      const retryAfter = Math.max(1, secondsUntil(at, burst.freesAt!));
      return error(
        429,
        `Too many access requests for this address: at most ${settings.request_burst} per ` +
          `${Math.floor(settings.request_window / 60)} minutes. Your earlier requests are stored and will be answered.`,
        [["retry-after", String(retryAfter)]],
      );
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const request = {
        id: newId("req_", 16),
        email,
        zweck: values.zweck!,
        status: "pending" as const,
        created_at: timestamp(at),
      };
      if (await state.storeRequest(request)) {
        return json(
          202,
          {
            detail:
              "Your request is stored. An operator reviews it and sends the key to your address; the key is never part of this answer.",
            request_id: request.id,
            status: request.status,
          },
          base(JSON_TYPE, "no-store"),
        );
      }
    }
    throw new Error("could not draw an unused access request id");
  }

  async function api(
    request: Request,
    context: Context,
    url: URL,
    matches: [Route, Record<string, string>][],
  ): Promise<Response> {
    const method = request.method.toUpperCase();
    const allowed = new Set(matches.map(([r]) => r.method));
    if (allowed.has("GET")) allowed.add("HEAD");
    allowed.add("OPTIONS");
    const allow = [...allowed].sort().join(", ");
    if (method === "OPTIONS") return preflight(allow);
    const wanted = method === "HEAD" ? "GET" : method;
    const found = matches.find(([r]) => r.method === wanted);
    if (!found) return error(405, "Method Not Allowed", [["allow", allow]]);
    const [route, pathParams] = found;

    const length = request.headers.get("content-length") ?? "";
    if (/^[0-9]+$/.test(length) && Number(length) > settings.max_body_bytes) return tooLarge();
    let body: Uint8Array | null = null;
    if (route.params.some((p) => p.location === "body")) {
      body = await readBody(request);
      if (body === null) return tooLarge();
    }
    let result;
    try {
      result = validate(table, route, pathParams, parseQsl(url.search.slice(1)), body, request.headers.get("content-type"));
    } catch (err) {
      if (err instanceof BodyParseError) return error(400, err.detail);
      throw err;
    }
    if (result.errors.length) return json(422, { detail: result.errors }, base(JSON_TYPE, "no-store"));

    const extra: HeaderList = [];
    if (route.access === "key") {
      const refused = await checkKey(request, extra);
      if (refused) return refused;
    }
    if (route.method === "POST") return await accessRequest(result.values);
    const cache = route.access === "key"
      ? `private, max-age=${settings.keyed_max_age}`
      : `public, max-age=${settings.open_max_age}`;
    // The licence goes with the licensed data only, not with a 404 about it.
    const licence: HeaderList = route.license === "odbl" ? [licenseLink()] : [];
    const response = await file(fileFor(route, result.values), request, context, cache, [...extra, ...licence]);
    return response ?? error(404, detailFor(route, result.values), extra);
  }

  /** Open files under /v1 that are no route (openapi.json, the Parquet export, ...). */
  async function openFile(request: Request, context: Context, segments: string[]): Promise<Response> {
    const method = request.method.toUpperCase();
    let rel = segments.join("/");
    if (rel.endsWith("/")) rel += "index.html";
    const extra: HeaderList = licensed.some((glob) => glob.test(rel)) ? [licenseLink()] : [];
    const allow = "GET, HEAD, OPTIONS";
    const response = await file(rel, request, context, `public, max-age=${settings.open_max_age}`, extra);
    if (response === null) return method === "OPTIONS" ? preflight("GET, HEAD, OPTIONS, POST") : notFound();
    if (method === "OPTIONS") return preflight(allow);
    if (method !== "GET" && method !== "HEAD") return error(405, "Method Not Allowed", [["allow", allow]]);
    return response;
  }

  return async function gate(request: Request, context: Context): Promise<Response> {
    const url = new URL(request.url);
    const segments = splitPath(url.pathname);
    if (segments === null || segments[0] === HIDDEN_DIR || segments.some((s) => s.startsWith("."))) {
      return notFound();
    }
    // Only /v1/ and the spellings of /_data/ are routed here (netlify.toml): anything else
    // is a hidden-file spelling the CDN might still resolve, so it never goes on.
    if (segments[0] !== "v1") return notFound();
    try {
      const matches = table.routes
        .map((route) => [route, routeMatch(route, segments)] as const)
        .filter((pair): pair is [Route, Record<string, string>] => pair[1] !== null);
      return matches.length ? await api(request, context, url, matches) : await openFile(request, context, segments);
    } catch (err) {
      if (err instanceof StateBusyError) return busy();
      throw err;
    }
  };
}
