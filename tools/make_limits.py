"""Derive limits.csv and pesticides.csv from the TrinkwV 2023 table and the decisions (stdlib only).

Usage, from the repository root (the script is not part of the installed package):
    python3 tools/make_limits.py SOURCE.csv [-p parameters.csv] [-o limits.csv]
        [--notes-de limit_notes_de.csv] [--pesticides pesticides.csv]
        [--pesticides-out generator/reference/pesticides.csv]

SOURCE.csv is `trinkwv-2023-limits.csv` (see generator/reference/README.md). The German
notes and the per-substance pesticide decisions are research tables kept in tools/sources/.

The source lists the values in the units printed in the ordinance (Anlage 2 in mg/l).
Every numeric value is converted with `decimal` into the unit the parameter register
(generator/reference/parameters.csv by default) uses for that code, and written without
trailing zeros. Where the printed number differs from the written one, the note gets the
printed value appended, so the ordinance's significant digits are not lost.

Pesticides: the ordinance sets its values for "Pestizide" (each substance), not per name.
Every register code decided to be an active substance or a relevant metabolite gets a row
of its own, copied from the ordinance's row (0.1 µg/l, or 0.03 µg/l for aldrin, dieldrin,
heptachlor and heptachlor epoxide); a non-relevant metabolite with a health guidance value
of the Umweltbundesamt gets a row of kind `orientierungswert`, which is no limit.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "generator" / "reference"
SOURCES = ROOT / "tools" / "sources"
COLUMNS = [
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
PESTICIDE_COLUMNS = [
    "code",
    "decision",
    "legal_basis",
    "note_de",
    "source_title",
    "source_url",
    "source_date",
    "confidence",
    "second_source_url",
    "quote",
]

# Source unit spellings that name the same unit as the register.
UNIT_ALIASES = {
    "µS/cm at 25 °C": "µS/cm",
    "pH units": "",
}

# The source files every value that is no limit as `richtwert`; the ordinance names each
# by its annex: Anlage 3 Teil II "Technischer Maßnahmenwert" (Legionella), Anlage 4 Teil I
# "Parameterwert" (radon, tritium, Richtdosis), and "Referenzwert" in Anlage 3 Teil III
# (somatic coliphages) and Anlage 2 Teil II (values at the works outlet under § 41 (3)).
RICHTWERT_KINDS = {
    "Anlage 3 Teil II": "massnahmenwert",
    "Anlage 4 Teil I": "parameterwert",
    "Anlage 3 Teil III": "referenzwert",
    "Anlage 2 Teil II": "referenzwert",
}

# Mass concentrations and their size in ng/l.
MASS_PER_LITRE = {"mg/l": Decimal(1_000_000), "µg/l": Decimal(1_000), "ng/l": Decimal(1)}

NUMBER = re.compile(r"^\d+(\.\d+)?$")
RANGE = re.compile(r"^(\d+(?:\.\d+)?)\.\.(\d+(?:\.\d+)?)$")

# Pesticide decisions (tools/sources/pesticides.csv) and the ordinance row each copies.
PESTICIDE_LIMIT_ROW = {
    "active_substance": "pestizide",
    "relevant_metabolite": "pestizide",
    "active_substance_strict": "pestizide_aldrin_dieldrin_heptachlor",
}
DECISIONS = (
    "active_substance",
    "active_substance_strict",
    "relevant_metabolite",
    "non_relevant_metabolite",
    "non_relevant_metabolite_gow",
    "unclear",
    "aggregate",
)
PESTICIDE_BASIS = {
    "pestizide": "TrinkwV 2023, Anlage 2 Teil I, Pestizide",
    "pestizide_aldrin_dieldrin_heptachlor": (
        "TrinkwV 2023, Anlage 2 Teil I, Pestizide (Aldrin, Dieldrin, Heptachlor, Heptachlorepoxid)"
    ),
}
PESTICIDE_NOTE = {
    "active_substance": "Limit for each individual pesticide active substance.",
    "relevant_metabolite": "Relevant metabolite: the limit of each individual pesticide applies.",
    "active_substance_strict": "Stricter limit for this substance, instead of 0.1 µg/l.",
}
GOW_BASIS = "Umweltbundesamt, gesundheitlicher Orientierungswert (kein Grenzwert der TrinkwV)"
GOW_NOTE = (
    "Health guidance value of the Umweltbundesamt for a non-relevant metabolite; not a limit "
    "of the ordinance. Source from {date}; shown from the start of the TrinkwV 2023."
)
GOW_NOTE_DE = (
    "Gesundheitlicher Orientierungswert des Umweltbundesamts für einen nicht relevanten "
    "Metaboliten, kein Grenzwert der Trinkwasserverordnung. Quelle von {date}; hier ab dem "
    "Inkrafttreten der TrinkwV 2023 gezeigt."
)
UNCLEAR_PREFIX = (
    "Ob dieser Abbaustoff für Trinkwasser als relevant gilt, ist nicht abschließend bewertet. "
)


def normalise(value: Decimal) -> str:
    """Plain decimal notation without trailing zeros (0.10 -> 0.1, 2.79E+3 -> 2790)."""
    return format(value.normalize(), "f")


def factor(source_unit: str, target_unit: str) -> Decimal:
    source_unit = UNIT_ALIASES.get(source_unit, source_unit)
    if source_unit == target_unit:
        return Decimal(1)
    if source_unit in MASS_PER_LITRE and target_unit in MASS_PER_LITRE:
        return MASS_PER_LITRE[source_unit] / MASS_PER_LITRE[target_unit]
    raise ValueError(f"cannot convert {source_unit!r} to {target_unit!r}")


def convert(value: str, source_unit: str, target_unit: str) -> str:
    """Convert a number or `min..max` range; text requirements are returned unchanged."""
    if NUMBER.match(value):
        return normalise(Decimal(value) * factor(source_unit, target_unit))
    match = RANGE.match(value)
    if match:
        f = factor(source_unit, target_unit)
        low, high = (normalise(Decimal(part) * f) for part in match.groups())
        return f"{low}..{high}"
    return value


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def read_register(path: Path) -> dict[str, str]:
    return {row["code"]: row["unit"] for row in read_csv(path)}


def kind_of(row: dict[str, str]) -> str:
    kind, annex = row["kind"].strip(), row["annex"].strip()
    if kind != "richtwert":
        return kind
    if annex not in RICHTWERT_KINDS:
        raise ValueError(f"{row['code']}: no term for a value that is no limit in {annex!r}")
    return RICHTWERT_KINDS[annex]


def derive(
    source: Path,
    register: dict[str, str],
    notes_de: dict[tuple[str, str], dict[str, str]] | None = None,
) -> list[dict[str, str]]:
    """Return the rows of limits.csv for the ordinance's own rows (pesticides: see below)."""
    out = []
    for row in read_csv(source):
        code = row["code"]
        if code not in register:
            raise KeyError(f"{code}: not in the parameter register")
        unit = register[code]
        printed = row["limit_value"].strip()
        is_text = not (NUMBER.match(printed) or RANGE.match(printed))
        # A text requirement carries no number to convert; it is filed under the
        # parameter's register unit (empty for odour, taste, pH).
        value = printed if is_text else convert(printed, row["unit"].strip(), unit)
        note = row["note"].strip()
        if value != printed:
            printed_with_unit = f"{printed} {row['unit'].strip()}".strip()
            note = f"{note} As printed in the ordinance: {printed_with_unit}.".strip()
        out.append(
            {
                "code": code,
                "kind": kind_of(row),
                "limit_value": value,
                "unit": unit,
                "valid_from": row["valid_from"].strip(),
                "valid_until": row["valid_until"].strip(),
                "legal_basis": f"TrinkwV 2023, {row['annex'].strip()}",
                "note": note,
                "note_de": german_note(notes_de, code, row["valid_from"].strip(), note),
                "source_url": row["source_url"].strip(),
            }
        )
    out.sort(key=lambda r: (r["code"], r["valid_from"]))
    check_periods(out)
    return out


