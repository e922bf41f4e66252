"""The alias register: published spellings of parameter names, and what each one is.

`generator/reference/aliases.csv` ships beside `parameters.csv`, one row per spelling:
`alias,code,note,source`; `source` lists the addresses of the suppliers' publications (or
of the ordinance) that print the spelling, separated by spaces. A row with a `code` maps
the spelling to that register parameter; a row without one says the spelling is **not**
in the register, and `note` says why (the ion balance, the acid capacity to pH 8.2, a sum
of 16 EPA PAH where the ordinance sums four). Spellings are compared by `names.key`, so
one row covers case, umlauts, spaces and punctuation (`Säurekapazität bis pH 4,3` also
matches `SAEUREKAPAZITAET PH 4.3`).

Besides the file, every register parameter is known by its code, its German and its
English name. A key that would name two different outcomes is an error when the index is
built, so the register can never make a guess.

A data directory may hold its own `aliases.csv` (the contract's `aliases` table, the same
columns): the operator's decisions. For that data each of its rows wins over the packaged
register's meaning of the same key; two of its own rows that give one key two meanings are
an error. `trinkwasser parameters decide` adds rows to it (`decide.py`).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import polars as pl

from generator.errors import TrinkwasserError
from generator.publications.names import key

ALIASES_FILE = "aliases.csv"
COLUMNS = ("alias", "code", "note", "source")


@dataclass(frozen=True)
class Entry:
    """What one key means: a code, or no code and the reason."""

    code: str
    """Empty when the spelling is not in the register."""
    note: str
    source: str
    """Where the entry comes from: `aliases.csv row N` or `register: name_de` etc."""


class AliasError(TrinkwasserError, ValueError):
    """The alias register is inconsistent (unknown code, one key with two meanings)."""


@dataclass(frozen=True)
class AliasIndex:
    """Every known key, and the register the codes come from."""

    entries: dict[str, Entry]
    parameters: pl.DataFrame
    """The register: code, name_de, unit, group (at least)."""

    def get(self, name_key: str) -> Entry | None:
        return self.entries.get(name_key)

    def name(self, code: str) -> str:
        row = self.parameters.filter(pl.col("code") == code)
        return str(row["name_de"][0]) if row.height else code

    def unit(self, code: str) -> str:
        row = self.parameters.filter(pl.col("code") == code)
        return str(row["unit"][0] or "") if row.height else ""

    def group(self, code: str) -> str:
        row = self.parameters.filter(pl.col("code") == code)
        return str(row["group"][0]) if row.height else ""


def read_aliases(path: Path) -> list[tuple[int, dict[str, str]]]:
    """Read the alias file: (row number, row) pairs; rows are counted from 1 after the header."""
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise AliasError(f"{path}: the header must be {','.join(COLUMNS)}")
        rows = []
        for number, row in enumerate(reader, 1):
            if None in row or any(v is None for v in row.values()):
                raise AliasError(
                    f"{path}, row {number}: expected {len(COLUMNS)} cells ({','.join(COLUMNS)}); "
                    'quote a spelling that holds a comma ("Säurekapazität bis pH 4,3")'
                )
            rows.append((number, {k: v.strip() for k, v in row.items()}))
        return rows


def source_addresses(source: str) -> list[str]:
    """Return the addresses a `source` cell lists (separated by whitespace), in order."""
    return source.split()


def _is_address(text: str) -> bool:
    return text.startswith(("https://", "http://")) and len(text) > len("https://")


OWN_SOURCE = "aliases.csv of the data directory"
"""How an entry of the operator's own table names where it comes from (with `row N`)."""


