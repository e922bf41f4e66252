/**
 * POST /v1/keys/antrag: the same gate, as its own function so that Netlify's rate limiter
 * guards only this endpoint (a per-address flood limit; keyed API traffic is not slowed).
 * The path is declared in netlify.toml; `rateLimit` can only be declared inline.
 */

import type { Config, Context } from "@netlify/edge-functions";

import { createGate } from "../gate/handler.ts";
import type { RouteTable } from "../gate/routes.ts";
import { BlobsState } from "../gate/state.ts";
import table from "../../build-gate/routes.json" with { type: "json" };

const gate = createGate({
  table: table as RouteTable,
  state: new BlobsState((table as RouteTable).stores),
});

export default (request: Request, context: Context): Promise<Response> => gate(request, context);

export const config: Config = {
  // Per client address and site domain: at most 10 requests a minute reach the function;
  // the gate's own per-e-mail limit (routes.json settings) applies behind it.
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
