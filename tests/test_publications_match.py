"""The matcher: published names and units to register codes, and nothing it is not sure of."""

from __future__ import annotations

import csv

import polars as pl
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.publications import names
from generator.publications.aliases import (
    AliasError,
    build_index,
    default_index,
    packaged_aliases,
    read_aliases,
    source_addresses,
)
from generator.publications.match import MATCH_COLUMNS, match_one
from generator.values import units
from tests.publications_corpus import expectations

INDEX = default_index()
REGISTER = INDEX.parameters


def _outcome(name: str, unit: str) -> str:
    m = match_one(name, unit, INDEX)
    if m.status != "matched":
        assert m.code == "" or m.status == "unit_error", (name, m)
        return "!" + m.status
    return m.code + (f":{m.statistic}" if m.statistic != "sample" else "")


CORPUS = sorted(expectations().items())


def test_the_corpus_has_at_least_150_distinct_published_names():
    assert len({name for (name, _unit), _ in CORPUS}) >= 150


@pytest.mark.parametrize(("pair", "expected"), CORPUS, ids=[f"{n}|{u}" for (n, u), _ in CORPUS])
def test_every_name_of_the_supplier_tables(pair, expected):
    assert _outcome(*pair) == expected


# Names that look like a register parameter but are not it, next to the near code that
# would be wrong; and spellings of every kind of marker. (name, unit, expected outcome)
CASES = [
    ("Säurekapazität bis pH 8,2", "mmol/l", "!not_in_register"),  # near: saeurekapazitaet_ks43
    ("KS 8,2", "mmol/l", "!not_in_register"),
    ("Basekapazität bis pH 4,3", "mmol/l", "!not_in_register"),  # near: basekapazitaet_kb82
    ("Ionenbilanzfehler", "%", "!not_in_register"),
    ("Summe Kationen", "mmol/l", "!not_in_register"),
    ("Ionenstärke", "mol/l", "!not_in_register"),
    ("Pufferkapazität", "mmol/l", "!not_in_register"),
    ("Korrosionsquotienten", "", "!not_in_register"),
    ("Aussehen (qualitativ)", "", "!not_in_register"),
    ("Färbung (visuell)", "", "!not_in_register"),  # near: faerbung (SAK 436)
    ("Trübung qualitativ", "", "!not_in_register"),  # near: truebung
    ("Geruchsschwellenwert (TON)", "", "!not_in_register"),  # near: geruch
    ("Koloniezahl bei 20 °C", "KBE/ml", "!not_in_register"),  # near: koloniezahl_22
    ("Koloniezahl 37 °C", "KBE/ml", "!not_in_register"),  # near: koloniezahl_36
    ("Koloniezahl", "KBE/ml", "!no_match"),  # which temperature?
    ("Legionella pneumophila", "KBE/100 ml", "!not_in_register"),  # near: legionella
    ("Fäkalstreptokokken", "KBE/100 ml", "!not_in_register"),  # near: enterokokken
    ("Chrom (III)", "µg/l", "!not_in_register"),  # near: chrom, chrom_vi
    ("Eisen(II)", "mg/l", "!not_in_register"),  # near: eisen
    ("Mangan gelöst", "mg/l", "!different_quantity"),
    ("Kupfer (filtriert)", "mg/l", "!different_quantity"),
    ("Phosphat gesamt", "mg/l", "!not_in_register"),  # near: phosphat (ortho)
    ("Phosphor gesamt", "mg/l", "!not_in_register"),
    ("Gesamtstickstoff", "mg/l", "!not_in_register"),
    ("Nitrat (als N)", "mg/l", "!different_quantity"),  # near: nitrat (as NO3)
    ("Nitrit-N", "mg/l", "!different_quantity"),
    ("Ammonium-N", "mg/l", "!different_quantity"),
    ("Silizium", "mg/l", "!not_in_register"),  # near: silikat (as SiO2)
    ("Kaliumpermanganatverbrauch", "mg/l", "!not_in_register"),  # near: oxidierbarkeit (O2)
    ("Cyanid (leicht freisetzbar)", "mg/l", "!not_in_register"),  # near: cyanid (total)
    ("1,2-Dichlorethen", "µg/l", "!not_in_register"),  # near: cis-/trans-
    ("m-/p-Xylol", "µg/l", "!not_in_register"),
    ("BTEX", "µg/l", "!not_in_register"),
    ("HAA-9", "µg/l", "!not_in_register"),  # near: haa5
    ("Summe PAK (EPA)", "µg/l", "!not_in_register"),  # near: pak (four PAH)
    ("PFAS", "µg/l", "!not_in_register"),  # near: pfas_summe_20, pfas_summe_4
    ("Summe der PFAS", "µg/l", "!not_in_register"),
    ("Chlor", "mg/l", "!not_in_register"),  # free or total?
    ("Microcystine", "µg/l", "!not_in_register"),  # near: microcystin_lr
    ("Chlorthalonil-Metabolit R471811", "µg/l", "!not_in_register"),  # near: R417888
    ("Gesamthärte (Summe Erdalkalien)", "mmol/l", "!not_in_register"),
    ("Elektrische Leitfähigkeit bei 20 °C", "µS/cm", "!not_in_register"),
    ("Sauerstoffsättigung", "%", "!not_in_register"),  # near: sauerstoff
    ("Pflanzenschutzmittel", "µg/l", "!not_in_register"),  # near: pestizide_gesamt
    ("Chlorit (ClO2)", "µg/l", "!ambiguous"),  # ClO2 is chlorine dioxide; chlorite is ClO2-
    ("Kalium (Na+)", "mg/l", "!ambiguous"),
    ("Nitrat Mittelwert Maximum", "mg/l", "!ambiguous"),
    ("Nitrat [mg/l]", "µg/l", "!unit_error"),  # the name and the unit column disagree
    ("Nitrat 90-Perzentil", "mg/l", "!unsupported_statistic"),
    ("Nitrat (Median)", "mg/l", "!unsupported_statistic"),
    ("Uran", "Bq/l", "!unit_error"),  # uranium (mass) is µg/l; Uran-238 is Bq/l
    ("Nitrat", "mg/l C", "!unit_error"),  # mg of carbon per litre only for DOC and TOC
    ("Temperatur", "mg/l", "!unit_error"),
    ("Nitrat", "kg/m3", "!unit_error"),  # unknown spelling
    ("Nitrat", "", "!unit_error"),  # no unit where the parameter has one
    ("Nikel", "µg/l", "!no_match"),
    ("Zyanid", "mg/l", "!no_match"),
    # markers around names that are sure
    ("NICKEL (NI)", "UG/L", "nickel"),
    ("Sulfat (SO₄²⁻)", "mg/l", "sulfat"),
    ("Sulfat SO4--", "mg/l", "sulfat"),
    ("Sulphat", "mg/l", "sulfat"),
    ("SO4", "mg/l", "sulfat"),
    ("Mangan [mg/l]", "", "mangan"),
    ("Mangan (mg/l)", "mg/l", "mangan"),
    ("Nitrat in mg/l", "", "nitrat"),
    ("Quecksilber [Bestimmungsgrenze 0,0001]", "mg/l", "quecksilber"),
    ("Quecksilber BG 0,0001 mg/l", "", "quecksilber"),
    ("Blei (NG 1 µg/l)", "µg/l", "blei"),
    ("Nitrat (Mittelwert)", "mg/l", "nitrat:mean"),
    ("Nitrat, Durchschnitt", "mg/l", "nitrat:mean"),
    ("Nitrat Ø", "mg/l", "nitrat:mean"),
    ("Nitrat Min.", "mg/l", "nitrat:min"),
    ("Nitrat (Minimalwert)", "mg/l", "nitrat:min"),
    ("Nitrat Maximum", "mg/l", "nitrat:max"),
    ("Nitrat, Max.", "mg/l", "nitrat:max"),
    ("Nitrat (Maximalwert) [mg/l]", "", "nitrat:max"),
    ("pH-Wert vor Ort", "", "ph_wert"),
    ("Wassertemperatur (Vor-Ort-Messung)", "°C", "temperatur"),
    ("Wassertemperatur (vor Ort)", "° C", "temperatur"),
    # The temperature in the laboratory is the sample's there, not the water's (a
    # Prüfbericht prints both: 11,9 °C in the laboratory, 6,9 °C at the tap).
    ("Temperatur (Labor)", "ºC", "!different_quantity"),
    ("pH-Wert (Labor)", "", "ph_wert"),
    ("Eisen gesamt", "mg/l", "eisen"),
    ("Eisen, ges.", "mg/l", "eisen"),
    ("Mangan (gesamt)", "mg/l", "mangan"),
    ("Cyanid gesamt", "µg/l", "cyanid"),
    ("Nitrat (NO3) 1)", "mg/l", "nitrat"),
    ("Nitrat*", "mg/l", "nitrat"),
    ("Leitfähigkeit", "µS/cm bei 25°C", "elektrische_leitfaehigkeit"),
    ("Koloniezahl bei 22°C", "KBE / 1 ml", "koloniezahl_22"),
    ("KBE 36 °C", "Anzahl/ml", "koloniezahl_36"),
    ("Clostridium perfringens", "KBE/100 ml", "clostridium_perfringens"),
    ("Escherichia coli", "cfu/100 ml", "e_coli"),
    ("Somatische Coliphagen", "PFU/100 ml", "somatische_coliphagen"),
    ("Gesamthärte", "°d", "gesamthaerte"),
    ("Gesamthärte", "Grad dH", "gesamthaerte"),
    ("Gesamthärte", "mmol/l", "gesamthaerte"),
    ("Karbonathärte", "dKH", "karbonathaerte"),
    ("DOC", "mg/l C", "doc"),
    ("TOC", "mgC/l", "toc"),
    ("SAK 254", "m-1", "spektraler_absorptionskoeffizient_254nm"),
    ("SAK 436 nm", "cm⁻¹", "faerbung"),
    ("Trübung", "FNE", "truebung"),
    ("Summe PFAS-20", "µg/l Σ", "pfas_summe_20"),
    ("PFAS-4 (Summe)", "∑ ng/l", "pfas_summe_4"),
    ("Benzo[a]pyren", "ng/l", "benzo_a_pyren"),
    ("Benz(a)pyren", "µg/l", "benzo_a_pyren"),
    ("Chrom (VI)", "µg/l", "chrom_vi"),
    ("Chrom-VI", "mg/l", "chrom_vi"),
    ("GESAMTHAERTE", "°DH", "gesamthaerte"),
    ("Kalzium", "mg/l", "calcium"),
    ("Molybdaen", "µg/l", "molybdaen"),
    ("Trübung", "NTU", "truebung"),
    ("Radon", "Bq/l", "radon_222"),
    ("Uran", "mg/l", "uran"),
    ("Uran-238", "Bq/l", "uran_238"),
    ("Richtdosis", "µSv/a", "richtdosis"),
    (
        "Escherichia coli (E. coli), Trinkwasser in verschlossenen Behältnissen",
        "KBE/250 ml",
        "e_coli_behaeltnisse",
    ),
]


