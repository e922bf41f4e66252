"""`trinkwasser parameters decide`: the operator's decision on a published name, recorded.

The decision is a row of the data directory's `aliases.csv` (the contract's `aliases`
table, created with its header when missing). It is checked before it is written: the code
is a register code (or `-` for "no register parameter", with a note), the published unit
fits the parameter, and the data directory's own rows keep one meaning per name. The file's
earlier bytes stay as they are; the row is appended and the file replaced in one step.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from generator.api.patterns import ADDRESSES_PATTERN
from generator.contract.check import check_tables
from generator.contract.read import candidates
from generator.contract.reference_tables import PARAMETERS
from generator.contract.tables import ALIASES
from generator.errors import SourceDataError, TrinkwasserError
from generator.load import reference_dir
from generator.output.atomic import atomic_write
from generator.publications.aliases import (
    COLUMNS,
    OWN_SOURCE,
    AliasIndex,
    index_for,
    own_rows,
)
from generator.publications.match import MATCHED, match_frame
from generator.publications.names import key

NONE = "-"
"""The CODE that says the name is no parameter of the register (a note says why)."""


@dataclass(frozen=True)
class Decision:
    """What `decide` recorded, or found recorded already."""

    path: Path
    row: int
    """Its data row in `path` (1 = the first row after the header)."""
    code: str
    written: bool
    """False when the same decision was there already."""
    overrides: str | None
    """What the packaged register said of the name before, where it said something else."""
    match: dict[str, object]
    """The matcher's answer for the name and unit with the decision in force."""


def _tables(data_dir: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    result = check_tables(data_dir, (PARAMETERS, ALIASES), reference_dir())
    if result.problems.height:
        raise SourceDataError(result.problems)
    return result.tables["parameters"], result.tables["aliases"]


def _aliases_file(data_dir: Path) -> Path:
    found = candidates(data_dir, ALIASES.name)
    if len(found) > 1:
        raise TrinkwasserError(f"{data_dir}: keep only one of {', '.join(p.name for p in found)}")
    if found and found[0].suffix != ".csv":
        raise TrinkwasserError(
            f"{found[0]}: decisions are appended to a CSV table; convert it to aliases.csv"
        )
    return found[0] if found else data_dir / f"{ALIASES.name}.csv"


def _with_row(path: Path, row: dict[str, str]) -> bytes:
    """Return the bytes of `path` (or a new table's header) with `row` appended."""
    data = path.read_bytes() if path.is_file() else b""
    newline = "\r\n" if data.partition(b"\n")[0].endswith(b"\r") else "\n"
    header = list(COLUMNS)
    if data:
        first = data.partition(b"\n")[0].decode("utf-8-sig").strip()
        delimiter = ";" if first.count(";") > first.count(",") else ","
        header = [h.strip() for h in next(csv.reader([first], delimiter=delimiter))]
    else:
        delimiter = ","
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=newline)
    if not data:
        writer.writerow(header)
    writer.writerow([row.get(c, "") for c in header])
    if data and not data.endswith(b"\n"):
        data += newline.encode()
    return data + buffer.getvalue().encode("utf-8")


def _answer(index: AliasIndex, name: str, unit: str) -> dict[str, object]:
    pair = pl.DataFrame(
        {"name": [name], "unit": [unit]}, schema={"name": pl.String, "unit": pl.String}
    )
    return match_frame(pair, index).row(0, named=True)


def decide(
    data_dir: Path, name: str, unit: str, code: str, note: str = "", source: str = ""
) -> Decision:
    """Record that `name` (published in `unit`) is `code`; raise TrinkwasserError if it cannot be.

    `code` is `-` for a name that is no register parameter; `note` then says why.
    """
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise TrinkwasserError(f"{data_dir} is not a directory")
    name, unit, code, note, source = (v.strip() for v in (name, unit, code, note, source))
    if not key(name):
        raise TrinkwasserError(f"NAME {name!r} has no letters or digits")
    if source and not pl.Series([source]).str.contains(ADDRESSES_PATTERN)[0]:
        raise TrinkwasserError("--source: give http(s) addresses separated by spaces")
    parameters, aliases = _tables(data_dir)
    codes = set(parameters["code"].to_list())
    if code == NONE:
        if not note:
            raise TrinkwasserError(
                f"CODE {NONE} says {name!r} is no register parameter: say why with --note"
            )
        code = ""
    elif code not in codes:
        close = [c for c in sorted(codes) if code.lower() in c][:5]
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise TrinkwasserError(
            f"CODE {code!r} is not in the parameter register{hint}; `trinkwasser parameters "
            f"match` suggests codes, and {NONE} says the name is no parameter"
        )
    own = own_rows(aliases)
    before = index_for(parameters, aliases).get(key(name))
    path = _aliases_file(data_dir)
    same = [number for number, row in own if key(row["alias"]) == key(name)]
    if same:
        number = same[0]
        recorded = own[number - 1][1]["code"]
        if recorded != code:
            raise TrinkwasserError(
                f"{path.name} row {number} already decides {own[number - 1][1]['alias']!r} as "
                f"{recorded or 'no register parameter'}; change or remove that row to decide "
                "otherwise"
            )
        index = index_for(parameters, aliases)
        return Decision(path, number, code, False, None, _answer(index, name, unit))
    row = {"alias": name, "code": code, "note": note, "source": source}
    index = index_for(parameters, pl.concat([aliases.select(COLUMNS), pl.DataFrame([row])]))
    answer = _answer(index, name, unit)
    if code and (answer["status"] != MATCHED or answer["code"] != code):
        raise TrinkwasserError(
            f"{name!r} in {unit or '(no unit)'} would still not be imported as {code}: "
            f"{answer['status']}: {answer['reason']}; nothing was written"
        )
    old = path.read_bytes() if path.is_file() else None
    atomic_write(path, _with_row(path, row))
    try:
        _tables(data_dir)  # the table as written keeps the contract
    except SourceDataError:
        if old is None:
            path.unlink()
        else:
            atomic_write(path, old)
        raise
    overrides = None
    if before is not None and before.code != code and not before.source.startswith(OWN_SOURCE):
        overrides = f"{before.code or 'no register parameter'} ({before.source})"
    return Decision(path, len(own) + 1, code, True, overrides, answer)
