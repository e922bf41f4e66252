// Unit tests of the gate's handler with a fake state and a fake CDN, for what the emulator
// cannot provoke. Run by tests/edge/test_typescript.py (`deno test`).

import type { Context } from "@netlify/edge-functions";

import { createGate } from "../../netlify/gate/handler.ts";
import type { RouteTable } from "../../netlify/gate/routes.ts";
import { type GateState, StateBusyError } from "../../netlify/gate/state.ts";

const table: RouteTable = JSON.parse(Deno.env.get("ROUTES_JSON")!);

function assertEquals(actual: unknown, expected: unknown) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

const activeKey: GateState["keyByHash"] = () => Promise.resolve({ id: "key_1", status: "active" });
const fakeState = (overrides: Partial<GateState>): GateState => ({
  keyByHash: activeKey,
  consume: () => Promise.resolve({ allowed: true, used: 1 }),
  reserveBurst: () => Promise.resolve({ allowed: true }),
  storeRequest: () => Promise.resolve(true),
  ...overrides,
});
const cdn = (status: number, body = "{}") => ({ next: () => Promise.resolve(new Response(body, { status })) }) as unknown as Context;
const keyed = new Request("https://example.org/v1/zones/11", { headers: { "X-Api-Key": "twd_x" } });

Deno.test("a quota counter that stays contended answers 503, never a wrong count", async () => {
  const gate = createGate({ table, state: fakeState({ consume: () => Promise.reject(new StateBusyError("busy")) }) });
  const answer = await gate(keyed, cdn(200));
  assertEquals(answer.status, 503);
  assertEquals(answer.headers.get("retry-after"), "1");
});

const unavailable = async (answer: Response) => {
  assertEquals(answer.status, 503);
  assertEquals(answer.headers.get("retry-after"), String(table.settings.unavailable_retry_after));
  assertEquals(await answer.json(), { detail: table.messages.unavailable.detail });
};

Deno.test("a CDN error is a 503, never a 404 or a wrong body", async () => {
  const gate = createGate({ table, state: fakeState({}) });
  for (const status of [500, 502, 503, 403]) await unavailable(await gate(keyed, cdn(status)));
  await unavailable(await gate(new Request("https://example.org/v1/parameters"), cdn(500)));
});

Deno.test("a failing key store or quota counter is a 503", async () => {
  const failing = () => Promise.reject(new Error("blobs: 500 Internal Server Error"));
  for (const overrides of [{ keyByHash: failing }, { consume: failing }]) {
    await unavailable(await createGate({ table, state: fakeState(overrides) })(keyed, cdn(200)));
  }
});

Deno.test("an access request that cannot be stored is a 503, never a 202", async () => {
  const state = fakeState({ storeRequest: () => Promise.reject(new Error("blobs: 503")) });
  const answer = await createGate({ table, state })(
    new Request("https://example.org/v1/keys/antrag", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@b.de", zweck: "Ein ausreichend langer Zweck" }),
    }),
    cdn(200),
  );
  await unavailable(answer);
});

Deno.test("request ids never collide with a stored request", async () => {
  const seen: string[] = [];
  const state = fakeState({
    storeRequest: (r) => {
      seen.push(r.id);
      return Promise.resolve(seen.length > 2); // the first two ids are taken
    },
  });
  const gate = createGate({ table, state });
  const answer = await gate(
    new Request("https://example.org/v1/keys/antrag", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@b.de", zweck: "Ein ausreichend langer Zweck" }),
    }),
    cdn(200),
  );
  assertEquals(answer.status, 202);
  assertEquals((await answer.json()).request_id, seen[2]);
  assertEquals(new Set(seen).size, 3);
});

Deno.test("the quota day and reset follow Europe/Berlin across a DST change", async () => {
  // 2026-03-29 is the spring change; the next midnight is 2026-03-30 00:00+02:00.
  const now = Date.UTC(2026, 2, 29, 20, 0, 0);
  let day = "";
  const state = fakeState({
    consume: (_id, d, limit) => {
      day = d;
      return Promise.resolve({ allowed: false, used: limit });
    },
  });
  const answer = await createGate({ table, state, now: () => now })(keyed, cdn(200));
  assertEquals(answer.status, 429);
  assertEquals(day, "2026-03-29");
  assertEquals(answer.headers.get("x-ratelimit-reset"), String(Date.UTC(2026, 2, 29, 22) / 1000));
  assertEquals(answer.headers.get("retry-after"), "7200");
  const detail = (await answer.json()).detail as string;
  assertEquals(detail.includes("(2026-03-30T00:00:00+02:00), in 7200 seconds"), true);
});

Deno.test("a parameter value never reaches a path of the CDN", async () => {
  const asked: string[] = [];
  const recordingCdn = {
    next: (request: Request) => {
      asked.push(new URL(request.url).pathname);
      return Promise.resolve(new Response("{}", { status: 200 }));
    },
  } as unknown as Context;
  const gate = createGate({ table, state: fakeState({}) });
  const key = { headers: { "X-Api-Key": "twd_x" } };
  // The filter names no file: only the zone's series is asked for, and the value is unknown.
  for (const value of ["../../../lookup/76437", "..", "a%2Fb", "%00", "a".repeat(5000)]) {
    const url = `https://example.org/v1/zones/11/measurements?parameter=${value}`;
    const answer = await gate(new Request(url, key), recordingCdn);
    assertEquals(answer.status, 404);
    assertEquals((await answer.json()).detail.startsWith("No parameter with code '"), true);
  }
  assertEquals(new Set(asked), new Set(["/_data/v1/zones/11/measurements.json.gz"]));
  // A code in a path is one harmless segment, or no file at all.
  asked.length = 0;
  for (const value of ["a%0Ab", "a".repeat(5000)]) {
    const answer = await gate(new Request(`https://example.org/v1/parameters/${value}/limits`, key), recordingCdn);
    assertEquals(answer.status, 404);
    assertEquals((await answer.json()).detail.startsWith("No parameter with code '"), true);
  }
  assertEquals(asked, []);
});

Deno.test("a stored .gz series answers its JSON, and as it is when the CDN decoded it already", async () => {
  const json = '{"count":0,"documents":[\n],"measurements":[\n],"normalized_units":{},"parameter":null,"zone_id":11}\n';
  const gzipped = new Uint8Array(
    await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
  );
  const gate = createGate({ table, state: fakeState({}) });
  const url = "https://example.org/v1/zones/11/measurements";
  for (const stored of [gzipped, new TextEncoder().encode(json)]) {
    const served = { next: () => Promise.resolve(new Response(stored, { status: 200 })) } as unknown as Context;
    const answer = await gate(new Request(url, { headers: { "X-Api-Key": "twd_x" } }), served);
    assertEquals(answer.status, 200);
    assertEquals(answer.headers.get("content-type"), table.http.content_types[".json"]);
    assertEquals(answer.headers.get("content-length"), String(new TextEncoder().encode(json).byteLength));
    assertEquals(await answer.text(), json);
  }
});