@pytest.mark.parametrize(("name", "unit", "expected"), CASES, ids=[f"{n}|{u}" for n, u, _ in CASES])
def test_names_that_must_and_must_not_match(name, unit, expected):
    assert _outcome(name, unit) == expected


def test_every_alias_row_means_what_it_says():
    """Each spelling of the alias file, matched with its register unit, gives its own code."""
    for number, row in read_aliases(packaged_aliases()):
        code = row["code"]
        unit = INDEX.unit(code) if code else ""
        m = match_one(row["alias"], unit, INDEX)
        assert (m.code, m.status) == (code, "matched" if code else "not_in_register"), number
        if not code:
            assert m.reason == row["note"]


def test_the_register_stays_at_282_and_aliases_name_only_its_codes():
    assert REGISTER.height == 282
    codes = set(REGISTER["code"])
    for _, row in read_aliases(packaged_aliases()):
        assert not row["code"] or row["code"] in codes
        assert row["code"] or row["note"]


def test_a_key_with_two_meanings_is_refused(tmp_path):
    rows = [(1, {"alias": "Härte", "code": "gesamthaerte", "note": ""})]
    rows.append((2, {"alias": "HAERTE", "code": "karbonathaerte", "note": ""}))
    with pytest.raises(AliasError, match=r"row 2: 'HAERTE' means karbonathaerte.*row 1"):
        build_index(REGISTER, rows)
    with pytest.raises(AliasError, match="row 1: code 'blei_neu' is not in the register"):
        build_index(REGISTER, [(1, {"alias": "Blei neu", "code": "blei_neu", "note": ""})])
    with pytest.raises(AliasError, match="needs a note"):
        build_index(REGISTER, [(1, {"alias": "Härte", "code": "", "note": ""})])
    with pytest.raises(AliasError, match="'Stadtwerke' is not an address"):
        row = {"alias": "Härte", "code": "gesamthaerte", "note": "", "source": "Stadtwerke"}
        build_index(REGISTER, [(1, row)])
    # Several addresses, separated by spaces: every one must be an address.
    two = "https://a.example/analyse http://b.example/wasser"
    row = {"alias": "Härte", "code": "gesamthaerte", "note": "", "source": two}
    assert build_index(REGISTER, [(1, row)]).get(names.key("Härte")).code == "gesamthaerte"
    with pytest.raises(AliasError, match="row 1: 'b.example/wasser' is not an address"):
        row = {
            "alias": "Härte",
            "code": "gesamthaerte",
            "note": "",
            "source": "https://a.example b.example/wasser",
        }
        build_index(REGISTER, [(1, row)])
    assert source_addresses(" https://a.example  http://b.example ") == [
        "https://a.example",
        "http://b.example",
    ]
    # A register name the alias file contradicts is refused too.
    with pytest.raises(AliasError, match="register: code of nitrat"):
        build_index(REGISTER, [(1, {"alias": "Nitrat", "code": "", "note": "no"})])


