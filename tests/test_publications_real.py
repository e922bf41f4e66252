"""Real publications: the alias register cites them, and unseen ones are mapped right."""

from __future__ import annotations

import csv
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from generator.publications.aliases import default_index, packaged_aliases, source_addresses
from generator.publications.match import MATCHED, match_one
from tests.publications_real import BUILD, HELD_OUT, UNSEEN_2026_12, pairs

INDEX = default_index()
ORDINANCE = ("gesetze.digital", "www.gesetze-im-internet.de")
# Pages of suppliers outside Germany (Austria, Switzerland): cited, but not German suppliers.
ABROAD = (".at", ".ch")


def _outcome(name: str, unit: str) -> str:
    m = match_one(name, unit, INDEX)
    return m.code if m.status == MATCHED else ""


def _rates(corpus: dict[str, str]) -> tuple[int, int, int, list[str]]:
    """(pairs a person maps with certainty, mapped right, mapped wrong, the wrong ones)."""
    certain = right = wrong = 0
    errors = []
    for url, name, unit, expected in pairs(corpus):
        got = _outcome(name, unit)
        if expected in ("?", "-"):
            # Uncertain or no register parameter: any code is wrong.
            if got:
                wrong += 1
                errors.append(f"{url}: {name!r} {unit!r} -> {got}, expected {expected}")
            continue
        certain += 1
        if got == expected:
            right += 1
        elif got:
            wrong += 1
            errors.append(f"{url}: {name!r} {unit!r} -> {got}, expected {expected}")
    return certain, right, wrong, errors


def _sources() -> list[str]:
    """Every address the register's `source` column lists (a cell may list several)."""
    with packaged_aliases().open(encoding="utf-8", newline="") as fh:
        return [a for row in csv.DictReader(fh) for a in source_addresses(row["source"])]


def _hosts(addresses) -> set[str]:
    return {str(urlsplit(u).hostname) for u in addresses}


def test_the_register_cites_the_publications_it_was_built_from():
    cited = set(_sources())
    suppliers = _hosts(cited) - set(ORDINANCE)
    assert cited <= set(BUILD) | {u for u in cited if urlsplit(u).hostname in ORDINANCE}
    # Every page the register was built from is cited, by its own address.
    assert cited >= set(BUILD)
    assert suppliers == _hosts(BUILD)
    # No spelling was learnt from the held-out publications.
    assert not cited & set(HELD_OUT)
    assert not suppliers & _hosts(HELD_OUT)


def test_the_pages_set_aside_for_issue_53_are_cited_by_no_alias_and_seen_nowhere_else():
    cited = set(_sources())
    assert not cited & set(UNSEEN_2026_12)
    assert not _hosts(cited) & _hosts(UNSEEN_2026_12)
    assert not _hosts(UNSEEN_2026_12) & (_hosts(BUILD) | _hosts(HELD_OUT))
    assert len(_hosts(UNSEEN_2026_12)) == len(UNSEEN_2026_12) >= 6


def test_how_many_suppliers_the_register_was_built_from():
    # One page per supplier: as many suppliers as hosts.
    assert len(_hosts(BUILD)) == len(BUILD) >= 30
    german = {h for h in _hosts(BUILD) if not h.endswith(ABROAD)}
    assert len(german) >= 27
    assert len(_hosts(HELD_OUT)) == len(HELD_OUT) >= 13


def test_the_built_from_publications_map_right_and_never_wrong():
    certain, right, wrong, errors = _rates(BUILD)
    assert wrong == 0, errors
    assert right / certain >= 0.99


def test_unseen_publications_at_least_95_percent_right_and_at_most_1_percent_wrong():
    certain, right, wrong, errors = _rates(HELD_OUT)
    assert certain >= 230 and len(HELD_OUT) >= 13
    assert right / certain >= 0.95, f"{right} of {certain} right"
    assert wrong / certain <= 0.01, errors


def test_tables_found_after_issue_53_at_least_95_percent_right_and_at_most_1_percent_wrong():
    certain, right, wrong, errors = _rates(UNSEEN_2026_12)
    assert certain >= 80 and len(UNSEEN_2026_12) >= 6
    assert right / certain >= 0.95, f"{right} of {certain} right"
    assert wrong / certain <= 0.01, errors


