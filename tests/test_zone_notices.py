"""The PLZ page says what the zone page says (issue 51, point 4).

The notices under a zone's verdict (whom to ask where a value is above a limit, stricter
limits announced, a newest publication older than the cadence) come from one fragment for
both pages. Read from the built HTML, strictly parsed: for every PLZ, each zone card carries
exactly the notices of that zone's own page.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from generator.load import sample_data_dir
from generator.site import urls
from tests.site_helpers import NS, find, html_files, page, text_of

NOTICE_CLASSES = ("advice", "announced", "notice stale")
"""The classes of the notices' paragraphs (templates/fragments/zone_notices.html); both
notices of age (an old publication, key values on old samples) are `notice stale`."""

STALE_AS_OF = dt.date(2027, 9, 20)
"""A date at which the sample's suppliers 2 to 4 (newest publications 3 to 5 September
2026) are more than twelve months old and supplier 1 (12 October 2026) is not."""


def notices(element) -> list[tuple[str, str]]:
    """Return the notices under a verdict as (class, text), in the order they are shown."""
    return [
        (p.get("class"), text_of(p))
        for p in element.iter(NS + "p")
        if p.get("class") in NOTICE_CLASSES
    ]


def zone_notices(root: Path, zone_id: int) -> list[tuple[str, str]]:
    tree = page(root, urls.url("zone", zone_id=zone_id))
    (summary,) = [s for s in find(tree, "section") if "summary" in s.get("class", "").split()]
    return notices(summary)


def plz_cards(root: Path, plz: str) -> dict[str, list[tuple[str, str]]]:
    """Return the notices of each zone card of a PLZ page, by the card's zone URL."""
    tree = page(root, urls.url("plz", plz=plz))
    cards = [li for li in find(tree, "li") if li.get("class") == "zone-card"]
    out = {}
    for card in cards:
        link = find(find(card, "h2")[0], "a")[0].get("href")
        (answer,) = [d for d in find(card, "div") if d.get("class") == "answer"]
        out[link] = notices(answer)
    return out


def all_plz(root: Path) -> list[str]:
    return sorted(p.parent.name for p in html_files(root / "plz"))


def zones_of(root: Path, plz: str) -> list[int]:
    lookup = json.loads((root / "_data" / "v1" / "lookup" / f"{plz}.json").read_bytes())
    return [z["zone_id"] for z in lookup["zones"]]


@pytest.fixture(scope="module")
def stale_build(tmp_path_factory) -> Path:
    """Build the bundled sample at `STALE_AS_OF`: three of its four suppliers are stale."""
    out = tmp_path_factory.mktemp("stale-sample") / "build"
    build(sample_data_dir(), out, STALE_AS_OF, Config())
    return out


def test_plz_84524_shows_the_announced_lead_limit_of_its_zone(sample_build):
    cards = plz_cards(sample_build, "84524")
    altstadt = urls.url("zone", zone_id=402)
    assert list(cards) == [altstadt, urls.url("zone", zone_id=403)]
    announced = (
        "announced",
        "Strengere Werte angekündigt: Blei läge ab 12.01.2028 über dem neuen Wert "
        "(Grenzwert 5 µg/l).",
    )
    assert cards[altstadt] == [announced]
    assert zone_notices(sample_build, 402) == [announced]
    # the other zone of the PLZ announces nothing, on either page
    assert cards[urls.url("zone", zone_id=403)] == [] == zone_notices(sample_build, 403)
    # the key value beside it says how far above the 2028 value the lead is
    card = [
        li
        for li in find(page(sample_build, urls.url("plz", plz="84524")), "li")
        if li.get("class") == "zone-card"
    ][0]
    assert "das wären 144 %" in text_of(card)


def test_a_stale_zone_s_plz_page_shows_the_staleness_notice(stale_build):
    stale = (
        "notice stale",
        "Die neueste Veröffentlichung ist vom 05.09.2026. Neuere Werte des Versorgers liegen "
        "uns nicht vor; die Angaben können veraltet sein.",
    )
    cards = plz_cards(stale_build, "84524")
    assert stale in cards[urls.url("zone", zone_id=402)]
    assert stale in cards[urls.url("zone", zone_id=403)]
    # supplier 1's zones published within the cadence: no such notice on their pages
    assert stale[1].startswith("Die neueste Veröffentlichung")
    fresh = [n for n in zone_notices(stale_build, 101) if n[1].startswith(stale[1][:28])]
    assert fresh == []


@pytest.mark.parametrize("which", ["sample_build", "stale_build"])
def test_every_plz_page_carries_the_notices_of_each_of_its_zones(which, request):
    root = request.getfixturevalue(which)
    seen: set[str] = set()
    single = 0
    for plz in all_plz(root):
        zone_ids = zones_of(root, plz)
        cards = plz_cards(root, plz)
        assert list(cards) == [urls.url("zone", zone_id=z) for z in zone_ids]
        for zone_id in zone_ids:
            expected = zone_notices(root, zone_id)
            assert cards[urls.url("zone", zone_id=zone_id)] == expected, (plz, zone_id)
            seen.update(kind for kind, _ in expected)
        single += len(zone_ids) == 1
    # the comparison met single-zone PLZ and every kind of notice the build shows
    assert single > 10
    expected_kinds = {"advice", "announced"} | (
        {"notice stale"} if which == "stale_build" else set()
    )
    assert seen == expected_kinds