def test_a_comma_in_an_unquoted_spelling_is_named(tmp_path):
    bad = tmp_path / "aliases.csv"
    bad.write_text("alias,code,note,source\nKS 4,3,saeurekapazitaet_ks43,,\n", encoding="utf-8")
    with pytest.raises(AliasError, match="row 1: expected 4 cells"):
        read_aliases(bad)


def test_suggestions_are_never_applied():
    m = match_one("Nikel", "µg/l", INDEX)
    assert (m.code, m.status, m.factor) == ("", "no_match", None)
    assert m.suggestions[0] == "nickel" and len(m.suggestions) <= 3


def test_what_the_name_parser_peels_off():
    p = names.parse("Calcium (Ca2+) [mg/l] Mittelwert (vor Ort) BG 0,5")
    assert (p.base, p.statistic, p.on_site, p.unit, p.reporting_limit) == (
        "Calcium",
        "mean",
        True,
        "mg/l",
        "0,5",
    )
    assert p.formulas == ("calcium",)
    # Brackets glued to a word are part of the name; a temperature after it is a method.
    assert names.parse("Benzo(a)pyren").base == "Benzo(a)pyren"
    assert names.parse("Koloniezahl 22 °C").unit is None
    assert names.key("SÄUREKAPAZITÄT BIS PH 4.3") == names.key("Saeurekapazitaet pH 4,3")


