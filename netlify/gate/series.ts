/**
 * `?parameter=CODE` answered from a zone's series file: a port of generator/api/series.py.
 *
 * The file holds one item per line between three frame lines (routes.json `series`: head,
 * middle, tail); the answer is the compact one-line document of the rows whose parameter is
 * CODE and of the documents they cite, with CODE's register unit from the tail's
 * `normalized_units`, byte for byte what the Python gate answers. A row is
 * picked without parsing it: in JSON text a `"` inside a string is always escaped, so
 * `,"parameter":"CODE"` followed by `,` or `}` can only be the row's own member.
 */

import { fill, type SeriesLayout } from "./routes.ts";

function items(lines: string[]): string[] {
  return lines.map((line) => (line.endsWith(",") ? line.slice(0, -1) : line));
}

/** `series.split`: the documents and rows of a series file; an error if it is not one. */
export function splitSeries(text: string, layout: SeriesLayout): { documents: string[]; rows: string[] } {
  const lines = text.split("\n");
  const at = lines.indexOf(layout.middle, 1);
  if (lines.length < 4 || lines[lines.length - 1] !== "" || at < 0) throw new Error("not a series file");
  return { documents: items(lines.slice(1, at)), rows: items(lines.slice(at + 1, -2)) };
}

function picks(layout: SeriesLayout, code: string): (row: string) => boolean {
  const member = JSON.stringify(layout.field) + ":" + JSON.stringify(code);
  const inner = "," + member + ",", first = "{" + member + ",", last = "," + member + "}", alone = "{" + member + "}";
  return (row) => row.includes(inner) || row.startsWith(first) || row.endsWith(last) || row === alone;
}

/** `series.tail_units` reads the same line: the members of the file's last line (`],"normalized_units":...}`). */
function tailMembers(text: string, layout: SeriesLayout): Record<string, Record<string, unknown>> {
  const end = text.lastIndexOf("\n", text.length - 2);
  const line = text.slice(end + 1, -1);
  if (!line.startsWith("],")) throw new Error("not a series file");
  const members = JSON.parse("{" + line.slice(2));
  if (typeof members[layout.units] !== "object" || members[layout.units] === null) throw new Error("not a series file");
  return members;
}

/** `series.filter_series`: the series of only CODE's rows, as one compact line. */
export function filterSeries(
  text: string,
  layout: SeriesLayout,
  code: string,
  members: Record<string, string>,
): string {
  const { documents, rows } = splitSeries(text, layout);
  const picked = rows.filter(picks(layout, code));
  const cited = new Set(picked.map((row) => JSON.parse(row)[layout.cites]));
  const kept = documents.filter((doc) => cited.has(JSON.parse(doc)[layout.cites]));
  const units: Record<string, unknown> = {};
  if (picked.length) units[code] = tailMembers(text, layout)[layout.units][code];
  const values = {
    ...members,
    [layout.field]: JSON.stringify(code),
    [layout.count]: String(picked.length),
    [layout.units]: JSON.stringify(units),
  };
  return fill(layout.head, values) + kept.join(",") + layout.middle + picked.join(",") + fill(layout.tail, values) + "\n";
}