def build_index(
    parameters: pl.DataFrame,
    alias_rows: list[tuple[int, dict[str, str]]],
    own: Sequence[tuple[int, dict[str, str]]] = (),
) -> AliasIndex:
    """Build the index from the register and the alias rows; raise AliasError if inconsistent.

    `own` are the data directory's decisions: their keys mean what they say, whatever
    the register and the packaged rows say of the same key.
    """
    codes = set(parameters["code"].to_list())
    entries: dict[str, Entry] = {}
    problems: list[str] = []
    decided: set[str] = set()
    for number, row in own:
        source = f"{OWN_SOURCE}, row {number}"
        if row["code"] and row["code"] not in codes:
            problems.append(f"{source}, column code: {row['code']!r} is not in the register")
            continue
        k = key(row["alias"])
        known = entries.get(k)
        if not k:
            problems.append(f"{source}, column alias: {row['alias']!r} has no letters or digits")
        elif known is not None and known.code != row["code"]:
            problems.append(
                f"{source}, column alias: {row['alias']!r} means "
                f"{row['code'] or 'not in the register'}, but {known.source} gives the same "
                f"name to {known.code or 'not in the register'}"
            )
        else:
            entries.setdefault(k, Entry(row["code"], row["note"], source))
            decided.add(k)

    def add(spelling: str, entry: Entry) -> None:
        k = key(spelling)
        if k in decided:
            return  # the operator decided this name for the data
        if not k:
            problems.append(f"{entry.source}: {spelling!r} has no letters or digits")
            return
        known = entries.get(k)
        if known is not None and known.code != entry.code:
            meant, other = entry.code or "not in the register", known.code or "not in the register"
            problems.append(
                f"{entry.source}: {spelling!r} means {meant}, but {known.source} already gives "
                f"the same key to {other}"
            )
            return
        entries.setdefault(k, entry)

    for row in parameters.select("code", "name_de", "name_en").iter_rows(named=True):
        for column in ("code", "name_de", "name_en"):
            add(row[column], Entry(row["code"], "", f"register: {column} of {row['code']}"))
    for number, row in alias_rows:
        source = f"{ALIASES_FILE} row {number}"
        if row["code"] and row["code"] not in codes:
            problems.append(f"{source}: code {row['code']!r} is not in the register")
            continue
        if not row["code"] and not row["note"]:
            problems.append(f"{source}: a spelling without a code needs a note saying why")
            continue
        bad = [a for a in source_addresses(row.get("source", "")) if not _is_address(a)]
        if bad:
            problems.append(
                f"{source}: {bad[0]!r} is not an address; the source lists the addresses of "
                "the publications that print the spelling, separated by spaces"
            )
            continue
        add(row["alias"], Entry(row["code"], row["note"], source))
    if problems:
        raise AliasError("the alias register is inconsistent:\n" + "\n".join(problems))
    return AliasIndex(entries, parameters)


def packaged_aliases() -> Path:
    return Path(str(resources.files("generator") / "reference" / ALIASES_FILE))


@cache
def default_index() -> AliasIndex:
    """Return the index of the packaged register and alias file."""
    register = packaged_aliases().with_name("parameters.csv")
    parameters = pl.read_csv(register, infer_schema=False, encoding="utf8")
    return build_index(parameters, read_aliases(packaged_aliases()))


def own_rows(aliases: pl.DataFrame | None) -> list[tuple[int, dict[str, str]]]:
    """Return a data directory's typed `aliases` table as (row number, row) pairs."""
    if aliases is None or aliases.height == 0:
        return []
    rows = aliases.select(
        pl.col(c).cast(pl.String).fill_null("").str.strip_chars() for c in COLUMNS
    ).iter_rows(named=True)
    return [(number, row) for number, row in enumerate(rows, 1)]


def index_for(parameters: pl.DataFrame | None, aliases: pl.DataFrame | None = None) -> AliasIndex:
    """Return the index for a data directory's register and decisions (packaged if None)."""
    own = own_rows(aliases)
    if parameters is None and not own:
        return default_index()
    if parameters is None:
        register = packaged_aliases().with_name("parameters.csv")
        parameters = pl.read_csv(register, infer_schema=False, encoding="utf8")
    return build_index(parameters, read_aliases(packaged_aliases()), own)
