"""Checks of the packaged reference data and of the script that writes limits.csv.

generator/reference/parameters.csv and limits.csv; tools/make_limits.py.
"""

from __future__ import annotations

import csv
import importlib.util
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

REFERENCE = Path(__file__).resolve().parent.parent / "generator" / "reference"

ALLOWED_UNITS = {
    "mg/l",
    "µg/l",
    "ng/l",
    "mmol/l",
    "µS/cm",
    "°C",
    "°dH",
    "count/100 ml",
    "count/250 ml",
    "count/ml",
    "PFU/100 ml",
    "NTU",
    "m-1",
    "Bq/l",
    "mSv/a",
    "mg/l CaCO3",
    "mg/l O2",
    "mV",
    "",
}

ALLOWED_GROUPS = {
    "microbiology",
    "chemistry",
    "metals",
    "disinfection",
    "pfas",
    "pesticides",
    "metabolites",
    "ions",
    "hardness",
    "field",
    "indicator",
    "radiology",
    "organics",
}

# The 20 PFAS of "Summe PFAS-20" (TrinkwV 2023, Anlage 2 Teil I) with the CAS numbers of the acids.
PFAS_20 = {
    "pfba": "375-22-4",
    "pfpea": "2706-90-3",
    "pfhxa": "307-24-4",
    "pfhpa": "375-85-9",
    "pfoa": "335-67-1",
    "pfna": "375-95-1",
    "pfda": "335-76-2",
    "pfunda": "2058-94-8",
    "pfdoda": "307-55-1",
    "pftrda": "72629-94-8",
    "pfbs": "375-73-5",
    "pfpes": "2706-91-4",
    "pfhxs": "355-46-4",
    "pfhps": "375-92-8",
    "pfos": "1763-23-1",
    "pfns": "68259-12-1",
    "pfds": "335-77-3",
    "pfunds": "749786-16-1",
    "pfdods": "79780-39-5",
    "pftrds": "791563-89-8",
}

PARAMETER_COLUMNS = ["code", "name_de", "name_en", "unit", "group", "cas_number", "annex"]
LIMIT_COLUMNS = [
    "code",
    "kind",
    "limit_value",
    "unit",
    "valid_from",
    "valid_until",
    "legal_basis",
    "note",
    "note_de",
    "source_url",
]
ORDINANCE_BASIS = re.compile(r"^TrinkwV 2023, Anlage \d Teil [IV]+$")
PESTICIDE_LIMITS = {
    "active_substance": "0.1",
    "relevant_metabolite": "0.1",
    "active_substance_strict": "0.03",
}

CODE = re.compile(r"^[a-z][a-z0-9_]*$")
CAS = re.compile(r"^(\d{2,7})-(\d{2})-(\d)$")


