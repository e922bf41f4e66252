/**
 * GET /suche?plz=... (declared in netlify.toml): the search form without JavaScript leads a
 * PLZ to its page, a place the build knows to its page or its entry in the A-Z index, and
 * anything else to the index of places (netlify/gate/search.ts).
 */

import { searchAnswer, type SearchDocument } from "../gate/search.ts";
// Written by `trinkwasser build` beside the published folder, bundled with the function.
import places from "../../build-gate/suche.json" with { type: "json" };

// Other methods go on to the CDN (its 404 page), as the Python gate serves them.
export default (request: Request): Response | undefined =>
  request.method === "GET" || request.method === "HEAD"
    ? searchAnswer(request, places as SearchDocument)
    : undefined;
