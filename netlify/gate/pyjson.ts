/**
 * Python's `json.loads` and FastAPI's `json.dumps`, so bodies and echoed inputs match the
 * Python gate byte for byte.
 *
 * `loads` is a port of CPython's C scanner (Modules/_json.c): same accepted syntax (NaN,
 * Infinity), same error messages and positions (in code points), ints kept exact, floats
 * kept as floats (`5.0` echoes as `5.0`), objects keep first-insertion order with the last
 * value. `dumps` is `json.dumps(..., ensure_ascii=False, separators=(",", ":"))` after the
 * Python gate's fallback for what UTF-8 JSON cannot carry (non-finite floats become null,
 * lone surrogates "?").
 */

import { PyStr } from "./pytext.ts";

export class PyInt {
  /** Canonical decimal digits with an optional minus sign, e.g. "-12" (never "-0"). */
  constructor(readonly digits: string) {}
}

export class PyFloat {
  constructor(readonly value: number) {}
}

export class PyDict {
  readonly entries = new Map<string, [PyStr, PyValue]>();

  get(name: string): PyValue | undefined {
    return this.entries.get(PyStr.of(name).id)?.[1];
  }

  has(name: string): boolean {
    return this.entries.has(PyStr.of(name).id);
  }
}

export type PyValue = null | boolean | PyInt | PyFloat | PyStr | PyValue[] | PyDict;

/** `json.JSONDecodeError`: FastAPI turns `msg` and `pos` into a `json_invalid` error. */
export class JSONDecodeError extends Error {
  constructor(readonly msg: string, readonly pos: number) {
    super(`${msg}: char ${pos}`);
  }
}

/** Python raises something other than JSONDecodeError (FastAPI answers 400). */
export class JSONValueError extends Error {}

/** Python's default limit on int digits (sys.int_info.default_max_str_digits). */
export const MAX_INT_DIGITS = 4300;
/** Nesting beyond this is a RecursionError in CPython (limit 1000 minus the server's frames). */
const MAX_DEPTH = 900;

const QUOTE = 0x22, BACKSLASH = 0x5c;
const isWs = (c: number | undefined) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

class StopIteration {
  constructor(readonly pos: number) {}
}

