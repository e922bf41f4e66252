/**
 * The site's search without JavaScript (`GET /suche?plz=...`): a port of `search_target` in
 * generator/api/site_rules.py. The rules (spellings, patterns, pages) and the places come
 * from build-gate/suche.json, which the build writes from the site's search index; after the
 * spellings only ASCII is left, so both gates compare the same keys.
 */

export interface SearchDocument {
  path: string;
  field: string;
  status: number;
  cache_control: string;
  plz_page: string;
  place_index: string;
  spellings: string[][];
  other_characters: string;
  plz_query: string;
  places: Record<string, string>;
}

/** `search_key`: `Köln`, `koeln`, `KÖLN` -> `koeln`. */
export function searchKey(text: string, doc: SearchDocument): string {
  let key = text.toLowerCase();
  for (const [letter, spelled] of doc.spellings) key = key.replaceAll(letter, spelled);
  key = key.normalize("NFKD").replace(/\p{M}/gu, "");
  key = key.replace(new RegExp(doc.other_characters, "g"), " ");
  return key.replace(/^ +| +$/g, "");
}

/** `search_target`: the page a query leads to. */
export function searchTarget(query: string, doc: SearchDocument): string {
  const key = searchKey(query, doc);
  const digits = new RegExp(doc.plz_query).exec(key);
  if (digits) {
    const plz = digits[1].length === 4 ? "0" + digits[1] : digits[1];
    return doc.plz_page.replace("{}", plz);
  }
  return Object.hasOwn(doc.places, key) ? doc.places[key] : doc.place_index;
}

/** Answer a request for the search path: a redirect, whatever the query. */
export function searchAnswer(request: Request, doc: SearchDocument): Response {
  const typed = new URL(request.url).searchParams.get(doc.field) ?? "";
  return new Response(null, {
    status: doc.status,
    headers: { "location": searchTarget(typed, doc), "cache-control": doc.cache_control },
  });
}
