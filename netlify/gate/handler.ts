/**
 * The edge gate: the same rules as the Python gate (generator/gate/api.py), on Netlify.
 *
 * Order for an API route (docs/architecture.md, "The order of checks"): route match (404/405)
 * -> body size (413) -> parameter validation (422) -> key (401/403) -> quota (429) -> resource
 * (404 with a clear detail) -> 200.
 * Hidden files under /_data/ are fetched with `context.next()` on a rewritten request, never
 * with `fetch()` (that would re-enter this gate); direct hits on /_data/ are answered 404.
 * Every rule, message and header value comes from routes.json, which the build writes from
 * the service contract (generator/api/).
 */

import type { Context } from "@netlify/edge-functions";

import { nextReset, quotaDay, secondsUntil } from "./clock.ts";
import { type Dumpable, dumps } from "./pyjson.ts";
import { parseQsl, pyStrip, unquote } from "./pytext.ts";
import {
  contentType,
  detailFor,
  fileFor,
  fill,
  matchRoute,
  odbLicensed,
  type Route,
  type RouteTable,
  unknownDetail,
} from "./routes.ts";
import { filterSeries } from "./series.ts";
import { type GateState, StateBusyError } from "./state.ts";
import { BodyParseError, validate } from "./validate.ts";

// Conditional and range headers never reach the origin: the gate answers them itself.
const UPSTREAM_DROPPED = ["if-none-match", "if-match", "if-modified-since", "if-unmodified-since", "if-range", "range"];

type HeaderList = [string, string][];

export interface Dependencies {
  table: RouteTable;
  state: GateState;
  now?: () => number;
}

/** Return the decoded path segments, or null for a path no route may see (responses.split_path). */
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

/** If-None-Match against an ETag: weak comparison, lists and `*` (responses.etag_matches). */
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

function newId(alphabet: string, prefix: string, length: number): string {
  // Rejection sampling keeps every character equally likely (like secrets.choice).
  const limit = 256 - (256 % alphabet.length);
  let id = prefix;
  while (id.length < prefix.length + length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < limit && id.length < prefix.length + length) id += alphabet[byte % alphabet.length];
    }
  }
  return id;
}

/** Micro-second UTC timestamps as the Python state writes them (`model.timestamp`). */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, "000Z");
}

