"""A zone whose newest publication is older than the operator's cadence is marked stale."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from generator.ordinance.staleness import cutoff
from tests.helpers import GOLDEN_INPUT


@pytest.mark.parametrize(
    ("as_of", "months", "expected"),
    [
        (dt.date(2026, 11, 26), 12, dt.date(2025, 11, 26)),
        (dt.date(2026, 3, 31), 1, dt.date(2026, 2, 28)),
        (dt.date(2024, 2, 29), 12, dt.date(2023, 2, 28)),
        (dt.date(2026, 1, 15), 6, dt.date(2025, 7, 15)),
    ],
)
def test_cutoff_counts_calendar_months(as_of, months, expected):
    assert cutoff(as_of, months) == expected


def _zone(out: Path, zone_id: int) -> dict:
    return json.loads((out / f"_data/v1/zones/{zone_id}.json").read_text(encoding="utf-8"))


def _page(out: Path, zone_id: int) -> str:
    return (out / f"gebiete/{zone_id}/index.html").read_text(encoding="utf-8")


def test_zones_are_marked_stale_in_the_resource_and_on_the_page(tmp_path):
    # Zone 11's newest document (wk-2026) has the edition 2026-06-30, zone 21's (zs-2026)
    # 2026-05-15. On 2027-06-10 with the default 12 months, 21 is stale and 11 is not.
    out = tmp_path / "build"
    build(GOLDEN_INPUT, out, dt.date(2027, 6, 10), Config(), force=True)
    fresh, stale = _zone(out, 11), _zone(out, 21)
    assert (fresh["newest_publication"], fresh["publication_stale"]) == ("2026-06-30", False)
    assert (stale["newest_publication"], stale["publication_stale"]) == ("2026-05-15", True)
    assert "Die neueste Veröffentlichung ist vom 15.05.2026." in _page(out, 21)
    assert "Die neueste Veröffentlichung ist vom" not in _page(out, 11)
    # A zone without any value has no publication: stale, but the page already says there
    # are no values, and names no date.
    assert (_zone(out, 23)["newest_publication"], _zone(out, 23)["publication_stale"]) == (
        None,
        True,
    )
    assert "Die neueste Veröffentlichung ist vom" not in _page(out, 23)

    # The operator's cadence decides: with 6 months, zone 11 is stale as well.
    six = tmp_path / "six"
    build(GOLDEN_INPUT, six, dt.date(2027, 6, 10), Config(publication_cadence_months=6), force=True)
    assert _zone(six, 11)["publication_stale"] is True
    assert "Die neueste Veröffentlichung ist vom 30.06.2026." in _page(six, 11)


def test_documents_after_the_reference_date_do_not_count(tmp_path):
    out = tmp_path / "build"
    build(GOLDEN_INPUT, out, dt.date(2026, 6, 1), Config(), force=True)
    # wk-2026 (2026-06-30) is not published yet on 2026-06-01: wk-2025 is the newest
    assert _zone(out, 11)["newest_publication"] == "2025-12-31"
    assert _zone(out, 11)["publication_stale"] is False


def test_a_feed_assesses_the_previous_samples_with_the_operators_cadence():
    """The feed's "previous verdict" ages points by the same cadence as the current one.

    Point A: nitrate 20 mg/l on 2025-03-01 and 2026-06-03; point B: 60 mg/l on 2024-06-01,
    then 10 mg/l on 2025-06-01. Before the latest samples, A (2025-03-01) stood alone under
    a cadence of 24 months, B's 60 mg/l being older than that: the verdict did not change,
    and no entry may say "jetzt eingehalten". Under 12 months both earlier samples are old,
    the worse decides, and the improvement is news.
    """
    from generator.derive import derive
    from generator.site import feeds
    from tests.helpers import AS_OF
    from tests.verdict_zones import ZONE, row, zone_data

    rows = [
        row("nitrat", "20", "mg/l", dt.date(2025, 3, 1), "A", document_id="wk-2025"),
        row("nitrat", "20", "mg/l", dt.date(2026, 6, 3), "A"),
        row("nitrat", "60", "mg/l", dt.date(2024, 6, 1), "B", document_id="wk-2025"),
        row("nitrat", "10", "mg/l", dt.date(2025, 6, 1), "B", document_id="wk-2025"),
    ]

    def titles(months: int) -> list[str]:
        d = derive(zone_data(rows), AS_OF, months)
        entries = feeds.zone_entries(d, AS_OF).filter(zone_id=ZONE)
        return [t for t in entries.get_column("title") if t.startswith("Nitrat: jetzt")]

    assert titles(24) == []
    assert titles(12) == ["Nitrat: jetzt eingehalten"]