def german_note(
    notes_de: dict[tuple[str, str], dict[str, str]] | None, code: str, valid_from: str, note: str
) -> str:
    """Return the German translation of `note`; refused when its English note changed."""
    if notes_de is None:
        return ""
    entry = notes_de.get((code, valid_from))
    if entry is None:
        raise KeyError(f"{code} {valid_from}: no German note in the notes table")
    if entry["note_en"] != note:
        raise ValueError(f"{code} {valid_from}: the German note translates another English note")
    return entry["note_de"]


def read_notes_de(path: Path) -> dict[tuple[str, str], dict[str, str]]:
    return {(row["code"], row["valid_from"]): row for row in read_csv(path)}


def pesticide_rows(
    decisions: list[dict[str, str]], ordinance: list[dict[str, str]], register: dict[str, str]
) -> list[dict[str, str]]:
    """Return a limit row per substance with a value of its own (pesticides, see the docstring)."""
    by_code = {row["code"]: row for row in ordinance}
    out = []
    for decision in decisions:
        code, kind = decision["code"], decision["decision"]
        if code not in register:
            raise KeyError(f"{code}: not in the parameter register")
        if kind not in DECISIONS:
            raise ValueError(f"{code}: unknown decision {kind!r}")
        if code in by_code:
            if kind != "aggregate":
                raise ValueError(f"{code}: the ordinance lists it; decision must be aggregate")
            continue
        if kind in PESTICIDE_LIMIT_ROW:
            model = by_code[PESTICIDE_LIMIT_ROW[kind]]
            if register[code] != model["unit"]:
                raise ValueError(f"{code}: register unit differs from {model['code']}")
            out.append(
                model
                | {
                    "code": code,
                    "legal_basis": PESTICIDE_BASIS[model["code"]],
                    "note": PESTICIDE_NOTE[kind],
                    "note_de": decision["note_de"],
                }
            )
        elif kind == "non_relevant_metabolite_gow":
            unit = decision["unit"]
            out.append(
                {
                    "code": code,
                    "kind": "orientierungswert",
                    "limit_value": convert(decision["limit_value"], unit, register[code]),
                    "unit": register[code],
                    "valid_from": by_code["pestizide"]["valid_from"],
                    "valid_until": "",
                    "legal_basis": GOW_BASIS,
                    "note": GOW_NOTE.format(date=decision["source_date"]),
                    "note_de": GOW_NOTE_DE.format(date=decision["source_date"]),
                    "source_url": decision["source_url"],
                }
            )
    return out