export function createGate({ table, state, now = Date.now }: Dependencies) {
  const settings = table.settings;
  const http = table.http;
  const messages = table.messages;
  const licensed = odbLicensed(table);
  const codes = new Set(table.series.codes);
  const keyHeader = settings.key_header;

  const base = (type: string | null, cache: string): HeaderList => [
    ...(type ? [["content-type", type] as [string, string]] : []),
    ["access-control-allow-origin", "*"],
    ["access-control-expose-headers", http.exposed_headers],
    ["x-content-type-options", "nosniff"],
    ["cache-control", cache],
  ];
  const licenseLink = (): [string, string] => ["link", http.license_link];
  const jsonType = http.content_types[".json"];

  const json = (status: number, body: Dumpable, headers: HeaderList) =>
    new Response(dumps(body), { status, headers });
  /** Answer one of the contract's messages, its runtime placeholders filled. */
  const message = (name: string, extra: HeaderList = [], runtime: Record<string, string | number> = {}) =>
    json(messages[name].status, { detail: fill(messages[name].detail, runtime) }, [
      ...base(jsonType, http.cache.error),
      ...extra,
    ]);
  const notFound = (detail?: string, extra: HeaderList = []) =>
    detail === undefined
      ? message("not_found", extra)
      : json(messages.not_found.status, { detail }, [...base(jsonType, http.cache.error), ...extra]);

  function preflight(allow: string): Response {
    return new Response(null, {
      status: 204,
      headers: [
        ["access-control-allow-origin", "*"],
        ["access-control-allow-methods", allow],
        ["access-control-allow-headers", http.allowed_headers],
        ["access-control-max-age", String(http.preflight_max_age)],
        ["allow", allow],
        ["cache-control", http.cache.preflight],
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
    const body = await fetchFile(rel, request, context);
    return body === null ? null : await answerFile(rel, body, request, cache, extra);
  }

  /** The bytes of a file of the published tree through the CDN; null if it does not exist. */
  async function fetchFile(rel: string, request: Request, context: Context): Promise<Uint8Array<ArrayBuffer> | null> {
    const headers = new Headers(request.headers);
    for (const name of UPSTREAM_DROPPED) headers.delete(name);
    const path = "/" + rel.split("/").map(encodeURIComponent).join("/");
    // Always GET upstream: a HEAD answer has no body to compute the ETag from.
    const upstream = await context.next(new Request(new URL(path, request.url), { method: "GET", headers }));
    if (upstream.status === 404) return null;
    if (upstream.status !== 200) throw new Error(`the CDN answered ${upstream.status} for ${path}`);
    return await servedBytes(rel, new Uint8Array(await upstream.arrayBuffer()));
  }

  /** A stored gzip file's decompressed bytes, other bytes as they are (http.served_bytes). */
  async function servedBytes(rel: string, body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
    // Not gzip (a CDN that decoded it on the way): as it is. JSON never starts with the magic.
    if (!rel.endsWith(http.stored_gzip_suffix) || body[0] !== 0x1f || body[1] !== 0x8b) return body;
    const stream = new Blob([body]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  /** Answer bytes as the file `rel`: its type, the gate's headers, ETag and 304. */
  async function answerFile(
    rel: string,
    body: Uint8Array<ArrayBuffer>,
    request: Request,
    cache: string,
    extra: HeaderList,
  ): Promise<Response> {
    const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
    const out: HeaderList = [...base(contentType(table, rel), cache), ["etag", etag], ...extra];
    if (http.download_suffixes.some((suffix) => rel.endsWith(suffix))) {
      out.push(["content-disposition", fill(http.content_disposition, { filename: rel.split("/").pop()! })]);
    }
    if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: out });
    // HEAD gets the body too: the HTTP layer drops it and keeps its Content-Length.
    return new Response(body, { status: 200, headers: [...out, ["content-length", String(body.byteLength)]] });
  }

  /** Check the key and count the request; a refusal, or null to go on (api._check_key). */
  async function checkKey(request: Request, extra: HeaderList): Promise<Response | null> {
    const presented = pyStrip(request.headers.get(keyHeader) ?? "");
    if (!presented) return message("key_missing", [["www-authenticate", http.www_authenticate]]);
    const record = presented.length > settings.max_key_length
      ? null
      : await state.keyByHash(await sha256Hex(new TextEncoder().encode(presented)));
    if (!record) return message("key_invalid");
    if (record.status !== "active") return message("key_revoked");
    const at = now();
    const reset = nextReset(at, settings.timezone);
    const limit = settings.daily_quota;
    const usage = await state.consume(record.id, quotaDay(at, settings.timezone), limit);
    extra.push(
      ["x-ratelimit-limit", String(limit)],
      ["x-ratelimit-remaining", String(Math.max(0, limit - usage.used))],
      ["x-ratelimit-reset", String(Math.floor(reset.ms / 1000))],
    );
    if (!usage.allowed) {
      const retryAfter = Math.max(1, secondsUntil(at, reset.ms));
      return message("quota_used_up", [...extra, ["retry-after", String(retryAfter)]], {
        reset: reset.iso,
        retry_after: retryAfter,
      });
    }
    return null;
  }

  /** Store an access request before answering 202 (api._access_request). */
  async function accessRequest(route: Route, values: Record<string, string | null>): Promise<Response> {
    const email = values.email!;
    const at = now();
    const windowMs = settings.request_window * 1000;
    const address = await sha256Hex(new TextEncoder().encode(pyStrip(email).toLowerCase()));
    const burst = await state.reserveBurst(address, at, settings.request_burst, windowMs);
    if (!burst.allowed) {
      const retryAfter = Math.max(1, secondsUntil(at, burst.freesAt!));
      return message("burst_limit", [["retry-after", String(retryAfter)]]);
    }
    const ids = table.ids;
    for (let attempt = 0; attempt < 5; attempt++) {
      const request = {
        id: newId(ids.alphabet, ids.request.prefix, ids.request.length),
        email,
        zweck: values.zweck!,
        status: "pending" as const,
        created_at: timestamp(at),
      };
      if (await state.storeRequest(request)) {
        const body = { detail: messages.request_stored.detail, request_id: request.id, status: request.status };
        return json(route.status, body, base(jsonType, http.cache.error));
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
    if (!found) return message("method_not_allowed", [["allow", allow]]);
    const [route, pathParams] = found;

    const length = request.headers.get("content-length") ?? "";
    if (/^[0-9]+$/.test(length) && Number(length) > settings.max_body_bytes) return message("body_too_large");
    let body: Uint8Array | null = null;
    if (route.params.some((p) => p.location === "body")) {
      body = await readBody(request);
      if (body === null) return message("body_too_large");
    }
    let result;
    try {
      const query = parseQsl(url.search.slice(1));
      const contentType = request.headers.get("content-type");
      result = validate(table, route, pathParams, query, body, contentType, (name) => request.headers.get(name));
    } catch (err) {
      if (err instanceof BodyParseError) return message("body_unreadable");
      throw err;
    }
    if (result.errors.length) return json(422, { detail: result.errors }, base(jsonType, http.cache.error));

    const extra: HeaderList = [];
    if (route.access === "key") {
      const refused = await checkKey(request, extra);
      if (refused) return refused;
    }
    if (route.method === "POST") return await accessRequest(route, result.values);
    const cache = route.access === "key" ? http.cache.keyed : http.cache.open;
    // The license goes with the licensed data only, not with a 404 about it.
    const license: HeaderList = route.license === "odbl" ? [licenseLink()] : [];
    // No file for a value that is no harmless path segment: it never reaches a path.
    const rel = fileFor(table, route, result.values);
    const code = route.filter ? result.values[route.filter.param] : null;
    if (rel !== null && code != null) return await filtered(route, rel, code, result.values, request, context, cache, extra);
    const response = rel === null ? null : await file(rel, request, context, cache, [...extra, ...license]);
    return response ?? notFound(detailFor(route, result.values), extra);
  }

  /** `?parameter=CODE` from the zone's series file (api._filtered): zone, then code, then rows. */
  async function filtered(
    route: Route,
    rel: string,
    code: string,
    values: Record<string, string | null>,
    request: Request,
    context: Context,
    cache: string,
    extra: HeaderList,
  ): Promise<Response> {
    const body = await fetchFile(rel, request, context);
    if (body === null) return notFound(detailFor(route, values), extra);
    if (!codes.has(code)) return notFound(unknownDetail(route, values), extra);
    const members: Record<string, string> = {};
    for (const p of route.params) if (p.location === "path" && values[p.name] != null) members[p.name] = values[p.name]!;
    const text = filterSeries(new TextDecoder().decode(body), table.series, code, members);
    return await answerFile(rel, new TextEncoder().encode(text), request, cache, extra);
  }

  /** Open files under /v1 that are no route (openapi.json, the Parquet export, ...). */
  async function openFile(request: Request, context: Context, segments: string[]): Promise<Response> {
    const method = request.method.toUpperCase();
    let rel = segments.join("/");
    if (rel.endsWith("/")) rel += "index.html";
    const extra: HeaderList = licensed.some((glob) => glob.test(rel)) ? [licenseLink()] : [];
    const allow = "GET, HEAD, OPTIONS";
    const response = await file(rel, request, context, http.cache.open, extra);
    if (response === null) return method === "OPTIONS" ? preflight("GET, HEAD, OPTIONS, POST") : notFound();
    if (method === "OPTIONS") return preflight(allow);
    if (method !== "GET" && method !== "HEAD") return message("method_not_allowed", [["allow", allow]]);
    return response;
  }

  return async function gate(request: Request, context: Context): Promise<Response> {
    const url = new URL(request.url);
    const segments = splitPath(url.pathname);
    if (segments === null || segments[0] === table.files.hidden_dir || segments.some((s) => s.startsWith("."))) {
      return notFound();
    }
    // Only /v1/ and the spellings of /_data/ are routed here (netlify.toml): anything else
    // is a hidden-file spelling the CDN might still resolve, so it never goes on.
    if (segments[0] !== "v1") return notFound();
    try {
      const matches = table.routes
        .map((route) => [route, matchRoute(route, segments)] as const)
        .filter((pair): pair is [Route, Record<string, string>] => pair[1] !== null);
      return matches.length ? await api(request, context, url, matches) : await openFile(request, context, segments);
    } catch (err) {
      if (err instanceof StateBusyError) return message("state_busy", [["retry-after", "1"]]);
      // The CDN could not give a file (not a 404) or Netlify Blobs failed: an answer that
      // could not be checked is a 503, never a 404 and never an unstored acknowledgement.
      console.error(`503 Service Unavailable: ${err instanceof Error ? err.message : String(err)}`);
      return message("unavailable", [["retry-after", String(settings.unavailable_retry_after)]]);
    }
  };
}
