"""Invariants of the verdicts that no new combination of published values may break.

Zones are generated with 1-4 sample points per parameter, several dates and documents, every
statistic, `<`, `n.n.` beside a reporting-limit column or alone, ranges, `>`, and mixed units,
and assessed by the build's own code (`tests/verdict_zones.py`). The fixed profile runs in the
test command; a deeper run, for changes to the rules:

    HYPOTHESIS_PROFILE=deep .venv/bin/python -m pytest tests/test_evidence_properties.py

(`EVIDENCE_EXAMPLES` sets the number of zones per property in either profile.)
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import derive
from generator.api import verdicts
from generator.load import load
from generator.ordinance.evidence import COMPLIANT
from tests.helpers import AS_OF, GOLDEN_INPUT, read_rows, write_rows
from tests.verdict_zones import COLUMNS, DOCUMENT, assess_many, row

_DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
EXAMPLES = int(os.environ.get("EVIDENCE_EXAMPLES", 300 if _DEEP else 20))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    # The test command's profile is fixed: the same zones every run, so a failure in CI is
    # one anyone can repeat; the deep profile explores new ones each time.
    derandomize=not _DEEP,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NEW, NEWER, OLD = dt.date(2025, 12, 1), dt.date(2026, 6, 15), dt.date(2024, 5, 2)
DATES = (OLD, NEW, NEWER)
"""Two dates within the cadence before the tests' as-of date (2026-11-23), one older."""
POINTS = ("Wasserwerk A", "Wasserwerk B", "Netz Nord", None)
EDITIONS = {"wk-2025": dt.date(2025, 12, 31), DOCUMENT: dt.date(2026, 6, 30)}
"""The golden supplier's documents: a row cites one whose edition is not before its sample."""

# Each parameter with its register unit, limit (or range) and the units it may be published in.
UPPER = {
    "nitrat": ("mg/l", Decimal("50"), ("mg/l",)),
    "pfas_summe_20": ("µg/l", Decimal("0.1"), ("µg/l", "ng/l", "mg/l")),
    "blei": ("µg/l", Decimal("10"), ("µg/l", "mg/l")),
    "legionella": ("KBE/100 ml", Decimal("100"), ("KBE/100 ml",)),
}
UPPER["pestizide_gesamt"] = ("µg/l", Decimal("0.5"), ("µg/l", "ng/l"))
RANGE = {"ph_wert": (Decimal("6.5"), Decimal("9.5"))}
MEMBERS = {
    "pfas_summe_20": ("pfoa", "pfos", "pfhxs"),
    "pestizide_gesamt": ("glyphosat", "ampa", "atrazin"),
}
"""Members a zone may publish beside (or instead of) its sum: AMPA's relevance is open."""
SCALE = {"mg/l": Decimal("0.001"), "µg/l": Decimal(1), "ng/l": Decimal(1000)}
"""A µg/l value times this is the same value in that unit (mass per litre)."""
SHARES = tuple(Decimal(s) for s in ("0", "0.1", "0.5", "0.9", "1", "1.1", "2", "5"))
"""Values as shares of the limit: the boundaries are where verdicts go wrong."""


def german(x: Decimal) -> str:
    text = format(x.normalize(), "f")
    return text.replace(".", ",")


@st.composite
def evidence_text(draw: Any, limit: Decimal) -> tuple[str, str | None]:
    """Return a published value near `limit` and the reporting-limit column beside it."""
    a, b = sorted(draw(st.sampled_from(SHARES)) * limit for _ in range(2))
    shape = draw(st.sampled_from(["number", "below", "nn", "nn_rl", "range", "above"]))
    column = draw(st.one_of(st.none(), st.sampled_from(SHARES).map(lambda s: s * limit)))
    if shape == "number":
        return german(b), None
    if shape == "below":
        return f"< {german(b)}", None if column is None else german(column)
    if shape == "nn":
        return "n.n.", None
    if shape == "nn_rl":
        return "n.n.", german(b)
    if shape == "range":
        return f"{german(a)} - {german(b)}", None
    return f"> {german(b)}", None


