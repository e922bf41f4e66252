/**
 * Request validation with FastAPI-identical error lists: a port of generator/gate/validation.py.
 *
 * Same rules in the same order: path parameters, then query parameters (declaration order),
 * then the body as one model; one error per field; Pydantic's exact types, messages, inputs
 * and contexts. tests/edge/test_validation_port.py runs both over thousands of generated
 * requests and demands identical bytes.
 */

import { DecodeError, decodeSurrogatepass, decodeUtf8Replace, detectEncoding, PY_SPACE, pyStrip, PyStr } from "./pytext.ts";
import { type Dumpable, JSONDecodeError, JSONValueError, loads, MAX_INT_DIGITS, PyDict, PyInt, type PyValue } from "./pyjson.ts";
import type { Param, Route, RouteTable, Value } from "./routes.ts";

export type ErrorRecord = { [key: string]: Dumpable };

/** FastAPI answers 400 "There was an error parsing the body" (e.g. a body that is not UTF-8). */
export class BodyParseError extends Error {
  readonly detail = "There was an error parsing the body";
}

export interface Result {
  values: Record<string, Value>;
  errors: ErrorRecord[];
}

type Loc = (string | number)[];

// Key order matters: FastAPI serialises Pydantic's records as type, loc, msg, input, ctx.
function error(type: string, loc: Loc, msg: string, input: Dumpable, ctx?: Dumpable): ErrorRecord {
  const record: ErrorRecord = { type, loc, msg, input };
  if (ctx !== undefined) record.ctx = ctx;
  return record;
}

const missing = (loc: Loc, input: Dumpable = null) => error("missing", loc, "Field required", input);

// ---------------------------------------------------------------------------- scalar rules

// Rust's `str::trim` (Pydantic) strips the White_Space property, not Python's isspace().
const RUST_TRIM = /^\p{White_Space}+|\p{White_Space}+$/gu;
const NONZERO = "123456789";

type IntReading = { value: string } | "range" | null;

/** Read `text` as a JSON integer (jiter's rules); "range" if the digits exceed the limit. */
function jsonInt(text: string): IntReading {
  const i = text.startsWith("-") ? 1 : 0;
  if (i >= text.length) return null;
  if (text[i] === "0") return i + 1 === text.length ? { value: "0" } : null;
  if (!NONZERO.includes(text[i])) return null;
  const run = /^[0-9]*/.exec(text.slice(i))![0].length;
  if (run > MAX_INT_DIGITS) return "range";
  if (i + run !== text.length) return null;
  return { value: text };
}

function stripLeadingZeros(text: string): string | null {
  // Zeros and underscores before the first other digit go; "000" keeps one zero, "00.0"
  // keeps the zero before the dot, and a minus after the zeros survives ("0-5" is -5).
  if (!text) return null;
  if (text[0] !== "0") return NONZERO.includes(text[0]) || text[0] === "-" ? text : null;
  for (let i = 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "0" || ch === "_") continue;
    if (NONZERO.includes(ch) || ch === "-") return text.slice(i);
    if (ch === ".") return text.slice(i - 1);
    return null;
  }
  return text[text.length - 1];
}

function stripUnderscores(text: string): string | null {
  if (text.startsWith("_") || text.endsWith("_") || !text.includes("_") || text.includes("__")) return null;
  return text.replaceAll("_", "");
}

/** Tidy a string that is no plain integer the way Pydantic does, or null if hopeless. */
function cleanIntText(raw: string): string | null {
  let text = raw.replace(RUST_TRIM, "");
  if (text.startsWith("+")) {
    if (text.slice(1).startsWith("-")) return null;
    text = text.slice(1);
  }
  let sign = "";
  if (text.startsWith("-")) {
    if (text.slice(1).startsWith("-") || text.slice(1).startsWith("+")) return null;
    [sign, text] = ["-", text.slice(1)];
  }
  const stripped = stripLeadingZeros(text);
  if (stripped === null) return null;
  text = stripped;
  const dot = text.indexOf(".");
  if (dot >= 0 && /^0+$/.test(text.slice(dot + 1))) text = text.slice(0, dot);
  const plain = stripUnderscores(text);
  if (plain !== null) return sign + plain;
  if (text.length === raw.length) return null; // nothing was tidied: a second reading cannot succeed
  return sign + text;
}