UNITS = [
    # (published, canonical, register unit, code, factor)
    ("°dH", "°dH", "°dH", "gesamthaerte", 1.0),
    ("?dH", "°dH", "°dH", "gesamthaerte", 1.0),
    ("�dH", "°dH", "°dH", "gesamthaerte", 1.0),
    ("° dH", "°dH", "°dH", "gesamthaerte", 1.0),
    ("Grad dH", "°dH", "°dH", "gesamthaerte", 1.0),
    ("°dKH", "°dH", "°dH", "karbonathaerte", 1.0),
    ("°KH", "°dH", "°dH", "karbonathaerte", 1.0),
    ("mmol/l", "mmol/l", "°dH", "gesamthaerte", 5.6),
    # 5.6 °dH per mmol/l holds for the alkaline earths only; KS 4,3 counts 2.8 per mmol/l.
    ("°dH", "°dH", "mmol/l", "summe_erdalkalien", 1 / 5.6),
    ("°dH", "°dH", "mmol/l", "saeurekapazitaet_ks43", 1 / 2.8),
    ("mmol/l", "mmol/l", "°dH", "karbonathaerte", None),
    ("°dH", "°dH", "mmol/l", "basekapazitaet_kb82", None),
    ("?C", "°C", "°C", "temperatur", 1.0),
    ("ºC", "°C", "°C", "temperatur", 1.0),
    ("Grad Celsius", "°C", "°C", "temperatur", 1.0),
    ("KBE/100ml", "count/100 ml", "count/100 ml", "e_coli", 1.0),
    ("KBE / 100 ml", "count/100 ml", "count/100 ml", "e_coli", 1.0),
    ("MPN/100 ml", "count/100 ml", "count/100 ml", "e_coli", 1.0),
    ("MPN/100ml", "count/100 ml", "count/100 ml", "e_coli", 1.0),
    ("KBE in 100 ml", "count/100 ml", "count/100 ml", "e_coli", 1.0),
    ("KBE/1 ml", "count/ml", "count/ml", "koloniezahl_22", 1.0),
    ("1/cm", "cm-1", "m-1", "spektraler_absorptionskoeffizient_254nm", 100.0),
    ("cm^-1", "cm-1", "m-1", "faerbung", 100.0),
    ("1/m", "m-1", "m-1", "faerbung", 1.0),
    ("mg/l C", "mg/l C", "mg/l", "doc", 1.0),
    ("mg C/l", "mg/l C", "mg/l", "toc", 1.0),
    ("mg/l C", "mg/l C", "mg/l", "nitrat", None),
    ("Σ µg/l", "µg/l", "µg/l", "pfas_summe_20", 1.0),
    ("µg/l (∑)", "µg/l", "µg/l", "pfas_summe_20", 1.0),
    ("ng/l Σ", "ng/l", "µg/l", "pfas_summe_4", 0.001),
    ("mg/dm³", "mg/l", "mg/l", "nitrat", 1.0),
    ("uS/cm", "µS/cm", "µS/cm", "elektrische_leitfaehigkeit", 1.0),
    ("µS/cm bei 25 °C", "µS/cm", "µS/cm", "elektrische_leitfaehigkeit", 1.0),
    ("mS/m", "mS/m", "µS/cm", "elektrische_leitfaehigkeit", 10.0),
    ("", "", "", "ph_wert", 1.0),
    ("°C", "°C", "mg/l", "nitrat", None),
]