def read(name: str) -> list[dict[str, str]]:
    with (REFERENCE / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def parameters() -> list[dict[str, str]]:
    return read("parameters.csv")


@pytest.fixture(scope="module")
def register(parameters: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    return {row["code"]: row for row in parameters}


@pytest.fixture(scope="module")
def limits() -> list[dict[str, str]]:
    return read("limits.csv")


def cas_check_digit_ok(number: str) -> bool:
    match = CAS.match(number)
    if not match:
        return False
    digits = (match.group(1) + match.group(2))[::-1]
    total = sum(weight * int(digit) for weight, digit in enumerate(digits, start=1))
    return total % 10 == int(match.group(3))


def periods(limits: list[dict[str, str]], code: str) -> list[tuple[str, str, str, str]]:
    return [
        (row["limit_value"], row["unit"], row["valid_from"], row["valid_until"])
        for row in limits
        if row["code"] == code
    ]


# --- parameters.csv ---------------------------------------------------------------------------


def test_parameter_columns() -> None:
    with (REFERENCE / "parameters.csv").open(encoding="utf-8", newline="") as fh:
        assert next(csv.reader(fh)) == PARAMETER_COLUMNS


def test_exactly_282_unique_codes(parameters: list[dict[str, str]]) -> None:
    codes = [row["code"] for row in parameters]
    assert len(codes) == 282
    assert len(set(codes)) == 282


def test_parameters_sorted_by_code(parameters: list[dict[str, str]]) -> None:
    codes = [row["code"] for row in parameters]
    assert codes == sorted(codes)


def test_codes_are_lower_snake_case(parameters: list[dict[str, str]]) -> None:
    bad = [row["code"] for row in parameters if not CODE.match(row["code"])]
    assert bad == []


def test_names_non_empty(parameters: list[dict[str, str]]) -> None:
    bad = [
        row["code"]
        for row in parameters
        if not row["name_de"].strip() or not row["name_en"].strip()
    ]
    assert bad == []


def test_units_allowed(parameters: list[dict[str, str]]) -> None:
    bad = {row["code"]: row["unit"] for row in parameters if row["unit"] not in ALLOWED_UNITS}
    assert bad == {}


def test_micro_sign_is_u00b5(parameters: list[dict[str, str]]) -> None:
    units = {row["unit"] for row in parameters}
    assert "\u00b5g/l" in units
    assert not any("\u03bc" in unit for unit in units)  # GREEK SMALL LETTER MU


def test_groups_allowed(parameters: list[dict[str, str]]) -> None:
    bad = {row["code"]: row["group"] for row in parameters if row["group"] not in ALLOWED_GROUPS}
    assert bad == {}


def test_cas_numbers_pass_check_digit(parameters: list[dict[str, str]]) -> None:
    bad = {
        row["code"]: row["cas_number"]
        for row in parameters
        if row["cas_number"] and not cas_check_digit_ok(row["cas_number"])
    }
    assert bad == {}


@pytest.mark.parametrize(
    ("number", "ok"),
    [
        ("335-67-1", True),
        ("1763-23-1", True),
        ("7440-38-2", True),
        ("335-67-2", False),
        ("x", False),
    ],
)
def test_cas_check_itself(number: str, ok: bool) -> None:
    assert cas_check_digit_ok(number) is ok


def test_pfas_20_present_with_cas(register: dict[str, dict[str, str]]) -> None:
    for code, cas in PFAS_20.items():
        assert code in register, code
        assert register[code]["group"] == "pfas", code
        assert register[code]["cas_number"] == cas, code
        assert register[code]["unit"] == "µg/l", code


def test_pfas_sums_in_group_pfas(register: dict[str, dict[str, str]]) -> None:
    for code in ("pfas_summe_20", "pfas_summe_4"):
        assert register[code]["group"] == "pfas"
        assert register[code]["unit"] == "µg/l"


@pytest.mark.parametrize(
    ("code", "unit", "group"),
    [
        ("temperatur", "°C", "field"),
        ("gesamthaerte", "°dH", "hardness"),
        ("haertebereich", "", "hardness"),
        ("sauerstoff", "mg/l", "field"),
        ("freies_chlor", "mg/l", None),
        ("saeurekapazitaet_ks43", "mmol/l", None),
        ("basekapazitaet_kb82", "mmol/l", None),
        ("calcium", "mg/l", None),
        ("magnesium", "mg/l", None),
        ("kalium", "mg/l", None),
        ("hydrogencarbonat", "mg/l", None),
        ("nitrat", "mg/l", None),
        ("blei", "µg/l", None),
        ("arsen", "µg/l", None),
        ("kupfer", "mg/l", None),
        ("elektrische_leitfaehigkeit", "µS/cm", None),
        ("ph_wert", "", None),
    ],
)
def test_codes_other_code_relies_on(
    register: dict[str, dict[str, str]], code: str, unit: str, group: str | None
) -> None:
    assert code in register
    assert register[code]["unit"] == unit
    if group is not None:
        assert register[code]["group"] == group


def test_pesticide_codes_present(register: dict[str, dict[str, str]]) -> None:
    needed = {
        "atrazin",
        "desethylatrazin",
        "desisopropylatrazin",
        "bentazon",
        "glyphosat",
        "ampa",
        "terbuthylazin",
        "desethylterbuthylazin",
        "metolachlor",
        "mecoprop",
        "diuron",
        "isoproturon",
        "chlortoluron",
        "metazachlor",
        "flufenacet",
        "bromacil",
        "simazin",
        "dichlorbenzamid_2_6",
        "pestizide",
        "pestizide_gesamt",
    }
    assert needed - set(register) == set()


def test_annex_format(parameters: list[dict[str, str]]) -> None:
    bad = {
        row["code"]: row["annex"]
        for row in parameters
        if row["annex"] and not re.match(r"^Anlage [1-4] Teil (I|II|III)$", row["annex"])
    }
    assert bad == {}


# --- limits.csv -------------------------------------------------------------------------------


def test_limit_columns() -> None:
    with (REFERENCE / "limits.csv").open(encoding="utf-8", newline="") as fh:
        assert next(csv.reader(fh)) == LIMIT_COLUMNS


def test_limits_row_count_and_order(limits: list[dict[str, str]]) -> None:
    # 75 rows of the ordinance, 71 substances with a pesticide limit, one guidance value.
    assert len(limits) == 147
    assert sum(1 for row in limits if ORDINANCE_BASIS.match(row["legal_basis"])) == 75
    keys = [(row["code"], row["valid_from"]) for row in limits]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_every_limit_code_in_register(
    limits: list[dict[str, str]], register: dict[str, dict[str, str]]
) -> None:
    assert {row["code"] for row in limits} - set(register) == set()


def test_limit_unit_equals_register_unit(
    limits: list[dict[str, str]], register: dict[str, dict[str, str]]
) -> None:
    bad = {
        (row["code"], row["valid_from"]): (row["unit"], register[row["code"]]["unit"])
        for row in limits
        if row["unit"] != register[row["code"]]["unit"]
    }
    assert bad == {}


def test_limit_annex_matches_register(
    limits: list[dict[str, str]], register: dict[str, dict[str, str]]
) -> None:
    for row in limits:
        if ORDINANCE_BASIS.match(row["legal_basis"]):
            assert row["legal_basis"] == f"TrinkwV 2023, {register[row['code']]['annex']}"


def test_limit_values_are_normalised(limits: list[dict[str, str]]) -> None:
    for row in limits:
        value = row["limit_value"]
        parts = value.split("..") if ".." in value else [value]
        for part in parts:
            if re.fullmatch(r"\d+(\.\d+)?", part):
                assert part == format(Decimal(part).normalize(), "f"), (row["code"], value)


def test_kinds(limits: list[dict[str, str]]) -> None:
    assert {row["kind"] for row in limits} == {
        "grenzwert",
        "indicator",
        "range",
        "requirement",
        "massnahmenwert",
        "parameterwert",
        "referenzwert",
        "orientierungswert",
    }
    kinds = {row["code"]: row["kind"] for row in limits}
    # The ordinance's own terms (Anlage 3 Teil II, Anlage 4 Teil I, Anlage 2 Teil II).
    assert kinds["legionella"] == "massnahmenwert"
    assert kinds["radon_222"] == kinds["tritium"] == kinds["richtdosis"] == "parameterwert"
    assert kinds["somatische_coliphagen"] == "referenzwert"
    assert kinds["thm_referenzwert_wasserwerksausgang"] == "referenzwert"


def test_every_note_has_a_german_translation(limits: list[dict[str, str]]) -> None:
    for row in limits:
        assert bool(row["note"]) == bool(row["note_de"]), row["code"]
    by_code = {row["code"]: row for row in limits}
    assert by_code["legionella"]["note_de"].startswith("Technischer Maßnahmenwert")


# --- pesticides.csv: how the pesticide values apply to each substance ------------------------


@pytest.fixture(scope="module")
def pesticides() -> list[dict[str, str]]:
    return read("pesticides.csv")


def test_every_pesticide_and_metabolite_has_one_decision(
    pesticides: list[dict[str, str]], register: dict[str, dict[str, str]]
) -> None:
    codes = [row["code"] for row in pesticides]
    assert codes == sorted(set(codes))
    in_groups = {c for c, r in register.items() if r["group"] in ("pesticides", "metabolites")}
    assert set(codes) == in_groups and len(codes) == 87
    for row in pesticides:
        assert row["note_de"] and row["legal_basis"], row["code"]
        if row["decision"] != "unclear":
            assert row["source_url"].startswith("http"), row["code"]


def test_pesticide_decisions_give_the_limits(
    pesticides: list[dict[str, str]], limits: list[dict[str, str]]
) -> None:
    by_code: dict[str, list[dict[str, str]]] = {}
    for row in limits:
        by_code.setdefault(row["code"], []).append(row)
    for row in pesticides:
        code, decision = row["code"], row["decision"]
        rows = by_code.get(code, [])
        if decision in PESTICIDE_LIMITS:
            assert [(r["kind"], r["limit_value"], r["unit"]) for r in rows] == [
                ("grenzwert", PESTICIDE_LIMITS[decision], "µg/l")
            ], code
            assert rows[0]["legal_basis"].startswith("TrinkwV 2023, Anlage 2 Teil I, Pestizide")
        elif decision == "non_relevant_metabolite_gow":
            assert [r["kind"] for r in rows] == ["orientierungswert"], code
            assert (
                rows[0]["source_url"].startswith("http")
                and "Umweltbundesamt" in (rows[0]["legal_basis"])
            )
        elif decision in ("non_relevant_metabolite", "unclear"):
            assert rows == [], code
    decided = {row["code"]: row["decision"] for row in pesticides}
    assert decided["aldrin"] == decided["heptachlorepoxid"] == "active_substance_strict"
    assert decided["dimethylsulfamid"] == "non_relevant_metabolite_gow"
    assert decided["metolachlor_esa"] == decided["chlorthalonil_r417888"] == "unclear"


def test_validity_periods_do_not_overlap(limits: list[dict[str, str]]) -> None:
    by_code: dict[str, list[tuple[date, date | None]]] = {}
    for row in limits:
        start = date.fromisoformat(row["valid_from"])
        end = date.fromisoformat(row["valid_until"]) if row["valid_until"] else None
        assert end is None or start <= end, row["code"]
        by_code.setdefault(row["code"], []).append((start, end))
    for code, spans in by_code.items():
        spans.sort()
        for (_, end), (next_start, _) in zip(spans, spans[1:], strict=False):
            assert end is not None and end < next_start, code


def test_pfas_20_limit(limits: list[dict[str, str]]) -> None:
    assert periods(limits, "pfas_summe_20") == [("0.1", "µg/l", "2026-01-12", "")]


def test_pfas_4_limit(limits: list[dict[str, str]]) -> None:
    assert periods(limits, "pfas_summe_4") == [("0.02", "µg/l", "2028-01-12", "")]


def test_lead_limit(limits: list[dict[str, str]]) -> None:
    assert periods(limits, "blei") == [
        ("10", "µg/l", "2023-06-24", "2028-01-11"),
        ("5", "µg/l", "2028-01-12", ""),
    ]


def test_arsenic_and_chromium_limits(limits: list[dict[str, str]]) -> None:
    assert periods(limits, "arsen") == [
        ("10", "µg/l", "2023-06-24", "2036-01-11"),
        ("4", "µg/l", "2036-01-12", ""),
    ]
    assert periods(limits, "arsen_neuanlagen") == [("4", "µg/l", "2028-01-12", "2036-01-11")]
    assert periods(limits, "chrom") == [
        ("25", "µg/l", "2023-06-24", "2030-01-11"),
        ("5", "µg/l", "2030-01-12", ""),
    ]


def test_other_converted_values(limits: list[dict[str, str]]) -> None:
    values = {row["code"]: (row["limit_value"], row["unit"]) for row in limits}
    assert values["pestizide"] == ("0.1", "µg/l")
    assert values["pestizide_aldrin_dieldrin_heptachlor"] == ("0.03", "µg/l")
    assert values["bisphenol_a"] == ("2.5", "µg/l")
    assert values["nitrat"] == ("50", "mg/l")
    assert values["ph_wert"] == ("6.5..9.5", "")
    assert values["elektrische_leitfaehigkeit"] == ("2790", "µS/cm")
    assert values["geruch"][1] == ""


# --- tools/make_limits.py: the script that writes limits.csv ------------------------------------


@pytest.fixture(scope="module")
def make_limits():
    path = REFERENCE.parents[1] / "tools" / "make_limits.py"
    spec = importlib.util.spec_from_file_location("make_limits", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCE_COLUMNS = ["code", "annex", "unit", "limit_value", "valid_from", "valid_until", "kind",
                  "note", "source_url"]  # fmt: skip
PRINTED = re.compile(
    r"^(?P<note>.*?) ?As printed in the ordinance: (?P<value>\S+) ?(?P<unit>.*)\.$"
)


def write_source(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=SOURCE_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def source_row(code: str, value: str, unit: str, **other: str) -> dict[str, str]:
    row = {
        "code": code,
        "annex": "Anlage 2 Teil I",
        "unit": unit,
        "limit_value": value,
        "valid_from": "2023-06-24",
        "valid_until": "",
        "kind": "grenzwert",
        "note": "",
        "source_url": "https://www.gesetze-im-internet.de/trinkwv_2023/anlage_2.html",
    }
    return row | other


def test_make_limits_reproduces_limits_csv_from_the_printed_values(
    make_limits, limits, tmp_path
) -> None:
    # Every converted row keeps the ordinance's printed value in its note; turning those
    # back into a source table and running the script again must give limits.csv (and
    # pesticides.csv) unchanged. The substances' rows come from the decisions, not the source.
    back = {v: "richtwert" for v in ("massnahmenwert", "parameterwert", "referenzwert")}
    source = []
    for row in limits:
        if not ORDINANCE_BASIS.match(row["legal_basis"]):
            continue
        printed = PRINTED.match(row["note"])
        value, unit, note = (
            (printed["value"], printed["unit"], printed["note"])
            if printed
            else (row["limit_value"], row["unit"], row["note"])
        )
        annex = row["legal_basis"].removeprefix("TrinkwV 2023, ")
        source.append(source_row(row["code"], value, unit, annex=annex, note=note,
                                 valid_from=row["valid_from"], valid_until=row["valid_until"],
                                 kind=back.get(row["kind"], row["kind"]),
                                 source_url=row["source_url"]))  # fmt: skip
    assert sum(1 for row in limits if PRINTED.match(row["note"])) >= 40
    out, decisions = tmp_path / "limits.csv", tmp_path / "pesticides.csv"
    args = [str(write_source(tmp_path / "source.csv", source[::-1])), "-o", str(out),
            "--pesticides-out", str(decisions)]  # fmt: skip
    assert make_limits.main(args) == 0
    assert out.read_bytes() == (REFERENCE / "limits.csv").read_bytes()
    assert decisions.read_bytes() == (REFERENCE / "pesticides.csv").read_bytes()


def test_make_limits_refuses_a_stale_german_note(make_limits, tmp_path) -> None:
    notes = {("blei", "2023-06-24"): {"note_en": "Old text.", "note_de": "Alter Text."}}
    source = write_source(tmp_path / "s.csv", [source_row("blei", "10", "µg/l", note="New.")])
    with pytest.raises(ValueError, match="translates another English note"):
        make_limits.derive(source, {"blei": "µg/l"}, notes)


def test_make_limits_names_values_that_are_no_limits(make_limits, tmp_path) -> None:
    register = {"legionella": "count/100 ml", "radon_222": "Bq/l"}
    rows = make_limits.derive(
        write_source(tmp_path / "s.csv", [
            source_row("legionella", "100", "count/100 ml", kind="richtwert",
                       annex="Anlage 3 Teil II"),
            source_row("radon_222", "100", "Bq/l", kind="richtwert", annex="Anlage 4 Teil I"),
        ]),
        register,
    )  # fmt: skip
    assert [r["kind"] for r in rows] == ["massnahmenwert", "parameterwert"]
    with pytest.raises(ValueError, match="no term for a value that is no limit"):
        make_limits.derive(
            write_source(tmp_path / "t.csv", [
                source_row("radon_222", "100", "Bq/l", kind="richtwert", annex="Anlage 9")
            ]),
            register,
        )  # fmt: skip


def test_make_limits_converts_into_the_register_unit(make_limits, tmp_path) -> None:
    register = {"blei": "µg/l", "ph_wert": "", "ndma": "ng/l", "geruch": ""}
    rows = make_limits.derive(
        write_source(tmp_path / "s.csv", [
            source_row("blei", "0.010", "mg/l", note="= 10 µg/l."),
            source_row("ph_wert", "6.5..9.5", "pH units"),
            source_row("ndma", "0.000010", "mg/l"),
            source_row("geruch", "ohne anormale Veränderung", "", kind="indicator"),
        ]),
        register,
    )  # fmt: skip
    by_code = {row["code"]: row for row in rows}
    assert [row["code"] for row in rows] == sorted(register)
    assert by_code["blei"]["limit_value"] == "10"
    assert by_code["blei"]["note"] == "= 10 µg/l. As printed in the ordinance: 0.010 mg/l."
    assert by_code["blei"]["legal_basis"] == "TrinkwV 2023, Anlage 2 Teil I"
    assert (by_code["ph_wert"]["limit_value"], by_code["ph_wert"]["unit"]) == ("6.5..9.5", "")
    assert by_code["ph_wert"]["note"] == ""
    assert (by_code["ndma"]["limit_value"], by_code["ndma"]["unit"]) == ("10", "ng/l")
    assert by_code["geruch"]["limit_value"] == "ohne anormale Veränderung"


@pytest.mark.parametrize(
    ("rows", "error", "message"),
    [
        ([source_row("unbekannt", "1", "mg/l")], KeyError, "not in the parameter register"),
        ([source_row("blei", "1", "Bq/l")], ValueError, "cannot convert 'Bq/l' to 'µg/l'"),
        (
            [source_row("blei", "0.010", "mg/l", valid_until="2028-01-12"),
             source_row("blei", "0.005", "mg/l", valid_from="2028-01-12")],
            ValueError,
            "blei: overlapping validity periods",
        ),
        (
            [source_row("blei", "0.010", "mg/l", valid_until="2020-01-01")],
            ValueError,
            "blei: valid_until before valid_from",
        ),
    ],
)  # fmt: skip
def test_make_limits_refuses_bad_source_rows(make_limits, tmp_path, rows, error, message) -> None:
    with pytest.raises(error, match=re.escape(message)):
        make_limits.derive(write_source(tmp_path / "s.csv", rows), {"blei": "µg/l"})
