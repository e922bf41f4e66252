/**
 * The production gate for /v1/* and /_data/* (declared in netlify.toml, not here: the
 * declaration must be visible offline and to reviewers in one place). No `cache: "manual"`,
 * no `method` filter (both would let requests past the gate) and `onError` stays "fail".
 */

import type { Context } from "@netlify/edge-functions";

import { createGate } from "../gate/handler.ts";
import type { RouteTable } from "../gate/routes.ts";
import { BlobsState } from "../gate/state.ts";
// Written by `trinkwasser build` beside the published folder, bundled with the function.
import table from "../../build-gate/routes.json" with { type: "json" };

const gate = createGate({
  table: table as RouteTable,
  state: new BlobsState((table as RouteTable).stores),
});

export default (request: Request, context: Context): Promise<Response> => gate(request, context);
