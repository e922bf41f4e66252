"""What a server of the built tree must know about the human site.

Its search without JavaScript and its 404 page. The site renders them (`generator.site.urls`
re-exports these); the build writes the places the search knows beside the tree
(`search_document`), which both gates read: the Python gate (`generator/gate/static.py`) and
the edge function `netlify/edge-functions/search.ts`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from generator.api import http

NOT_FOUND_PAGE = "404.html"
"""Served with status 404 for every unknown path outside the API (also on Netlify)."""

SEARCH_PATH = "/suche"
"""Where the search form sends its query without JavaScript: `GET /suche?plz=...`."""
SEARCH_FIELD = "plz"
"""The form field that carries what was typed (a PLZ or a place)."""
SEARCH_STATUS = 302
SEARCH_FILE = "suche.json"
"""The places the search knows, in the gate's directory beside the build (`search_document`)."""
PLZ_PAGE = "/plz/{}/"
PLACE_INDEX = "/orte/"

# How a typed name and a place's name are compared: lower case, umlauts as a German types
# them without the key (ö -> oe), other accents dropped, any run of other characters (a
# letter outside a-z too) one space. Both gates apply these rules as the build wrote them
# into `SEARCH_FILE`; what is left is ASCII, so the two languages cannot differ.
SPELLINGS = [["ä", "ae"], ["ö", "oe"], ["ü", "ue"], ["ß", "ss"]]
OTHER_CHARACTERS = "[^a-z0-9]+"
PLZ_QUERY = "^([0-9]+)(?: |$)"
"""A key that starts with digits: the PLZ (`04109 leipzig` too)."""


DEMO_KEY_PATH = "/api/demo-schluessel.json"
"""What the API reference asks for the key its examples show: the build writes it without a
key (`{"demo_key": null}`, the same bytes with or without a demo key), and `trinkwasser serve
--demo-key` answers it with the local demo key. On Netlify the built file is served."""


def demo_key_document(key: str | None) -> bytes:
    """Return the answer at `DEMO_KEY_PATH`: the local demo key, or null."""
    return json.dumps({"demo_key": key}).encode() + b"\n"


def search_key(text: str, spellings: list[list[str]] = SPELLINGS) -> str:
    """Return the key a name or a query is compared by: `Köln`, `koeln`, `KÖLN` -> `koeln`."""
    key = text.lower()
    for letter, spelled in spellings:
        key = key.replace(letter, spelled)
    key = unicodedata.normalize("NFKD", key)
    key = "".join(c for c in key if not unicodedata.category(c).startswith("M"))
    return re.sub(OTHER_CHARACTERS, " ", key).strip(" ")


def search_document(index: bytes) -> dict[str, Any]:
    """Return what the gates need to answer `/suche`, from the site's search index.

    `places` maps the key of every place name (`search_key`, and the name with its accents
    merely dropped, so `Koln` finds Köln too) to its target: the page of its PLZ when it has
    one, else its entry in the A-Z index of places (`/orte/k/#ort-koln`), as the search with
    JavaScript leads. Two places with one key: the first in the index's order.
    """
    doc = json.loads(index)
    pages = doc["plz"]
    places: dict[str, str] = {}
    for name, codes, entry in doc["orte"]:
        target = PLZ_PAGE.format(pages[codes[0]]) if len(codes) == 1 else entry
        for key in (search_key(name), search_key(name, SPELLINGS[3:])):
            if key:
                places.setdefault(key, target)
    return {
        "path": SEARCH_PATH,
        "field": SEARCH_FIELD,
        "status": SEARCH_STATUS,
        "cache_control": http.CACHE["error"],
        "plz_page": PLZ_PAGE,
        "place_index": PLACE_INDEX,
        "spellings": SPELLINGS,
        "other_characters": OTHER_CHARACTERS,
        "plz_query": PLZ_QUERY,
        "places": dict(sorted(places.items())),
    }


def search_target(query: str, places: dict[str, str]) -> str:
    """Return where the search form lands for what was typed.

    Digits (and what follows them, `04109 Leipzig`) lead to the page of that PLZ, four
    digits as the PLZ with its leading zero (`4103` -> `/plz/04103/`), other digits to the
    page that explains a malformed PLZ; a place the build knows to its page or entry; an
    empty or unknown query to the A-Z index of places. `places` as `search_document` makes.
    """
    key = search_key(query)
    digits = re.match(PLZ_QUERY, key)
    if digits:
        plz = digits.group(1)
        return PLZ_PAGE.format(plz.zfill(5) if len(plz) == 4 else plz)
    return places.get(key, PLACE_INDEX)