@pytest.mark.parametrize(
    ("name", "unit", "code"),
    [
        # Each rule of docs/import.md, with the real example it is documented with.
        ("Tetrachlorethen u. Trichlorethen", "mg/l", "tetrachlorethen_trichlorethen"),
        ("Trichlorethen und Tetrachlorethen –- Summe", "mg/l", "tetrachlorethen_trichlorethen"),
        ("Trihalogenmethane, Summe", "µg/l", "thm"),
        ("pH-Wert bei 20 °C", "", "ph_wert"),
        ("Freie Kohlensäure bei 10,9°C", "mg/l", "freie_kohlensaeure"),
        ("pH-Wert (elektrometrisch)", "", "ph_wert"),
        ("Sauerstoff (elektrochem.)", "mg/l", "sauerstoff"),
        ("Trübung, quantitativ", "NTU", "truebung"),
        ("TOC (organisch gebundener Kohlenstoff)", "mg/l", "toc"),
        ("Säurekapazität (m-Wert)", "mmol/l", "saeurekapazitaet_ks43"),
        ("Kolonienzahl bei 22°", "/ml", "koloniezahl_22"),
        ("elektrische Leitfähigkeit bei 25oC", "µS/cm", "elektrische_leitfaehigkeit"),
        ("Säurekapazität bis pH-Wert 4,3", "mmol/l", "saeurekapazitaet_ks43"),
        ("Amonium/NH 4 in mg/l", "", "ammonium"),
        ("Escherichia coli", "Z/100ml", "e_coli"),
        ("Gesamthärte (dH°)", "°dH", "gesamthaerte"),
        ("Geruch", "qualitativ", "geruch"),
        ("Gesamthärte ber. als Calciumcarbonat", "mmol/l", "gesamthaerte"),
        ("Wasserhärte als Calciumcarbonat", "mmol/l", "gesamthaerte"),
        ("Nitrat", "Milligramm pro Liter", "nitrat"),
        ("E.coli", "1/100ml", "e_coli"),
        ("Escherichia-Coli (100 ml)", "", "e_coli"),
    ],
)
def test_the_rules_with_their_examples(name, unit, code):
    assert _outcome(name, unit) == code


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        # What the rules must not do: a temperature that is part of the parameter, a sum
        # word beside a single substance, an explanation that names another parameter.
        ("Leitfähigkeit bei 20 °C", "µS/cm"),
        ("Koloniezahl bei 20°C", "KBE/ml"),
        ("Summe Nitrat", "mg/l"),
        ("Summe Erdalkalien (Gesamthärte)", "mmol/l"),
        ("Trübung, qualitativ", "NTU"),
        ("Säurekapazität bis pH 8,2 bei 10,5°C", "mmol/l"),
        # Hardness as calcium carbonate is hardness only in mmol/l; no other parameter is
        # given as calcium carbonate.
        ("Gesamthärte als CaCO3", "mg/l"),
        ("Calcium als CaCO3", "mg/l"),
        ("Magnesium ber. als Calciumcarbonat", "mmol/l"),
    ],
)
def test_what_the_rules_never_map(name, unit):
    assert _outcome(name, unit) == ""


def test_the_figures_of_the_import_doc_are_the_ones_measured():
    doc = Path(__file__).parents[1] / "docs" / "import.md"
    text = " ".join(doc.read_text(encoding="utf-8").split())
    german = {h for h in _hosts(BUILD) if not h.endswith(ABROAD)}
    b_certain, b_right, b_wrong, _ = _rates(BUILD)
    h_certain, h_right, h_wrong, _ = _rates(HELD_OUT)
    assert b_wrong == h_wrong == 0
    assert f"the pages of {len(BUILD)} suppliers ({len(german)} German" in text
    assert (
        f"of their {b_certain} name/unit pairs a person can map with certainty, {b_right} are "
        "mapped right and none wrong"
    ) in text
    assert f"The pages of {len(HELD_OUT)} further suppliers were set aside" in text
    share = f"{100 * h_right / h_certain:.1f}"
    assert (
        f"of the {h_certain} pairs a person can map with certainty, {h_right} ({share} %) are "
        "mapped right and none wrong"
    ) in text
    u_certain, u_right, u_wrong, _ = _rates(UNSEEN_2026_12)
    assert u_wrong == 0
    assert f"their {len(pairs(UNSEEN_2026_12))} name/unit pairs were set aside" in text
    assert f"Of their {u_certain} pairs a person can map with certainty" in text
    u_share = f"{100 * u_right / u_certain:.0f}"
    assert f"after them {u_right} ({u_share} %) are mapped right and none wrong" in text
    with packaged_aliases().open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    cited = sum(1 for row in rows if row["source"])
    assert f"{cited} of the {len(rows)} rows cite at least one page" in text
    readme = Path(__file__).parents[1] / "generator" / "reference" / "README.md"
    assert f"| `aliases.csv` | {len(rows)} |" in readme.read_text(encoding="utf-8")
