/**
 * Text handling with Python's semantics, so both gates see the same values.
 *
 * The Python gate decodes URLs with `urllib.parse.unquote` / `parse_qsl` and bodies with
 * `json.loads(bytes)`; its strings are sequences of code points (lengths, JSON error
 * positions and regex classes count code points, not UTF-16 units). This module mirrors
 * exactly those pieces and nothing more.
 */

/** A Python `str`: code points, which may include lone surrogates (JSON `"\ud800"`). */
export class PyStr {
  constructor(readonly cps: readonly number[]) {}

  static of(text: string): PyStr {
    return new PyStr(Array.from(text, (ch) => ch.codePointAt(0)!));
  }

  get length(): number {
    return this.cps.length;
  }

  hasSurrogates(): boolean {
    return this.cps.some((cp) => cp >= 0xd800 && cp <= 0xdfff);
  }

  /** The text as a JS string (lone surrogates stay lone; only meaningful without them). */
  toString(): string {
    let out = "";
    for (const cp of this.cps) out += String.fromCodePoint(cp);
    return out;
  }

  /** A Map key that keeps two strings apart exactly when Python would. */
  get id(): string {
    return this.cps.join(",");
  }
}

/** Raised where Python raises a UnicodeDecodeError (FastAPI answers 400, not 422). */
export class DecodeError extends Error {}

// Python's `str.isspace()`: what `str.strip()` and the regex class `\s` mean for str.
export const PY_SPACE =
  "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_SPACE_RE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");

/** Python's `str.strip()` without arguments. */
export function pyStrip(text: string): string {
  return text.replace(PY_SPACE_RE, "");
}

const UTF8_REPLACE = new TextDecoder("utf-8", { ignoreBOM: true });

/** `bytes.decode("utf-8", "replace")`: WHATWG's decoder substitutes exactly like CPython's. */
export function decodeUtf8Replace(bytes: Uint8Array): string {
  return UTF8_REPLACE.decode(bytes);
}

const HEX = /^[0-9A-Fa-f]{2}/;

/** `urllib.parse.unquote(text)`: UTF-8 with errors="replace"; non-ASCII text stays as it is. */
export function unquote(text: string): string {
  if (!text.includes("%")) return text;
  // Python decodes each run of ASCII characters on its own and keeps other characters.
  // deno-lint-ignore no-control-regex -- the ASCII range, as Python's `_asciire`
  return text.replace(/[\x00-\x7f]+/g, (run) => {
    const parts = run.split("%");
    const bytes: number[] = [...parts[0]].map((ch) => ch.charCodeAt(0));
    for (const part of parts.slice(1)) {
      const escaped = HEX.test(part);
      bytes.push(escaped ? parseInt(part.slice(0, 2), 16) : 0x25);
      for (const ch of escaped ? part.slice(2) : part) bytes.push(ch.charCodeAt(0));
    }
    return decodeUtf8Replace(Uint8Array.from(bytes));
  });
}

/** `urllib.parse.parse_qsl(query, keep_blank_values=True)`, in order of appearance. */
export function parseQsl(query: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const field of query ? query.split("&") : []) {
    if (!field) continue;
    const at = field.indexOf("=");
    const name = at < 0 ? field : field.slice(0, at);
    const value = at < 0 ? "" : field.slice(at + 1);
    pairs.push([unquote(name.replaceAll("+", " ")), unquote(value.replaceAll("+", " "))]);
  }
  return pairs;
}

// ---------------------------------------------------------------------------- json.loads(bytes)

/** `json.detect_encoding`: which codec `json.loads` uses for a body. */
export function detectEncoding(b: Uint8Array): string {
  const starts = (...prefix: number[]) => prefix.every((byte, i) => b[i] === byte);
  if (starts(0xff, 0xfe, 0, 0) || starts(0, 0, 0xfe, 0xff)) return "utf-32";
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) return "utf-16";
  if (starts(0xef, 0xbb, 0xbf)) return "utf-8-sig";
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? "utf-16-be" : "utf-32-be";
    if (!b[1]) return b[2] || b[3] ? "utf-16-le" : "utf-32-le";
  } else if (b.length === 2) {
    if (!b[0]) return "utf-16-be";
    if (!b[1]) return "utf-16-le";
  }
  return "utf-8";
}

/** `bytes.decode(encoding, "surrogatepass")` for the codecs `detectEncoding` names. */
export function decodeSurrogatepass(b: Uint8Array, encoding: string): number[] {
  switch (encoding) {
    case "utf-8":
      return decodeUtf8Strict(b, 0);
    case "utf-8-sig":
      return decodeUtf8Strict(b, 3);
    case "utf-16": // BOM decides, and is dropped
      return decodeUnits(b, 2, b[0] === 0xff, 2);
    case "utf-16-le":
      return decodeUnits(b, 2, true, 0);
    case "utf-16-be":
      return decodeUnits(b, 2, false, 0);
    case "utf-32":
      return decodeUnits(b, 4, b[0] === 0xff, 4);
    case "utf-32-le":
      return decodeUnits(b, 4, true, 0);
    case "utf-32-be":
      return decodeUnits(b, 4, false, 0);
  }
  throw new DecodeError(encoding);
}

function decodeUtf8Strict(b: Uint8Array, start: number): number[] {
  const out: number[] = [];
  let i = start;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      out.push(c);
      i += 1;
      continue;
    }
    let need: number, cp: number, lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) [need, cp] = [1, c & 0x1f];
    else if (c >= 0xe0 && c <= 0xef) {
      [need, cp] = [2, c & 0x0f];
      if (c === 0xe0) lo = 0xa0; // no overlong forms; 0xED may encode surrogates (surrogatepass)
    } else if (c >= 0xf0 && c <= 0xf4) {
      [need, cp] = [3, c & 0x07];
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else throw new DecodeError("invalid start byte");
    for (let k = 1; k <= need; k++) {
      const next = b[i + k];
      if (next === undefined || next < (k === 1 ? lo : 0x80) || next > (k === 1 ? hi : 0xbf)) {
        throw new DecodeError("invalid continuation byte");
      }
      cp = (cp << 6) | (next & 0x3f);
    }
    out.push(cp);
    i += need + 1;
  }
  return out;
}

function decodeUnits(b: Uint8Array, size: number, little: boolean, skip: number): number[] {
  if ((b.length - skip) % size) throw new DecodeError("truncated data");
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const units: number[] = [];
  for (let i = skip; i < b.length; i += size) {
    units.push(size === 2 ? view.getUint16(i, little) : view.getUint32(i, little));
  }
  if (size === 4) {
    if (units.some((u) => u > 0x10ffff)) throw new DecodeError("code point not in range");
    return units;
  }
  // UTF-16: join valid pairs; surrogatepass keeps the lone halves as they are.
  const out: number[] = [];
  for (let i = 0; i < units.length; i++) {
    const u = units[i];
    const next = units[i + 1];
    if (u >= 0xd800 && u <= 0xdbff && next !== undefined && next >= 0xdc00 && next <= 0xdfff) {
      out.push(0x10000 + ((u - 0xd800) << 10) + (next - 0xdc00));
      i++;
    } else out.push(u);
  }
  return out;
}