/** Pydantic's lax int from a string (validation.parse_int): canonical decimal, or the error type. */
export function parsePyInt(raw: string): { value: string } | { error: string } {
  const first = jsonInt(raw);
  if (first === "range") return { error: "int_parsing_size" };
  if (first) return canonical(first.value);
  const cleaned = cleanIntText(raw);
  const second = cleaned === null ? null : jsonInt(cleaned);
  return second && second !== "range" ? canonical(second.value) : { error: "int_parsing" };
}

const canonical = (text: string) => ({ value: text === "-0" ? "0" : text });

const compiled = new Map<string, RegExp>();

/**
 * Compile a table pattern as the Python gate does (Python `re`, `$` only at the very end),
 * translated to JS: `\d` is Unicode decimal, `\s` Python's whitespace, `.` anything but "\n".
 */
export function compilePattern(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (regex) return regex;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      const next = pattern[++i];
      const classes: Record<string, string> = { d: "\\p{Nd}", s: PY_SPACE, w: "\\p{L}\\p{N}_" };
      if (next in classes) out += inClass ? classes[next] : `[${classes[next]}]`;
      else if (next.toLowerCase() in classes && !inClass) out += `[^${classes[next.toLowerCase()]}]`;
      else out += "\\" + next;
      continue;
    }
    if (ch === "[" && !inClass) inClass = true;
    else if (ch === "]" && inClass) inClass = false;
    else if (ch === "." && !inClass) {
      out += "[^\\n]";
      continue;
    }
    out += ch;
  }
  regex = new RegExp(out, "u");
  compiled.set(pattern, regex);
  return regex;
}

const plural = (n: number) => (n === 1 ? "" : "s");

function checkString(table: RouteTable, param: Param, value: PyStr, loc: Loc): ErrorRecord | null {
  if (value.hasSurrogates()) {
    return error("string_unicode", loc, "Input should be a valid string, unable to parse raw data as a unicode string", value);
  }
  const n = value.length;
  if (param.min_length !== null && n < param.min_length) {
    const min = param.min_length;
    return error("string_too_short", loc, `String should have at least ${min} character${plural(min)}`, value, { min_length: min });
  }
  if (param.max_length !== null && n > param.max_length) {
    const max = param.max_length;
    return error("string_too_long", loc, `String should have at most ${max} character${plural(max)}`, value, { max_length: max });
  }
  const text = value.toString();
  if (param.pattern !== null && !compilePattern(param.pattern).test(text)) {
    return error("string_pattern_mismatch", loc, `String should match pattern '${param.pattern}'`, value, { pattern: param.pattern });
  }
  // The address check is a field validator: it runs only after the constraints passed.
  if (param.email && !compilePattern(table.email.pattern).test(text)) {
    return error("value_error", loc, `Value error, ${table.email.message}`, value, { error: {} });
  }
  return null;
}

function checkValue(table: RouteTable, param: Param, value: PyValue, loc: Loc): [Value, ErrorRecord | null] {
  if (param.type === "integer") {
    if (value instanceof PyInt) return [value.digits, null];
    if (!(value instanceof PyStr)) throw new Error("integer body parameters are not supported");
    const parsed = parsePyInt(value.toString());
    if ("value" in parsed) return [parsed.value, null];
    const msg = parsed.error === "int_parsing_size"
      ? "Unable to parse input string as an integer, exceeded maximum size"
      : "Input should be a valid integer, unable to parse string as an integer";
    return [null, error(parsed.error, loc, msg, value)];
  }
  if (!(value instanceof PyStr)) return [null, error("string_type", loc, "Input should be a valid string", value)];
  return [value.toString(), checkString(table, param, value, loc)];
}

