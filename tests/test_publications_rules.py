"""The generalising rules of the matcher (issue 53).

Each rule with its examples and what it must never do, and properties over every real
publication of tests/publications_real.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.publications import names
from generator.publications.aliases import default_index
from generator.publications.match import MATCHED, match_one
from generator.values import units
from tests.publications_real import BUILD, HELD_OUT, UNSEEN_2026_12, pairs

INDEX = default_index()
REAL = pairs(BUILD) + pairs(HELD_OUT) + pairs(UNSEEN_2026_12)


def _code(name: str, unit: str) -> str:
    m = match_one(name, unit, INDEX)
    return m.code if m.status == MATCHED else ""


def _status(name: str, unit: str) -> str:
    return match_one(name, unit, INDEX).status


# ---------------------------------------------------------------- each rule, with examples


@pytest.mark.parametrize(
    ("name", "unit", "code"),
    [
        # A bracket that spells out an abbreviation, or names the reference substance.
        ("TOC (gesamter organischer Kohlenstoff)", "mg/l", "toc"),
        ("Oxidierbarkeit (als O2)", "mg/l O2", "oxidierbarkeit"),
        ("Nitrat (NO3)", "mg/l", "nitrat"),
        ("Färbung (SAK 436 nm)", "m-1", "faerbung"),
        ("SAK 436 nm (Färbung, quant.)", "m-1", "faerbung"),
        # A bracket or word naming the method: the quantity is the same.
        ("Arsen (ICP-MS)", "mg/l", "arsen"),
        ("Blei (ICP-OES)", "mg/l", "blei"),
        ("Sulfat (IC)", "mg/l", "sulfat"),
        ("Nitrat (DIN EN ISO 10304-1)", "mg/l", "nitrat"),
        ("Sauerstoff, iodometr.", "mg/l", "sauerstoff"),
        ("Eisen, photometrisch", "mg/l", "eisen"),
        ("Koloniezahl (G.-Agar) 22°C", "1/ml", "koloniezahl_22"),
        ("Geschmack organoleptisch (vor Ort)", "", "geschmack"),
        ("Geruch (sensorisch)", "", "geruch"),
        # A law or standard the value is given by.
        ("Härtebereich (nach Deutschem Waschmittelgesetz)", "", "haertebereich"),
        ("Härtebereich gemäß WRMG", "", "haertebereich"),
        # A bracket that abbreviates the name before it.
        ("Wassertemperatur (WT) vor Ort", "°C", "temperatur"),
        ("Leitfähigkeit (LF)", "µS/cm", "elektrische_leitfaehigkeit"),
        # Where the sample was taken.
        ("Calcium (Netzprobe)", "mg/l", "calcium"),
        ("Trübung am Zapfhahn", "NTU", "truebung"),
        ("Eisen (Reinwasser)", "mg/l", "eisen"),
        ("Mangan, Ausgang Wasserwerk", "mg/l", "mangan"),
        ("Nitrit (Netzprobe)", "mg/l", "nitrit"),
        ("Nitrit (Ausgang Wasserwerk)", "mg/l", "nitrit_wasserwerksausgang"),
        ("Nitrit, Wasserwerksausgang", "mg/l", "nitrit_wasserwerksausgang"),
        ("pH-Wert (vor Ort)", "", "ph_wert"),
        ("pH-Wert (Labor)", "", "ph_wert"),
        # The names chemistry gives the same substance or quantity.
        ("Tetrachlorethylen und Trichlorethylen", "µg/l", "tetrachlorethen_trichlorethen"),
        ("Summe Perchlorethylen und Trichlorethylen", "µg/l", "tetrachlorethen_trichlorethen"),
        ("Chloroform (Trichlormethan)", "µg/l", "trichlormethan"),
        ("Kohlenstoffdioxid, gelöst", "mg/l", "freie_kohlensaeure"),
        ("Permanganatindex", "mg/l O2", "oxidierbarkeit"),
        ("Elektrolytische Leitfähigkeit bei 25 °C", "µS/cm", "elektrische_leitfaehigkeit"),
        ("Kalzium (Ca)", "mg/l", "calcium"),
        # A unit with the substance a mass is counted as, where it is the register's own.
        ("Nitrat", "mg/l NO3", "nitrat"),
        ("Nitrat", "mg/l als NO3", "nitrat"),
        ("Ammonium", "mg/l NH4", "ammonium"),
        ("Eisen", "mg/l Fe", "eisen"),
        ("Silikat", "mg/l SiO2", "silikat"),
        ("Oxidierbarkeit", "mg O2/l", "oxidierbarkeit"),
        ("Calcitlösekapazität", "mg/l CaCO3", "calcitloesekapazitaet"),
        # A bracket naming the substance a value is given as, the parameter's own.
        ("Gesamthärte (CaCO3)", "mmol/l", "gesamthaerte"),
        ("Oxidierbarkeit (O2)", "mg/l O2", "oxidierbarkeit"),
        ("Calcitlösekapazität (CaCO3)", "mg/l", "calcitloesekapazitaet"),
        # Unit spellings.
        ("pH-Wert", "pH – Einheiten", "ph_wert"),
        ("Gesamthärte", "° deutscher Härte", "gesamthaerte"),
        ("Koloniezahl bei 36 °C", "1/ml", "koloniezahl_36"),
    ],
)
def test_each_rule_with_its_examples(name, unit, code):
    assert _code(name, unit) == code


@pytest.mark.parametrize(
    ("name", "unit", "status"),
    [
        # The temperature in the laboratory is the sample's there, not the water's.
        ("Temperatur (Labor)", "°C", "different_quantity"),
        ("Wassertemperatur (Labor)", "°C", "different_quantity"),
        # The register holds nitrite at the tap and at the works outlet: water taken in the
        # works is neither for certain, nor is a works-outlet code's sample from the network.
        ("Nitrit (Reinwasser)", "mg/l", "ambiguous"),
        ("Nitrit im Wasserwerk", "mg/l", "ambiguous"),
        ("Nitrit am Ausgang des Wasserwerks (Netzprobe)", "mg/l", "ambiguous"),
        ("Nitrit (Netzprobe, Ausgang Wasserwerk)", "mg/l", "ambiguous"),
        # Chlorate at the works outlet: the register's outlet code is a reference value.
        ("Chlorat (Ausgang Wasserwerk)", "µg/l", "ambiguous"),
        # Another substance counted: nitrogen is not nitrate, permanganate not oxygen.
        ("Nitrat", "mg/l N", "different_quantity"),
        ("Nitrat", "mg N/l", "different_quantity"),
        ("Ammonium", "mg/l N", "different_quantity"),
        ("Phosphat", "mg/l P", "different_quantity"),
        ("Eisen", "mg/l Mn", "different_quantity"),
        ("Oxidierbarkeit", "mg/l KMnO4", "different_quantity"),
        ("Nitrat (N)", "mg/l", "different_quantity"),
        ("Calcium (CaCO3)", "mg/l", "different_quantity"),
        ("Nitrat (O2)", "mg/l", "ambiguous"),
        # Hardness as calcium carbonate is hardness in mmol/l; in mg/l nothing converts it.
        ("Gesamthärte (CaCO3)", "mg/l", "unit_error"),
        # Permanganate consumption is not the permanganate index (mg/l KMnO4, not O2).
        ("KMnO4-Verbrauch", "mg/l", "not_in_register"),
        # A method marker does not make another temperature or a qualitative finding one.
        ("Leitfähigkeit bei 20°C (Labor)", "µS/cm", "not_in_register"),
        ("Trübung, qualitativ (visuell)", "", "not_in_register"),
        ("Koloniezahl bei 20 °C (Netzprobe)", "KBE/ml", "not_in_register"),
        # A hardness range in degrees is the hardness, not the range: no unit fits.
        ("Härtebereich", "° deutscher Härte", "unit_error"),
    ],
)
def test_what_the_rules_never_map(name, unit, status):
    assert _status(name, unit) == status
    assert _code(name, unit) == ""


def test_a_bracket_abbreviates_only_the_words_before_it():
    assert names.without_acronym("Wassertemperatur (WT) vor Ort") == "Wassertemperatur vor Ort"
    assert names.without_acronym("Pflanzenschutzmittel (PSM)") == "Pflanzenschutzmittel"
    assert names.without_acronym("Leitfähigkeit (LF) bei 25 °C") == "Leitfähigkeit bei 25 °C"
    # Not the initials of the name, a formula or a mixed-case word: left alone.
    assert names.without_acronym("Trübung (FNU)") is None
    assert names.without_acronym("Koloniezahl (KBE)") is None
    assert names.without_acronym("Nickel (Ni)") is None
    assert names.without_acronym("Nitrat") is None


def test_a_synonym_is_a_whole_word_and_keeps_the_brackets_around_it():
    assert names.with_synonyms("(Tetrachlorethylen)") == "(Tetrachlorethen)"
    assert names.with_synonyms("Chloroform/Bromoform") == "Trichlormethan/Tribrommethan"
    # A word that merely contains a synonym is not that synonym.
    assert names.with_synonyms("Chloroformiat") == "Chloroformiat"


def test_a_unit_names_its_substance_and_is_split_only_when_unknown_as_a_whole():
    assert units.split_substance("mg/l NO3") == ("mg/l", "NO3")
    assert units.split_substance("mg N/l") == ("mg/l", "N")
    assert units.split_substance("ug/l als Fe") == ("µg/l", "Fe")
    # Units of their own: the register gives oxidisability as mg/l O2, calcite as CaCO3.
    assert units.split_substance("mg/l O2") is None
    assert units.split_substance("mg/l CaCO3") is None
    assert units.split_substance("mg/l") is None


# ---------------------------------------------------------------- properties over real names

MAPPED = sorted({(n, u, c) for _, n, u, c in REAL if c not in ("?", "-") and _code(n, u) == c})
NOT_CERTAIN = sorted({(n, u) for _, n, u, c in REAL if c in ("?", "-")})
PLACES = sorted(names.SAMPLING_MARKERS)
METHODS = ("ICP-MS", "photometrisch", "DIN EN ISO 10304-1", "G.-Agar", "iodometr.")
_HAS_OUTLET = {
    c.split("_referenzwert")[0].removesuffix("_wasserwerksausgang")
    for c in INDEX.parameters["code"].to_list()
    if c.endswith("_wasserwerksausgang")
}


def _with(name: str, word: str, form: int) -> str:
    """Return the name with a marker word added the ways suppliers add one."""
    return (f"{name} ({word})", f"{name}, {word}", f"{name} [{word}]")[form]


def test_the_properties_run_over_many_real_names():
    assert len(MAPPED) >= 350 and len(NOT_CERTAIN) >= 50


@settings(max_examples=300)
@given(st.sampled_from(MAPPED), st.sampled_from(PLACES), st.integers(0, 2))
def test_a_sampling_place_never_changes_the_mapping_of_a_name_that_was_mapped(row, place, form):
    name, unit, code = row
    got = _code(_with(name, place, form), unit)
    kind = names.SAMPLING_MARKERS[place]
    if code in _HAS_OUTLET and kind != "network":
        # The register holds the parameter at the tap and at the works outlet as well:
        # only the outlet's own words name the outlet's code, nothing else is guessed.
        assert got in ("", f"{code}_wasserwerksausgang")
    elif code.endswith("_wasserwerksausgang") and kind != "outlet":
        assert got == ""
    else:
        assert got == code, (name, unit, place)


@settings(max_examples=300)
@given(st.sampled_from(MAPPED), st.sampled_from(METHODS), st.integers(0, 2))
def test_a_method_never_changes_the_mapping_of_a_name_that_was_mapped(row, method, form):
    name, unit, code = row
    assert _code(_with(name, method, form), unit) == code, (name, unit, method)


@settings(max_examples=300)
@given(
    st.sampled_from(NOT_CERTAIN),
    st.sampled_from(PLACES + list(METHODS) + list(names.LAB_MARKERS)),
    st.integers(0, 2),
)
def test_a_rule_never_maps_a_name_a_person_marks_uncertain_or_no_parameter(row, word, form):
    name, unit = row
    assert _code(name, unit) == ""
    assert _code(_with(name, word, form), unit) == "", (name, unit, word)
    assert _code(names.with_synonyms(names.expand_abbreviations(name)), unit) == ""


@pytest.mark.parametrize(("synonym", "word"), sorted(names.SYNONYMS.items()))
def test_a_synonym_maps_where_the_registers_word_maps(synonym, word):
    """Every synonym, put for the register's word in a name the register knows, maps alike."""
    register_names = [
        (str(n), str(u or ""), str(c))
        for c, n, u in INDEX.parameters.select("code", "name_de", "unit").iter_rows()
    ]
    uses = [(n, u, c) for n, u, c in register_names if word.casefold() in n.casefold().split()]
    for name, unit, code in uses:
        written = " ".join(synonym if w.casefold() == word.casefold() else w for w in name.split())
        assert _code(written, unit) == code, (written, unit)


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("Sauerstoff, iodometr.", "Sauerstoff"),
        ("Eisen (photometrisch)", "Eisen"),
        ("Nitrat (DIN EN ISO 10304-1)", "Nitrat"),
        ("Koloniezahl (Hefeextrakt-Agar) 36 °C", "Koloniezahl 36 °C"),
        ("Härtebereich (nach Wasch- und Reinigungsmittelgesetz)", "Härtebereich"),
        # A standard is a standard with its number; a word that merely starts like one, or
        # a bracket that is no method, stays part of the name.
        ("Desethylatrazin (Iso-Metabolit)", "Desethylatrazin (Iso-Metabolit)"),
        ("Summe PFAS (EN)", "Summe PFAS (EN)"),
    ],
)
def test_method_and_rule_markers_by_their_form(name, base):
    assert names.parse(name).base == base
