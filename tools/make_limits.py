"""Derive limits.csv from the TrinkwV 2023 reference table (stdlib only).

Usage, from the repository root (the script is not part of the installed package):
    python3 tools/make_limits.py SOURCE.csv [-p parameters.csv] [-o limits.csv]

SOURCE.csv is `trinkwv-2023-limits.csv` (see generator/reference/README.md).

The source lists the values in the units printed in the ordinance (Anlage 2 in mg/l).
Every numeric value is converted with `decimal` into the unit the parameter register
(generator/reference/parameters.csv by default) uses for that code, and written without
trailing zeros. Where the printed number differs from the written one, the note gets the
printed value appended, so the ordinance's significant digits are not lost.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from decimal import Decimal
from pathlib import Path

REFERENCE = Path(__file__).resolve().parents[1] / "generator" / "reference"
COLUMNS = [
    "code",
    "kind",
    "limit_value",
    "unit",
    "valid_from",
    "valid_until",
    "legal_basis",
    "note",
    "source_url",
]

# Source unit spellings that name the same unit as the register.
UNIT_ALIASES = {
    "µS/cm at 25 °C": "µS/cm",
    "pH units": "",
}

# Mass concentrations and their size in ng/l.
MASS_PER_LITRE = {"mg/l": Decimal(1_000_000), "µg/l": Decimal(1_000), "ng/l": Decimal(1)}

NUMBER = re.compile(r"^\d+(\.\d+)?$")
RANGE = re.compile(r"^(\d+(?:\.\d+)?)\.\.(\d+(?:\.\d+)?)$")


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


def read_register(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8", newline="") as fh:
        return {row["code"]: row["unit"] for row in csv.DictReader(fh)}


def derive(source: Path, register: dict[str, str]) -> list[dict[str, str]]:
    out = []
    with source.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
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
                    "kind": row["kind"].strip(),
                    "limit_value": value,
                    "unit": unit,
                    "valid_from": row["valid_from"].strip(),
                    "valid_until": row["valid_until"].strip(),
                    "legal_basis": f"TrinkwV 2023, {row['annex'].strip()}",
                    "note": note,
                    "source_url": row["source_url"].strip(),
                }
            )
    out.sort(key=lambda r: (r["code"], r["valid_from"]))
    check_periods(out)
    return out


def check_periods(rows: list[dict[str, str]]) -> None:
    """Validity periods of one code must not overlap (both ends inclusive)."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="path of trinkwv-2023-limits.csv")
    parser.add_argument("-p", "--parameters", type=Path, default=REFERENCE / "parameters.csv")
    parser.add_argument("-o", "--output", type=Path, default=REFERENCE / "limits.csv")
    args = parser.parse_args(argv)
    rows = derive(args.source, read_register(args.parameters))
    with args.output.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