/** `json.loads(text)` for a decoded body given as code points. */
export function loads(s: readonly number[]): PyValue {
  const end = s.length;
  const at = (i: number) => (i < end ? s[i] : undefined);
  const skip = (i: number) => {
    while (isWs(at(i))) i++;
    return i;
  };
  const matches = (i: number, word: string) => {
    for (let k = 0; k < word.length; k++) if (at(i + k) !== word.charCodeAt(k)) return false;
    return true;
  };

  function scanString(start: number): [PyStr, number] {
    // `start` is just past the opening quote, as in scanstring_unicode.
    const begin = start - 1;
    const out: number[] = [];
    let i = start;
    for (;;) {
      let c: number | undefined;
      let next = i;
      for (; next < end; next++) {
        c = s[next];
        if (c === QUOTE || c === BACKSLASH) break;
        if (c <= 0x1f) throw new JSONDecodeError("Invalid control character at", next);
      }
      if (next >= end) throw new JSONDecodeError("Unterminated string starting at", begin);
      for (let k = i; k < next; k++) out.push(s[k]);
      next++;
      if (c === QUOTE) return [new PyStr(out), next];
      if (next === end) throw new JSONDecodeError("Unterminated string starting at", begin);
      c = s[next];
      if (c !== 0x75 /* u */) {
        const simple: Record<number, number> = {
          0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09,
        };
        if (!(c in simple)) throw new JSONDecodeError("Invalid \\escape", next - 1);
        out.push(simple[c]);
        i = next + 1;
        continue;
      }
      next++;
      let stop = next + 4;
      if (stop >= end) throw new JSONDecodeError("Invalid \\uXXXX escape", next - 1);
      let cp = hex4(next, stop);
      next = stop;
      // A high surrogate followed by `\uXXXX` that is a low one makes one code point.
      if (cp >= 0xd800 && cp <= 0xdbff && stop + 6 < end && s[next] === BACKSLASH && s[next + 1] === 0x75) {
        stop += 6;
        const low = hex4(next + 2, stop);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          next = stop;
        } else stop -= 6;
      }
      out.push(cp);
      i = stop;
    }
  }

  function hex4(from: number, stop: number): number {
    let value = 0;
    for (let k = from; k < stop; k++) {
      const d = s[k];
      const digit = d >= 0x30 && d <= 0x39 ? d - 0x30
        : d >= 0x61 && d <= 0x66 ? d - 0x57
        : d >= 0x41 && d <= 0x46 ? d - 0x37
        : -1;
      if (digit < 0) throw new JSONDecodeError("Invalid \\uXXXX escape", stop - 5);
      value = value * 16 + digit;
    }
    return value;
  }

  function scanNumber(start: number): [PyValue, number] {
    let i = start;
    if (at(i) === 0x2d) i++;
    const first = at(i);
    if (first !== undefined && first >= 0x31 && first <= 0x39) {
      i++;
      while (isDigit(at(i))) i++;
    } else if (first === 0x30) i++;
    else throw new StopIteration(start);
    let isFloat = false;
    if (at(i) === 0x2e && isDigit(at(i + 1))) {
      isFloat = true;
      i += 2;
      while (isDigit(at(i))) i++;
    }
    if (at(i) === 0x65 || at(i) === 0x45) {
      const eStart = i;
      i++;
      if (at(i) === 0x2d || at(i) === 0x2b) i++;
      while (isDigit(at(i))) i++;
      if (isDigit(at(i - 1))) isFloat = true;
      else i = eStart;
    }
    const text = String.fromCharCode(...s.slice(start, i));
    if (isFloat) return [new PyFloat(Number(text)), i];
    const negative = text.startsWith("-");
    const digits = negative ? text.slice(1) : text;
    if (digits.length > MAX_INT_DIGITS) throw new JSONValueError("Exceeds the limit for integer string conversion");
    return [new PyInt(negative && digits !== "0" ? text : digits), i];
  }

  function scanOnce(i: number, depth: number): [PyValue, number] {
    if (i >= end) throw new StopIteration(i);
    const c = s[i];
    if (c === QUOTE) return scanString(i + 1);
    if (c === 0x7b /* { */) return scanObject(i + 1, depth + 1);
    if (c === 0x5b /* [ */) return scanArray(i + 1, depth + 1);
    if (c === 0x6e && matches(i, "null")) return [null, i + 4];
    if (c === 0x74 && matches(i, "true")) return [true, i + 4];
    if (c === 0x66 && matches(i, "false")) return [false, i + 5];
    if (c === 0x4e && matches(i, "NaN")) return [new PyFloat(NaN), i + 3];
    if (c === 0x49 && matches(i, "Infinity")) return [new PyFloat(Infinity), i + 8];
    if (c === 0x2d && matches(i, "-Infinity")) return [new PyFloat(-Infinity), i + 9];
    return scanNumber(i);
  }

  function scanObject(i: number, depth: number): [PyValue, number] {
    if (depth > MAX_DEPTH) throw new JSONValueError("maximum recursion depth exceeded");
    const dict = new PyDict();
    i = skip(i);
    if (at(i) !== 0x7d /* } */) {
      for (;;) {
        if (at(i) !== QUOTE) throw new JSONDecodeError("Expecting property name enclosed in double quotes", i);
        const [key, afterKey] = scanString(i + 1);
        i = skip(afterKey);
        if (at(i) !== 0x3a /* : */) throw new JSONDecodeError("Expecting ':' delimiter", i);
        i = skip(i + 1);
        const [value, afterValue] = scanOnce(i, depth);
        const old = dict.entries.get(key.id);
        dict.entries.set(key.id, [old ? old[0] : key, value]);
        i = skip(afterValue);
        if (at(i) === 0x7d) break;
        if (at(i) !== 0x2c /* , */) throw new JSONDecodeError("Expecting ',' delimiter", i);
        i = skip(i + 1);
      }
    }
    return [dict, i + 1];
  }

  function scanArray(i: number, depth: number): [PyValue, number] {
    if (depth > MAX_DEPTH) throw new JSONValueError("maximum recursion depth exceeded");
    const list: PyValue[] = [];
    i = skip(i);
    if (at(i) !== 0x5d /* ] */) {
      for (;;) {
        const [value, next] = scanOnce(i, depth);
        list.push(value);
        i = skip(next);
        if (at(i) === 0x5d) break;
        if (at(i) !== 0x2c) throw new JSONDecodeError("Expecting ',' delimiter", i);
        i = skip(i + 1);
      }
    }
    return [list, i + 1];
  }

  // json.decoder.JSONDecoder.decode: skip white space, one value, white space, then the end.
  let value: PyValue, stop: number;
  try {
    [value, stop] = scanOnce(skip(0), 0);
  } catch (err) {
    if (err instanceof StopIteration) throw new JSONDecodeError("Expecting value", err.pos);
    throw err;
  }
  stop = skip(stop);
  if (stop !== end) throw new JSONDecodeError("Extra data", stop);
  return value;
}

