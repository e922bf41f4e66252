"""5 µg/l of a pesticide metabolite never reads "kein Grenzwert" without saying why.

Every metabolite of the register at 5 µg/l in one zone of the golden input: one with a
sourced guidance value of the Umweltbundesamt is compared with it; a non-relevant one
without a sourced value is shown without a verdict and with a note saying what it is; one
whose relevance is open says that. The codes come from `generator/reference/pesticides.csv`,
so a metabolite added without a note fails here.
"""

from __future__ import annotations

import csv
import shutil

import pytest

from generator import derive, load
from generator.load import reference_dir
from tests.helpers import AS_OF, GOLDEN_INPUT, append

ZONE = 13


def decisions() -> dict[str, str]:
    with (reference_dir() / "pesticides.csv").open(encoding="utf-8", newline="") as fh:
        return {row["code"]: row["decision"] for row in csv.DictReader(fh)}


METABOLITES = {
    code: decision
    for code, decision in decisions().items()
    if decision in ("non_relevant_metabolite", "non_relevant_metabolite_gow", "unclear")
}


@pytest.fixture(scope="module")
def at_five(tmp_path_factory) -> dict[str, dict]:
    """Derive the golden input with every such metabolite at 5 µg/l in zone 13."""
    data = tmp_path_factory.mktemp("metabolites") / "data"
    shutil.copytree(GOLDEN_INPUT, data)
    for code in METABOLITES:
        append(
            data,
            "measurements",
            zone_id=str(ZONE),
            parameter=code,
            sampled_at="2026-06-01",
            value_text="5",
            unit="µg/l",
            document_id="wk-2026",
            sample_point="Hochbehälter Süd",
        )
    d = derive.derive(load.load(data), AS_OF)
    rows = d.current_values.all().filter(zone_id=ZONE).to_dicts()
    return {r["parameter"]: r for r in rows if r["parameter"] in METABOLITES}


def test_every_metabolite_of_the_register_is_covered(at_five):
    assert set(at_five) == set(METABOLITES)
    kinds = set(METABOLITES.values())
    assert kinds == {"non_relevant_metabolite", "non_relevant_metabolite_gow", "unclear"}


@pytest.mark.parametrize(
    "code", sorted(c for c, d in METABOLITES.items() if d == "non_relevant_metabolite")
)
def test_a_non_relevant_metabolite_without_a_sourced_value_says_what_it_is(at_five, code):
    v = at_five[code]
    assert (v["state"], v["limit"]) == ("no_limit", None)
    assert v["note_de"].startswith("Nicht relevanter Metabolit")
    assert "kein gesetzlicher Grenzwert" in v["note_de"]


@pytest.mark.parametrize("code", sorted(c for c, d in METABOLITES.items() if d == "unclear"))
def test_a_metabolite_of_open_relevance_says_so(at_five, code):
    v = at_five[code]
    assert v["limit"] is None
    assert v["note_de"].startswith("Ob dieser Abbaustoff für Trinkwasser als relevant gilt")


@pytest.mark.parametrize(
    "code", sorted(c for c, d in METABOLITES.items() if d == "non_relevant_metabolite_gow")
)
def test_a_sourced_guidance_value_is_compared_and_named(at_five, code):
    v = at_five[code]
    assert v["limit"]["kind"] == "orientierungswert"
    assert "Umweltbundesamt" in v["limit"]["legal_basis"]
    assert v["limit"]["value"] < 5
    assert v["state"] == "exceeds_guidance"
    assert v["note_de"].startswith("Nicht relevanter Metabolit")
