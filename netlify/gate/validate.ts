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
import { fill, type Param, type Route, type RouteTable, type Value } from "./routes.ts";

export type ErrorRecord = { [key: string]: Dumpable };

/** FastAPI answers 400 (the `body_unreadable` message), e.g. for a body that is not UTF-8. */
export class BodyParseError extends Error {}

export interface Result {
  values: Record<string, Value>;
  errors: ErrorRecord[];
}

type Loc = (string | number)[];

/** Builds error records whose `msg` is the contract's wording (Pydantic's templates). */
class Errors {
  constructor(private readonly templates: Record<string, string>) {}

  // Key order matters: FastAPI serialises Pydantic's records as type, loc, msg, input, ctx.
  make(type: string, loc: Loc, input: Dumpable, ctx?: Record<string, Dumpable>, words: Record<string, string> = {}) {
    const values: Record<string, string | number> = { ...words };
    for (const [name, value] of Object.entries(ctx ?? {})) {
      if (typeof value === "string" || typeof value === "number") values[name] ??= value;
    }
    const length = values.min_length ?? values.max_length;
    if (length !== undefined) values.expected_plural ??= length === 1 ? "" : "s";
    const record: ErrorRecord = { type, loc, msg: fill(this.templates[type], values), input };
    if (ctx !== undefined) record.ctx = ctx;
    return record;
  }

  missing(loc: Loc, input: Dumpable = null) {
    return this.make("missing", loc, input);
  }
}

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

function checkString(table: RouteTable, errors: Errors, param: Param, value: PyStr, loc: Loc): ErrorRecord | null {
  if (value.hasSurrogates()) return errors.make("string_unicode", loc, value);
  const n = value.length;
  if (param.min_length !== null && n < param.min_length) {
    return errors.make("string_too_short", loc, value, { min_length: param.min_length });
  }
  if (param.max_length !== null && n > param.max_length) {
    return errors.make("string_too_long", loc, value, { max_length: param.max_length });
  }
  const text = value.toString();
  if (param.pattern !== null && !compilePattern(param.pattern).test(text)) {
    return errors.make("string_pattern_mismatch", loc, value, { pattern: param.pattern });
  }
  // The address check is a field validator: it runs only after the constraints passed.
  const email = table.validation.email;
  if (param.email && !compilePattern(email.pattern).test(text)) {
    return errors.make("value_error", loc, value, { error: {} }, { error: email.message });
  }
  return null;
}

function checkValue(table: RouteTable, errors: Errors, param: Param, value: PyValue, loc: Loc): [Value, ErrorRecord | null] {
  if (param.type === "integer") {
    if (value instanceof PyInt) return [value.digits, null];
    if (!(value instanceof PyStr)) throw new Error("integer body parameters are not supported");
    const parsed = parsePyInt(value.toString());
    if ("value" in parsed) return [parsed.value, null];
    return [null, errors.make(parsed.error, loc, value)];
  }
  if (!(value instanceof PyStr)) return [null, errors.make("string_type", loc, value)];
  return [value.toString(), checkString(table, errors, param, value, loc)];
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

function bodyErrors(
  table: RouteTable,
  errors: Errors,
  params: Param[],
  body: Uint8Array | null,
  contentType: string | null,
) {
  const values: Record<string, Value> = {};
  if (!body || body.length === 0) return { values, errors: [errors.missing(["body"])] };
  let data: PyValue | Uint8Array;
  try {
    data = decodeBody(body, contentType);
  } catch (err) {
    if (err instanceof JSONDecodeError) {
      return { values, errors: [errors.make("json_invalid", ["body", err.pos], {}, { error: err.msg })] };
    }
    throw err;
  }
  if (!(data instanceof PyDict)) {
    const shown = data instanceof Uint8Array ? decodeUtf8Replace(data) : data;
    return { values, errors: [errors.make("model_attributes_type", ["body"], shown)] };
  }
  const found: ErrorRecord[] = [];
  for (const param of params) {
    const loc = ["body", param.name];
    const raw = data.get(param.name);
    if (raw === undefined) {
      if (param.required) found.push(errors.missing(loc, data));
      continue;
    }
    const [value, problem] = checkValue(table, errors, param, raw, loc);
    if (problem) found.push(problem);
    else values[param.name] = value;
  }
  return { values, errors: found };
}

// ---------------------------------------------------------------------------- request

/**
 * Validate one request against its route; throw BodyParseError for FastAPI's 400 case.
 * `pathParams` are the decoded path segments, `query` the decoded pairs in order, `header`
 * looks a request header up by name. FastAPI's order: path, query, header, then the body.
 */
export function validate(
  table: RouteTable,
  route: Route,
  pathParams: Record<string, string>,
  query: [string, string][],
  body: Uint8Array | null,
  contentType: string | null,
  header: (name: string) => string | null = () => null,
): Result {
  const errors = new Errors(table.validation.messages);
  const values: Record<string, Value> = {};
  const found: ErrorRecord[] = [];
  // Starlette's QueryParams.get returns the last of repeated names; FastAPI uses it.
  const lastValues = new Map(query);
  for (const location of ["path", "query", "header"] as const) {
    for (const param of route.params.filter((p) => p.location === location)) {
      const raw = location === "path"
        ? pathParams[param.name]
        : location === "query"
        ? lastValues.get(param.name)
        : header(param.name) ?? undefined;
      const loc = [location, param.name];
      if (raw === undefined) {
        if (param.required) found.push(errors.missing(loc));
        else values[param.name] = null;
        continue;
      }
      const [value, problem] = checkValue(table, errors, param, PyStr.of(raw), loc);
      if (problem) found.push(problem);
      else values[param.name] = value;
    }
  }
  const bodyParams = route.params.filter((p) => p.location === "body");
  if (bodyParams.length) {
    const result = bodyErrors(table, errors, bodyParams, body, contentType);
    Object.assign(values, result.values);
    found.push(...result.errors);
  }
  return { values, errors: found };
}
