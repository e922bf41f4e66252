/**
 * The service contract as the build writes it (`build-gate/routes.json`, from generator/api/):
 * the route table, the settings, every message, the HTTP manners. Nothing here is typed
 * twice: every rule, word and header value comes from that file.
 */

export interface Param {
  name: string;
  location: "path" | "query" | "header" | "body";
  type: "string" | "integer";
  required: boolean;
  min_length: number | null;
  max_length: number | null;
  pattern: string | null;
  email: boolean;
  default: string | null;
}

export interface Route {
  operation_id: string;
  method: string;
  path: string;
  access: "key" | "open";
  params: Param[];
  file: string | null;
  not_found: string;
  /** `?param=CODE` picks rows of the series file (series.ts); `unknown`: 404 of a code not in the register. */
  filter: { param: string; unknown: string } | null;
  license: string | null;
  status: number;
}

export interface Settings {
  daily_quota: number;
  key_header: string;
  max_body_bytes: number;
  max_key_length: number;
  request_burst: number;
  request_window: number;
  timezone: string;
  unavailable_retry_after: number;
}

export interface Message {
  status: number;
  /** A template: `{reset}` and `{retry_after}` are filled when the answer is made. */
  detail: string;
}

export interface Http {
  allowed_headers: string;
  cache: { open: string; keyed: string; error: string; preflight: string };
  content_disposition: string;
  content_types: Record<string, string>;
  default_content_type: string;
  download_suffixes: string[];
  exposed_headers: string;
  license_link: string;
  preflight_max_age: number;
  /** A file whose name ends so is stored gzip-compressed and answered decompressed. */
  stored_gzip_suffix: string;
  www_authenticate: string;
}

/** The line layout of a zone's series file (generator/api/series.py; series.ts reads it). */
export interface SeriesLayout {
  head: string;
  middle: string;
  tail: string;
  /** The member that holds the number of rows. */
  count: string;
  /** The member that holds each parameter's register unit, keyed by code. */
  units: string;
  /** The row field the filter compares (and the series member that names the filter). */
  field: string;
  /** The row field that names a document, and the document's own id. */
  cites: string;
  /** The codes of the parameter register: any other value is unknown (404). */
  codes: string[];
}

/** The Netlify Blobs stores of the gate's state, by role (generator/api/settings.py). */
export interface Stores {
  keys: string;
  quota: string;
  requests: string;
  bursts: string;
}

export interface RouteTable {
  routes: Route[];
  settings: Settings;
  messages: Record<string, Message>;
  validation: {
    email: { pattern: string; message: string };
    /** Pydantic's `msg` templates by error type. */
    messages: Record<string, string>;
  };
  http: Http;
  files: { hidden_dir: string; odbl: string[]; segment: { pattern: string; max_bytes: number } };
  ids: { alphabet: string; request: { prefix: string; length: number } };
  series: SeriesLayout;
  stores: Stores;
}

/** A validated parameter value: a string, or an int as canonical decimal digits. */
export type Value = string | null;

/** generator.api.messages.fill: each `{name}` replaced once; unknown names are an error. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for {${name}} in ${JSON.stringify(template)}`);
    return String(values[name]);
  });
}

function routeValues(route: Route, values: Record<string, Value>): Record<string, string> {
  // Route._values: a missing optional value is its default (Python prints None as "None").
  const filled: Record<string, string> = {};
  for (const p of route.params) filled[p.name] = values[p.name] ?? p.default ?? "None";
  return filled;
}

const segmentRules = new WeakMap<RouteTable, RegExp>();

/** generator.api.http.is_file_segment: one harmless path segment, at most max_bytes long. */
export function isFileSegment(table: RouteTable, value: string): boolean {
  let regex = segmentRules.get(table);
  if (!regex) {
    regex = new RegExp(table.files.segment.pattern, "u");
    segmentRules.set(table, regex);
  }
  return regex.test(value) && new TextEncoder().encode(value).length <= table.files.segment.max_bytes;
}

/** `Route.file_for`: the backing file of validated values, or null if a value is no segment. */
export function fileFor(table: RouteTable, route: Route, values: Record<string, Value>): string | null {
  const filled = routeValues(route, values);
  const template = route.file ?? "";
  const used = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (!used.every((name) => isFileSegment(table, filled[name]))) return null;
  return fill(template, filled);
}

/** `Route.detail_for`: the `detail` of the 404 when that file does not exist. */
export function detailFor(route: Route, values: Record<string, Value>): string {
  return fill(route.not_found, routeValues(route, values));
}

/** `Route.unknown_detail`: the `detail` of the 404 for a filter value that is no code. */
export function unknownDetail(route: Route, values: Record<string, Value>): string {
  return fill(route.filter!.unknown, routeValues(route, values));
}

/** `Route.match`: the path parameters if the decoded segments are the route's path. */
export function matchRoute(route: Route, segments: string[]): Record<string, string> | null {
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

/** The open files answered with the ODbL license: `fnmatch` globs from routes.json (routes.odbl_files). */
export function odbLicensed(table: RouteTable): RegExp[] {
  return table.files.odbl.map((glob) =>
    new RegExp("^" + glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$", "s")
  );
}

/** The Content-Type of a file by its suffix, a stored file's without `.gz` (http.content_type). */
export function contentType(table: RouteTable, rel: string): string {
  const stored = table.http.stored_gzip_suffix;
  const name = rel.endsWith(stored) ? rel.slice(0, -stored.length) : rel;
  const suffix = /\.[^./]*$/.exec(name)?.[0].toLowerCase() ?? "";
  return table.http.content_types[suffix] ?? table.http.default_content_type;
}