// ---------------------------------------------------------------------------- dumps

/** A JSON-able value for `dumps`: plain JS data plus the Python value classes. */
export type Dumpable =
  | PyValue
  | string
  | number
  | Dumpable[]
  | { [key: string]: Dumpable | undefined };

/** `json.dumps(value, ensure_ascii=False, separators=(",", ":"))` as the gates send it. */
export function dumps(value: Dumpable): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return quote(PyStr.of(value));
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new TypeError("plain numbers must be integers");
    return String(value);
  }
  if (value instanceof PyStr) return quote(value);
  if (value instanceof PyInt) return value.digits;
  if (value instanceof PyFloat) return Number.isFinite(value.value) ? floatRepr(value.value) : "null";
  if (Array.isArray(value)) return `[${value.map(dumps).join(",")}]`;
  if (value instanceof PyDict) {
    const items = [...value.entries.values()].map(([k, v]) => `${quote(k)}:${dumps(v)}`);
    return `{${items.join(",")}}`;
  }
  const items = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${quote(PyStr.of(k))}:${dumps(v as Dumpable)}`);
  return `{${items.join(",")}}`;
}

function quote(text: PyStr): string {
  let out = '"';
  for (const cp of text.cps) {
    if (cp === 0x22) out += '\\"';
    else if (cp === 0x5c) out += "\\\\";
    else if (cp === 0x0a) out += "\\n";
    else if (cp === 0x0d) out += "\\r";
    else if (cp === 0x09) out += "\\t";
    else if (cp === 0x08) out += "\\b";
    else if (cp === 0x0c) out += "\\f";
    else if (cp < 0x20) out += "\\u" + cp.toString(16).padStart(4, "0");
    else if (cp >= 0xd800 && cp <= 0xdfff) out += "?"; // encode("utf-8", "replace")
    else out += String.fromCodePoint(cp);
  }
  return out + '"';
}

/** `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function floatRepr(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exp] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const e = Number(exp);
  const sign = x < 0 ? "-" : "";
  if (e < -4 || e >= 16) {
    const frac = digits.length > 1 ? "." + digits.slice(1) : "";
    const expText = (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
    return `${sign}${digits[0]}${frac}e${expText}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  const intPart = digits.slice(0, e + 1).padEnd(e + 1, "0");
  const fracPart = digits.slice(e + 1) || "0";
  return `${sign}${intPart}.${fracPart}`;
}