@pytest.mark.parametrize(("spelling", "symbol", "register", "code", "factor"), UNITS)
def test_unit_spellings_and_what_they_convert_to(spelling, symbol, register, code, factor):
    assert units.canonical(spelling) == symbol
    assert units.factor(spelling, register, code) == factor


def test_an_unknown_unit_is_none_not_a_guess():
    for spelling in ("ppm", "°F", "K", "mval/l", "%"):
        assert units.canonical(spelling) is None


def test_parameters_match_command(tmp_path):
    names_csv = tmp_path / "names.csv"
    with names_csv.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter=";")
        writer.writerow(["name", "unit"])
        writer.writerows(
            [
                ["Nitrat (NO3-)", "mg/l"],
                ["Mangan [mg/l]", ""],
                ["Quecksilber [Bestimmungsgrenze 0,0001]", "mg/l"],
                ["Nickel Maximum", "µg/l"],
                ["Nikel", "µg/l"],
                ["Ionenbilanz", "%"],
                ["Nitrat", "°C"],
            ]
        )
    result = CliRunner().invoke(cli, ["parameters", "match", str(names_csv)])
    assert result.exit_code == 0, result.output
    out = pl.read_csv(result.stdout.encode(), infer_schema=False)
    assert tuple(out.columns) == MATCH_COLUMNS
    rows = {r["name"]: r for r in out.iter_rows(named=True)}
    assert rows["Nitrat (NO3-)"]["code"] == "nitrat"
    assert (rows["Mangan [mg/l]"]["code"], rows["Mangan [mg/l]"]["canonical_unit"]) == (
        "mangan",
        "mg/l",
    )
    hg = rows["Quecksilber [Bestimmungsgrenze 0,0001]"]
    assert (hg["code"], hg["factor"], hg["reporting_limit"]) == ("quecksilber", "1000.0", "0,0001")
    assert (rows["Nickel Maximum"]["code"], rows["Nickel Maximum"]["statistic"]) == (
        "nickel",
        "max",
    )
    assert rows["Nikel"]["code"] is None and rows["Nikel"]["status"] == "no_match"
    assert rows["Ionenbilanz"]["code"] is None
    assert "ion balance" in rows["Ionenbilanz"]["reason"]
    assert (rows["Nitrat"]["status"], rows["Nitrat"]["canonical_unit"]) == ("unit_error", "°C")
    assert "'Nikel': no sure match; perhaps nickel (never applied)" in result.stderr
    assert "7 name(s): " in result.stderr