def decision_rows(decisions: list[dict[str, str]]) -> list[dict[str, str]]:
    """Return the rows of reference/pesticides.csv: the decision and its sources, no values."""
    out = []
    for d in decisions:
        note = d["note_de"]
        if d["decision"] == "unclear" and not note.startswith(UNCLEAR_PREFIX):
            note = UNCLEAR_PREFIX + note
        out.append({c: d[c] for c in PESTICIDE_COLUMNS} | {"note_de": note})
    return sorted(out, key=lambda r: r["code"])


def check_periods(rows: list[dict[str, str]]) -> None:
    """Refuse overlapping validity periods of one code (both ends inclusive)."""
    previous: dict[str, dict[str, str]] = {}
    for row in rows:
        if row["valid_until"] and row["valid_until"] < row["valid_from"]:
            raise ValueError(f"{row['code']}: valid_until before valid_from")
        before = previous.get(row["code"])
        if before is not None and (
            not before["valid_until"] or before["valid_until"] >= row["valid_from"]
        ):
            raise ValueError(f"{row['code']}: overlapping validity periods")
        previous[row["code"]] = row


def write(path: Path, columns: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {path}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("source", type=Path, help="path of trinkwv-2023-limits.csv")
    parser.add_argument("-p", "--parameters", type=Path, default=REFERENCE / "parameters.csv")
    parser.add_argument("-o", "--output", type=Path, default=REFERENCE / "limits.csv")
    parser.add_argument("--notes-de", type=Path, default=SOURCES / "limit_notes_de.csv")
    parser.add_argument("--pesticides", type=Path, default=SOURCES / "pesticides.csv")
    parser.add_argument("--pesticides-out", type=Path, default=REFERENCE / "pesticides.csv")
    args = parser.parse_args(argv)
    register = read_register(args.parameters)
    rows = derive(args.source, register, read_notes_de(args.notes_de))
    decisions = read_csv(args.pesticides)
    rows = sorted(
        rows + pesticide_rows(decisions, rows, register),
        key=lambda r: (r["code"], r["valid_from"]),
    )
    check_periods(rows)
    write(args.output, COLUMNS, rows)
    write(args.pesticides_out, PESTICIDE_COLUMNS, decision_rows(decisions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
