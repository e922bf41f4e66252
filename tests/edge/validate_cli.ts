// Run the edge gate's validation (netlify/gate/validate.ts) over a batch of requests.
//
//   deno run --allow-read tests/edge/validate_cli.ts ROUTES_JSON < requests.json
//
// Input: a JSON list of jobs, each one of
//   {"validate": {"route", "path": {...}, "query": [[name, value]...], "body": base64|null,
//                 "content_type": str|null}}
//   {"qsl": raw query string}      {"split": raw request path}
// Output: one answer per job, as the Python side computes it (tests/edge/test_validation_port.py
// compares the two byte for byte).

import { dumps } from "../../netlify/gate/pyjson.ts";
import { splitPath } from "../../netlify/gate/handler.ts";
import { parseQsl } from "../../netlify/gate/pytext.ts";
import { detailFor, fileFor, type RouteTable } from "../../netlify/gate/routes.ts";
import { BodyParseError, validate } from "../../netlify/gate/validate.ts";

interface Validate {
  route: string;
  path: Record<string, string>;
  query: [string, string][];
  body: string | null;
  content_type: string | null;
}

type Job = { validate: Validate } | { qsl: string } | { split: string };

function answer(r: Validate) {
  const route = table.routes.find((x) => x.operation_id === r.route)!;
  const body = r.body === null ? null : Uint8Array.from(atob(r.body), (c) => c.charCodeAt(0));
  try {
    const result = validate(table, route, r.path, r.query, body, r.content_type);
    if (result.errors.length) return { status: 422, body: dumps({ detail: result.errors }) };
    return { status: 200, file: fileFor(table, route, result.values), detail: detailFor(route, result.values) };
  } catch (err) {
    if (err instanceof BodyParseError) return { status: 400, body: dumps({ detail: table.messages.body_unreadable.detail }) };
    throw err;
  }
}

const table: RouteTable = JSON.parse(await Deno.readTextFile(Deno.args[0]));
const jobs: Job[] = JSON.parse(await new Response(Deno.stdin.readable).text());
const answers = jobs.map((job) => {
  if ("validate" in job) return answer(job.validate);
  if ("qsl" in job) return parseQsl(job.qsl);
  return splitPath(job.split);
});
console.log(JSON.stringify(answers));