@st.composite
def zone(draw: Any, parameters: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """Return the rows of a zone: per parameter 1-4 points, each 1-2 dates of statistics."""
    codes = parameters or tuple(
        draw(st.sets(st.sampled_from(sorted([*UPPER, *RANGE])), min_size=1, max_size=3))
    )
    rows = []
    for code in sorted(codes):
        if code in RANGE:
            unit, limit = "", RANGE[code][1]
        else:
            unit, limit, _ = UPPER[code]
        members = draw(st.sets(st.sampled_from(MEMBERS.get(code, ("",))), max_size=3)) - {""}
        for member in sorted(members):
            # Members in the sum's unit at a sample point and date of their own choosing.
            point = draw(st.sampled_from(POINTS))
            date = draw(st.sampled_from(DATES))
            text, column = draw(evidence_text(limit / 2))
            document = draw(st.sampled_from(sorted(d for d, e in EDITIONS.items() if e >= date)))
            rows.append(row(member, text, unit, date, point, "sample", column, document))
        if members and draw(st.booleans()):
            continue  # the sum itself not published: it is computed from its members
        for point in draw(st.sets(st.sampled_from(POINTS), min_size=1, max_size=4)):
            for date in draw(st.sets(st.sampled_from(DATES), min_size=1, max_size=2)):
                statistics = draw(
                    st.sets(st.sampled_from(["sample", "max", "mean", "min"]), min_size=1)
                )
                for statistic in sorted(statistics):
                    text, column = draw(evidence_text(limit))
                    document = draw(
                        st.sampled_from(sorted(d for d, e in EDITIONS.items() if e >= date))
                    )
                    rows.append(row(code, text, unit, date, point, statistic, column, document))
    return rows


def status_rank(summary: dict[str, Any]) -> int:
    """How bad a zone's headline is: above a Grenzwert, above another value, open, complies."""
    return {"exceeds_limit": 3, "exceeds_other": 2, "complies": 0}.get(summary["status"], 1)


_SEVERITY = {
    s: {
        verdicts.EXCEEDS_LIMIT: 4,
        verdicts.EXCEEDS_OTHER: 3,
        verdicts.NOT_ASSESSABLE: 2,
        verdicts.COMPLIES: 1,
    }.get(v.category, 0)
    for s, v in verdicts.STATES.items()
}


def raised(text: str) -> str:
    """Return the same kind of published value with every number doubled."""
    out, number = [], ""
    for ch in text + " ":
        if ch.isdigit() or (ch == "," and number):
            number += ch
            continue
        if number:
            out.append(german(Decimal(number.replace(",", ".")) * 2))
            number = ""
        out.append(ch)
    return "".join(out).rstrip()


def worse_than(rows: list[dict[str, Any]], code: str) -> str:
    """Return a number in the register unit above every number published for `code`."""
    unit, limit, _ = UPPER[code]
    numbers = [limit]
    for r in rows:
        if r["parameter"] == code:
            for part in r["value_text"].replace("<", " ").replace(">", " ").split():
                try:
                    value = Decimal(part.replace(",", "."))
                except ArithmeticError:
                    continue
                numbers.append(value * SCALE.get(unit, 1) / SCALE.get(r["unit"], 1))
    return german(max(numbers) * 2)


def _upper_rows(rows: list[dict[str, Any]]) -> list[int]:
    return [i for i, r in enumerate(rows) if r["parameter"] in UPPER]


@PROPERTY
@given(zone(), st.data())
def test_worse_evidence_never_makes_a_verdict_greener(rows, data):
    """No worse evidence makes a parameter's state or the zone's headline greener.

    Worse: a value or reporting limit raised, or a point, statistic or date with a worse value.
    """
    variants = []
    upper = _upper_rows(rows)
    if upper:
        i = data.draw(st.sampled_from(upper))
        raised_rows = [dict(r) for r in rows]
        raised_rows[i]["value_text"] = raised(rows[i]["value_text"])
        if rows[i]["reporting_limit"]:
            raised_rows[i]["reporting_limit"] = raised(rows[i]["reporting_limit"])
        variants.append(raised_rows)
    code = data.draw(st.sampled_from(sorted({r["parameter"] for r in rows} & set(UPPER)) or [""]))
    if code:
        unit = UPPER[code][0]
        taken = {
            (r["sample_point"], r["sampled_at"], r["statistic"])
            for r in rows
            if r["parameter"] == code
        }
        point = data.draw(st.sampled_from(POINTS))
        statistic = data.draw(st.sampled_from(["sample", "max", "mean", "min"]))
        date = data.draw(st.sampled_from([NEW, NEWER, dt.date(2026, 6, 20)]))
        if (point, date, statistic) not in taken:
            worse = worse_than(rows, code)
            variants.append([*rows, row(code, worse, unit, date, point, statistic)])
    if not variants:
        return
    base, *others = assess_many([rows, *variants])
    for variant, (values, summary) in zip(variants, others, strict=True):
        for code, value in base[0].items():
            if code in UPPER:
                assert _SEVERITY[values[code]["state"]] >= _SEVERITY[value["state"]], (
                    code,
                    value["state"],
                    values[code]["state"],
                    variant,
                )
        assert status_rank(summary) >= status_rank(base[1]), (base[1], summary, variant)


def _crosses(r: dict[str, Any], limit: Decimal) -> bool:
    """Whether one published value proves a crossing of an upper limit (an oracle of its own)."""
    register = UPPER[r["parameter"]][0]
    text = r["value_text"]
    scale = SCALE.get(r["unit"], Decimal(1)) / SCALE.get(register, Decimal(1))
    if text.startswith("> "):
        return Decimal(text[2:].replace(",", ".")) / scale >= limit
    if text.startswith(("<", "n.n.")):
        return False
    top = text.split(" - ")[-1]
    return Decimal(top.replace(",", ".")) / scale > limit


@PROPERTY
@given(zone(tuple(c for c in UPPER if c != "legionella")))
def test_a_compliant_state_rests_on_evidence_that_proves_compliance_at_every_point(rows):
    """A compliant state rests on every standing point complying, none proving a crossing."""
    ((values, _),) = assess_many([rows])
    for code, value in values.items():
        if code not in UPPER or value["state"] not in COMPLIANT:
            continue
        standing = [p for p in value["other_points"] if p["old"] == value["old"]]
        assert all(p["state"] in COMPLIANT for p in standing), (code, value)
        limit = UPPER[code][1]
        # Each standing point's date: a sum computed from members newer than the sum that
        # point published stands for it instead (its published values are then older).
        points = {value["sample_point"]: value["sampled_at"]}
        points |= {p["sample_point"]: p["sampled_at"] for p in standing}
        for point, standing_date in points.items():
            own = [r for r in rows if r["parameter"] == code and r["sample_point"] == point]
            if not own or max(r["sampled_at"] for r in own) != standing_date:
                continue  # the point stands on a computed sum: no published value that day
            newest = standing_date
            assert not any(_crosses(r, limit) for r in own if r["sampled_at"] == newest), (
                code,
                point,
                own,
            )


def _verdicts(values: dict[str, dict[str, Any]]) -> dict[str, tuple]:
    return {
        code: (
            v["state"],
            v["future_state"],
            v["sample_point"],
            v["statistic"],
            sorted(
                (p["sample_point"] or "", p["state"], p["future_state"] or "", p["old"])
                for p in v["other_points"]
            ),
        )
        for code, v in values.items()
    }


@PROPERTY
@given(zone(("pfas_summe_20", "blei")), st.sampled_from(["µg/l", "ng/l", "mg/l"]))
def test_the_same_values_in_another_unit_give_the_same_verdicts(rows, unit):
    def converted(r: dict[str, Any]) -> dict[str, Any]:
        factor = SCALE[unit] / SCALE[r["unit"]]

        def each(text: str | None) -> str | None:
            if text is None or text == "n.n.":
                return text
            parts = []
            for part in text.split(" "):
                try:
                    parts.append(german(Decimal(part.replace(",", ".")) * factor))
                except ArithmeticError:
                    parts.append(part)
            return " ".join(parts)

        return {
            **r,
            "unit": unit,
            "value_text": each(r["value_text"]),
            "reporting_limit": each(r["reporting_limit"]),
        }

    (a, sa), (b, sb) = assess_many([rows, [converted(r) for r in rows]])
    assert _verdicts(a) == _verdicts(b)
    assert (sa["status"], sa["title_de"]) == (sb["status"], sb["title_de"])


MEASUREMENT_COLUMNS = list(COLUMNS)


def _write(data_dir: Path, rows: list[dict[str, Any]], rnd: random.Random) -> None:
    """Write `rows` as the zone's measurements and shuffle the documents, in random order."""
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    cells = [{k: "" if r[k] is None else str(r[k]) for k in MEASUREMENT_COLUMNS} for r in shuffled]
    write_rows(data_dir / "measurements.csv", cells, MEASUREMENT_COLUMNS)
    documents = read_rows(data_dir / "documents.csv")
    rnd.shuffle(documents)
    write_rows(data_dir / "documents.csv", documents)


@settings(PROPERTY, max_examples=max(3, EXAMPLES // 4))
@given(zone(), st.randoms(use_true_random=False))
def test_the_order_of_rows_points_and_documents_changes_no_output(rows, rnd: random.Random):
    """Through the loader, as a build reads the tables: the same current values, summaries."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for copy in ("a", "b"):
            data_dir = Path(tmp) / copy
            shutil.copytree(GOLDEN_INPUT, data_dir)
            _write(data_dir, rows, rnd)
            d = derive.derive(load(data_dir), AS_OF)
            results.append((d.current_values.all(), d.zones))
    (values_a, zones_a), (values_b, zones_b) = results
    assert values_a.equals(values_b)
    assert zones_a.equals(zones_b)