// ---------------------------------------------------------------------------- body

/** FastAPI's `email.message` reading of Content-Type: is the body JSON? */
export function isJsonContentType(contentType: string): boolean {
  let type = pyStrip(contentType.split(";")[0]).toLowerCase();
  if (type.split("/").length !== 2) type = "text/plain";
  const [main, sub] = type.split("/");
  return main === "application" && (sub === "json" || sub.endsWith("+json"));
}

/** What FastAPI validates: the parsed JSON, or (no JSON content type) the raw bytes. */
export function decodeBody(body: Uint8Array, contentType: string | null): PyValue | Uint8Array {
  if (!contentType || !isJsonContentType(contentType)) return body;
  let text: number[];
  try {
    text = decodeSurrogatepass(body, detectEncoding(body));
  } catch (err) {
    if (err instanceof DecodeError) throw new BodyParseError();
    throw err;
  }
  try {
    return loads(text);
  } catch (err) {
    if (err instanceof JSONValueError) throw new BodyParseError();
    throw err;
  }
}

function bodyErrors(table: RouteTable, params: Param[], body: Uint8Array | null, contentType: string | null) {
  const values: Record<string, Value> = {};
  if (!body || body.length === 0) return { values, errors: [missing(["body"])] };
  let data: PyValue | Uint8Array;
  try {
    data = decodeBody(body, contentType);
  } catch (err) {
    if (err instanceof JSONDecodeError) {
      return { values, errors: [error("json_invalid", ["body", err.pos], "JSON decode error", {}, { error: err.msg })] };
    }
    throw err;
  }
  if (!(data instanceof PyDict)) {
    const shown = data instanceof Uint8Array ? decodeUtf8Replace(data) : data;
    return {
      values,
      errors: [error("model_attributes_type", ["body"], "Input should be a valid dictionary or object to extract fields from", shown)],
    };
  }
  const errors: ErrorRecord[] = [];
  for (const param of params) {
    const loc = ["body", param.name];
    const raw = data.get(param.name);
    if (raw === undefined) {
      if (param.required) errors.push(missing(loc, data));
      continue;
    }
    const [value, problem] = checkValue(table, param, raw, loc);
    if (problem) errors.push(problem);
    else values[param.name] = value;
  }
  return { values, errors };
}

// ---------------------------------------------------------------------------- request

/**
 * Validate one request against its route; throw BodyParseError for FastAPI's 400 case.
 * `pathParams` are the decoded path segments, `query` the decoded pairs in order.
 */
export function validate(
  table: RouteTable,
  route: Route,
  pathParams: Record<string, string>,
  query: [string, string][],
  body: Uint8Array | null,
  contentType: string | null,
): Result {
  const values: Record<string, Value> = {};
  const errors: ErrorRecord[] = [];
  // Starlette's QueryParams.get returns the last of repeated names; FastAPI uses it.
  const lastValues = new Map(query);
  for (const location of ["path", "query"] as const) {
    for (const param of route.params.filter((p) => p.location === location)) {
      const raw = location === "path" ? pathParams[param.name] : lastValues.get(param.name);
      const loc = [location, param.name];
      if (raw === undefined) {
        if (param.required) errors.push(missing(loc));
        else values[param.name] = null;
        continue;
      }
      const [value, problem] = checkValue(table, param, PyStr.of(raw), loc);
      if (problem) errors.push(problem);
      else values[param.name] = value;
    }
  }
  const bodyParams = route.params.filter((p) => p.location === "body");
  if (bodyParams.length) {
    const result = bodyErrors(table, bodyParams, body, contentType);
    Object.assign(values, result.values);
    errors.push(...result.errors);
  }
  return { values, errors };
}
