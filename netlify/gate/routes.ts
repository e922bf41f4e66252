/**
 * The route table as the build writes it (`build-gate/routes.json`, from generator/api/routes.py
 * and generator/api/settings.py). Nothing here is typed twice: every rule comes from that file.
 */

export interface Param {
  name: string;
  location: "path" | "query" | "body";
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
  file_when: Record<string, string>;
  not_found: string;
  not_found_when: Record<string, string>;
  license: string | null;
  status: number;
}

export interface Settings {
  license_url: string;
  key_prefix: string;
  daily_quota: number;
  max_body_bytes: number;
  request_burst: number;
  request_window: number;
  open_max_age: number;
  keyed_max_age: number;
  key_header: string;
  timezone: string;
}

export interface RouteTable {
  api_version: string;
  email: { pattern: string; message: string };
  routes: Route[];
  settings: Settings;
}

/** A validated parameter value: a string, or an int as canonical decimal digits. */
export type Value = string | null;

function fill(route: Route, template: string, alternatives: Record<string, string>, values: Record<string, Value>) {
  // Route._fill: an alternative applies when its optional parameter was given.
  for (const [name, alternative] of Object.entries(alternatives)) {
    if (values[name] != null) template = alternative;
  }
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    return value != null ? value : route.params.find((p) => p.name === name)?.default ?? "None";
  });
}

/** `Route.file_for`: the backing file of validated values. */
export function fileFor(route: Route, values: Record<string, Value>): string {
  return fill(route, route.file ?? "", route.file_when, values);
}

/** `Route.detail_for`: the `detail` of the 404 when that file does not exist. */
export function detailFor(route: Route, values: Record<string, Value>): string {
  return fill(route, route.not_found, route.not_found_when, values);
}

/** `fnmatch` globs of the open files that carry the ODbL mapping, as the Python gate builds them. */
export function odbLicensed(table: RouteTable): RegExp[] {
  const globs = new Set<string>();
  for (const route of table.routes) {
    if (route.license !== "odbl" || !route.file) continue;
    const glob = route.file.replace(/\{\w+\}/g, "*");
    globs.add(glob);
    globs.add(glob.replace(/\.[^./]+$/, ".*"));
  }
  return [...globs].map((glob) =>
    new RegExp("^" + glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$", "s")
  );
}
