"""Stage 1: load the source tables and check them against the data contract.

Every problem is collected (table, row, column, offending value, rule, how to fix)
and reported at once; nothing downstream runs on data that broke the contract.
All checks are polars expressions over whole columns, so the national dataset
(10 million measurements) is checked in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import polars as pl

from generator import schema, units
from generator.errors import SourceDataError
from generator.schema import DATE, FLOAT, INT, STR, Table
from generator.values import parse_values

ROW = "_row"
PROBLEM_SCHEMA = {
    "table": pl.String,
    "row": pl.Int64,
    "column": pl.String,
    "value": pl.String,
    "rule": pl.String,
    "message": pl.String,
}
SHARE_TOLERANCE = 0.001
MEASUREMENT_ORDER = ["zone_id", "parameter", "sampled_at", "sample_point"]
LIMIT_KINDS = ("grenzwert", "indicator", "range", "requirement", "richtwert")

# rule -> how to fix it. The rule names are part of the documented contract.
RULES: dict[str, str] = {
    "missing_table": "Add NAME.csv or NAME.parquet to the data directory.",
    "ambiguous_table": "Keep only one of NAME.csv and NAME.parquet.",
    "unreadable_file": "Save the table as UTF-8 CSV (comma or semicolon) or as Parquet.",
    "empty_table": "The table needs at least one data row.",
    "missing_column": "Add the column to the header (names are case-sensitive).",
    "unknown_column": "Remove the column or fix its name (see docs/data-contract.md).",
    "empty_required": "Fill in the value; this column is required.",
    "wrong_type": "Write a value of the column's type (integers without decimals, "
    "numbers with a decimal point).",
    "invalid_date": "Write a real calendar date as YYYY-MM-DD.",
    "malformed_plz": "Write the PLZ as exactly five digits, keeping leading zeros (01067).",
    "malformed_id": "Use letters, digits, '_', '.', '-' (at most 64 characters).",
    "malformed_code": "Use ASCII lower_snake_case (e.g. pfas_summe_20).",
    "malformed_url": "Write a full http:// or https:// address.",
    "not_positive": "Ids are whole numbers greater than 0.",
    "negative": "The value cannot be negative.",
    "out_of_range": "Keep the value inside the range the contract gives.",
    "duplicate_key": "Remove the duplicate or change its key.",
    "dangling_reference": "Add the referenced row to the other table or fix the id.",
    "share_sum_exceeds_one": "Lower the area shares; together they cover at most the whole PLZ.",
    "date_order": "Check the two dates; one of them is impossible as written.",
    "overlapping_validity": "Let each validity period end the day before the next starts.",
    "unknown_parameter": "Use a code from the parameter register (/v1/parameters).",
    "unknown_unit": "Use a unit spelling listed in docs/data-contract.md.",
    "unit_not_convertible": "Use a unit of the same kind as the parameter's unit.",
    "invalid_choice": "Use one of the listed values.",
    "invalid_limit_value": "Write a number, a range as min..max, or the requirement text.",
}


@dataclass(frozen=True)
class SourceData:
    """The validated, typed tables a build works on."""

    suppliers: pl.DataFrame
    zones: pl.DataFrame
    plz_zones: pl.DataFrame
    documents: pl.DataFrame
    measurements: pl.DataFrame
    """Sorted by MEASUREMENT_ORDER; `value`, `qualifier`, ... derived from `value_text`."""
    parameters: pl.DataFrame
    limits: pl.DataFrame


def sample_data_dir() -> Path:
    """Return the directory of the bundled (synthetic) sample data."""
    return Path(str(resources.files("generator") / "sample"))


def reference_dir() -> Path:
    """Return the directory of the packaged parameter register and limits."""
    return Path(str(resources.files("generator") / "reference"))


class _Problems:
    """Collects problem frames; one frame per check, concatenated at the end."""

    def __init__(self) -> None:
        self._frames: list[pl.DataFrame] = []

    def table(self, table: str, rule: str, message: str, column: str | None = None) -> None:
        self._frames.append(
            pl.DataFrame(
                [
                    {
                        "table": table,
                        "row": None,
                        "column": column,
                        "value": None,
                        "rule": rule,
                        "message": message,
                    }
                ],
                schema=PROBLEM_SCHEMA,
            )
        )

    def rows(
        self,
        table: str,
        frame: pl.DataFrame,
        mask: pl.Expr,
        column: str,
        rule: str,
        message: str | pl.Expr,
        value: pl.Expr | None = None,
    ) -> None:
        """Add one problem for every row of `frame` where `mask` is true."""
        hits = frame.filter(mask)
        if hits.height == 0:
            return
        msg = pl.lit(message) if isinstance(message, str) else message
        val = pl.col(column) if value is None else value
        self._frames.append(
            hits.select(
                pl.lit(table).alias("table"),
                pl.col(ROW).cast(pl.Int64).alias("row"),
                pl.lit(column).alias("column"),
                val.cast(pl.String).str.slice(0, 200).alias("value"),
                pl.lit(rule).alias("rule"),
                msg.alias("message"),
            )
        )

    def frame(self) -> pl.DataFrame:
        if not self._frames:
            return pl.DataFrame(schema=PROBLEM_SCHEMA)
        order = {t.name: i for i, t in enumerate(schema.TABLES + schema.REFERENCE_TABLES)}
        return (
            pl.concat(self._frames)
            .with_columns(pl.col("table").replace_strict(order, default=99).alias("_t"))
            .sort(["_t", "row", "column", "rule"], nulls_last=False)
            .drop("_t")
        )


# ---------------------------------------------------------------------------- reading


def _locate(data_dir: Path, table: Table, problems: _Problems) -> Path | None:
    csv, parquet = data_dir / f"{table.name}.csv", data_dir / f"{table.name}.parquet"
    if csv.is_file() and parquet.is_file():
        problems.table(table.name, "ambiguous_table", f"both {csv.name} and {parquet.name} exist")
        return None
    if parquet.is_file():
        return parquet
    if csv.is_file():
        return csv
    problems.table(table.name, "missing_table", f"neither {csv.name} nor {parquet.name} found")
    return None


def _sniff_separator(path: Path) -> str:
    """Pick the delimiter from the header line: German spreadsheet exports use ';'."""
    with path.open("rb") as fh:
        header = fh.readline().decode("utf-8", errors="replace")
    counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
    return max(counts, key=lambda sep: (counts[sep], sep == ","))


def _read(path: Path, table: Table, problems: _Problems) -> pl.DataFrame | None:
    try:
        if path.suffix == ".parquet":
            frame = pl.read_parquet(path)
        else:
            frame = pl.read_csv(
                path,
                separator=_sniff_separator(path),
                infer_schema=False,
                encoding="utf8",
            )
    except Exception as exc:  # noqa: BLE001 - any reader failure is reported, not raised
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        problems.table(table.name, "unreadable_file", f"{path.name}: {first_line}")
        return None
    # CSV headers sometimes carry stray spaces; the names are otherwise exact.
    return frame.rename({c: c.strip() for c in frame.columns}).with_row_index(ROW, offset=1)


# ---------------------------------------------------------------------------- typing


def _is_blank(col: str) -> pl.Expr:
    return pl.col(col).is_null() | (pl.col(col).cast(pl.String).str.strip_chars() == "")


def _typed(frame: pl.DataFrame, table: Table, problems: _Problems) -> pl.DataFrame:
    """Cast every column to its contract type, reporting values that do not fit."""
    exprs: list[pl.Expr] = []
    checks: list[tuple[pl.Expr, str, str, str]] = []  # (mask, column, rule, message)
    for col in table.columns:
        if col.name not in frame.columns:
            exprs.append(pl.lit(None, dtype=_DTYPES[col.type]).alias(col.name))
            continue
        dtype = frame.schema[col.name]
        raw = pl.col(col.name)
        if col.type == STR:
            typed = raw.cast(pl.String)
        elif col.type == INT:
            typed = raw.cast(pl.Int64) if dtype.is_integer() else _str_to_int(raw)
        elif col.type == FLOAT:
            typed = raw.cast(pl.Float64) if dtype.is_numeric() else _str_to_float(raw)
        else:
            typed = raw.cast(pl.Date) if dtype in (pl.Date, pl.Datetime) else _str_to_date(raw)
        exprs.append(typed.alias(col.name))

        blank = _is_blank(col.name)
        if col.required:
            checks.append((blank, col.name, "empty_required", f"{col.name} is required but empty"))
        if col.type != STR:
            rule = "invalid_date" if col.type == DATE else "wrong_type"
            what = {INT: "a whole number", FLOAT: "a number", DATE: "a date YYYY-MM-DD"}[col.type]
            checks.append((typed.is_null() & ~blank, col.name, rule, f"{col.name} must be {what}"))
    # One pass computes every mask (in parallel); rows are only collected for masks that hit.
    masks = frame.select(m.alias(f"_m{i}") for i, (m, *_rest) in enumerate(checks))
    for i, (_mask, column, rule, message) in enumerate(checks):
        hit = masks.get_column(f"_m{i}")
        if hit.any():
            problems.rows(table.name, frame, hit, column, rule, message)
    return frame.select(pl.col(ROW), *exprs)


_DTYPES = {STR: pl.String, INT: pl.Int64, FLOAT: pl.Float64, DATE: pl.Date}


def _str_to_int(raw: pl.Expr) -> pl.Expr:
    return raw.cast(pl.String).str.strip_chars().cast(pl.Int64, strict=False)


def _str_to_float(raw: pl.Expr) -> pl.Expr:
    text = raw.cast(pl.String).str.strip_chars()
    # A decimal comma (German spreadsheets) is accepted when there is no decimal point.
    text = (
        pl.when(text.str.contains(".", literal=True))
        .then(text)
        .otherwise(text.str.replace(",", ".", literal=True))
    )
    return text.cast(pl.Float64, strict=False)


def _str_to_date(raw: pl.Expr) -> pl.Expr:
    text = raw.cast(pl.String).str.strip_chars()
    return (
        pl.when(text.str.contains(r"^\d{4}-\d{2}-\d{2}$"))
        .then(text.str.strptime(pl.Date, "%Y-%m-%d", strict=False))
        .otherwise(None)
    )


def _load_table(data_dir: Path, table: Table, problems: _Problems) -> pl.DataFrame | None:
    path = _locate(data_dir, table, problems)
    if path is None:
        return None
    frame = _read(path, table, problems)
    if frame is None:
        return None
    missing = [c.name for c in table.columns if c.required and c.name not in frame.columns]
    for name in missing:
        problems.table(table.name, "missing_column", f"{path.name} has no column {name!r}", name)
    for name in frame.columns:
        if name != ROW and name not in table.names:
            problems.table(
                table.name,
                "unknown_column",
                f"{path.name} has a column {name!r} the contract does not define; "
                f"expected: {', '.join(table.names)}",
                name,
            )
    if frame.height == 0:
        problems.table(table.name, "empty_table", f"{path.name} has a header but no data rows")
    return _typed(frame, table, problems)


# ---------------------------------------------------------------------------- checks


def _check_keys(frame: pl.DataFrame, table: Table, problems: _Problems) -> None:
    key = list(table.key)
    complete = frame.filter(
        pl.all_horizontal(pl.col(k).is_not_null() for k in key if table.column(k).required)
    )
    # A 64-bit hash per row finds candidate duplicates without materialising the composite
    # key (10 million rows of strings); candidates are then compared on the real key.
    row_hash = pl.lit(0, dtype=pl.UInt64)
    for i, k in enumerate(key):
        row_hash = row_hash * 1_000_003 + pl.col(k).hash(seed=i)
    hashed = complete.select(pl.col(ROW), row_hash.alias("_h"))
    suspects = hashed.filter(pl.col("_h").is_duplicated()).select(ROW)
    if suspects.height == 0:
        return
    candidates = complete.join(suspects, on=ROW, how="semi").select(ROW, *key)
    repeated = candidates.filter(~pl.struct(key).is_first_distinct())
    if repeated.height == 0:
        return
    first = candidates.group_by(key).agg(pl.col(ROW).min().alias("_first"))
    dup = repeated.join(first, on=key, how="left", nulls_equal=True).sort(ROW)
    shown = key[0] if len(key) == 1 else ", ".join(key)
    value = pl.concat_str([pl.col(k).cast(pl.String).fill_null("") for k in key], separator=" | ")
    problems.rows(
        table.name,
        dup,
        pl.lit(True),
        key[0],
        "duplicate_key",
        pl.format("duplicate key ({}): same as row {}", pl.lit(shown), pl.col("_first")),
        value,
    )


def _check_reference(
    frame: pl.DataFrame,
    table: str,
    column: str,
    other: pl.DataFrame | None,
    other_table: str,
    other_column: str,
    problems: _Problems,
    rule: str = "dangling_reference",
) -> None:
    if other is None:
        return
    known = other.select(pl.col(other_column).drop_nulls().unique().alias(column))
    dangling = frame.filter(pl.col(column).is_not_null()).join(known, on=column, how="anti")
    problems.rows(
        table,
        dangling,
        pl.lit(True),
        column,
        rule,
        f"{column} not found in {other_table}.{other_column}",
    )


def _check_fields(t: dict[str, pl.DataFrame], problems: _Problems) -> None:
    """Per-column rules that need no other table."""
    for name, col in (
        ("suppliers", "supplier_id"),
        ("zones", "zone_id"),
        ("zones", "supplier_id"),
        ("plz_zones", "zone_id"),
        ("documents", "supplier_id"),
        ("measurements", "zone_id"),
    ):
        if name in t:
            problems.rows(
                name,
                t[name],
                pl.col(col) <= 0,
                col,
                "not_positive",
                f"{col} must be greater than 0",
            )
    if "zones" in t:
        problems.rows(
            "zones",
            t["zones"],
            pl.col("population") < 0,
            "population",
            "negative",
            "population cannot be negative",
        )
    for name, col in (("suppliers", "website"), ("documents", "url")):
        if name in t:
            problems.rows(
                name,
                t[name],
                ~pl.col(col).str.contains(schema.URL_PATTERN),
                col,
                "malformed_url",
                f"{col} must be an http(s) URL",
            )
    if "plz_zones" in t:
        pz = t["plz_zones"]
        problems.rows(
            "plz_zones",
            pz,
            ~pl.col("plz").str.contains(schema.PLZ_PATTERN),
            "plz",
            "malformed_plz",
            "plz must be exactly five digits",
        )
        problems.rows(
            "plz_zones",
            pz,
            (pl.col("area_share") <= 0) | (pl.col("area_share") > 1),
            "area_share",
            "out_of_range",
            "area_share must be in (0, 1]",
        )
        problems.rows(
            "plz_zones",
            pz,
            (pl.col("confidence") < 0) | (pl.col("confidence") > 1),
            "confidence",
            "out_of_range",
            "confidence must be in [0, 1]",
        )
        sums = pz.filter(pl.col("plz").is_not_null() & pl.col("area_share").is_not_null())
        sums = (
            sums.group_by("plz")
            .agg(
                pl.col(ROW).min(),
                pl.col("area_share").sum().alias("total"),
                pl.col(ROW).sort().cast(pl.String).str.join(", ").alias("rows"),
            )
            .filter(pl.col("total") > 1 + SHARE_TOLERANCE)
        )
        problems.rows(
            "plz_zones",
            sums,
            pl.lit(True),
            "area_share",
            "share_sum_exceeds_one",
            pl.format(
                "the area shares of PLZ {} (rows {}) add up to {}, more than 1",
                pl.col("plz"),
                pl.col("rows"),
                pl.col("total").round(4),
            ),
            pl.col("total").round(4),
        )
    if "documents" in t:
        docs = t["documents"]
        problems.rows(
            "documents",
            docs,
            ~pl.col("document_id").str.contains(schema.DOCUMENT_ID_PATTERN),
            "document_id",
            "malformed_id",
            "document_id has characters outside letters, digits, '_', '.', '-'",
        )
        problems.rows(
            "documents",
            docs,
            pl.col("retrieved_date") < pl.col("edition_date"),
            "retrieved_date",
            "date_order",
            pl.format(
                "retrieved_date {} is before edition_date {}",
                pl.col("retrieved_date"),
                pl.col("edition_date"),
            ),
        )


def _check_measurements(
    t: dict[str, pl.DataFrame], params: pl.DataFrame | None, problems: _Problems
) -> pl.DataFrame | None:
    """Check parameter codes, units and dates; return the unit factor per row."""
    m = t.get("measurements")
    if m is None:
        return None
    if params is not None:
        _check_reference(
            m,
            "measurements",
            "parameter",
            params,
            "parameters",
            "code",
            problems,
            rule="unknown_parameter",
        )
    docs = t.get("documents")
    if docs is not None:
        late = m.select(ROW, "document_id", "sampled_at").join(
            docs.select("document_id", "edition_date"), on="document_id", how="inner"
        )
        problems.rows(
            "measurements",
            late,
            pl.col("sampled_at") > pl.col("edition_date"),
            "sampled_at",
            "date_order",
            pl.format(
                "sampled_at {} is after the edition_date {} of document {}",
                pl.col("sampled_at"),
                pl.col("edition_date"),
                pl.col("document_id"),
            ),
        )
    pairs = m.select(pl.col("unit").fill_null(""), "parameter").unique()
    pairs = pairs.with_columns(
        pl.col("unit")
        .map_elements(units.canonical, return_dtype=pl.String, skip_nulls=False)
        .alias("canonical")
    )
    unknown = pairs.filter(pl.col("canonical").is_null()).select("unit")
    if unknown.height:
        hits = m.with_columns(pl.col("unit").fill_null("")).join(unknown, on="unit", how="semi")
        problems.rows(
            "measurements", hits, pl.lit(True), "unit", "unknown_unit", "unit spelling is not known"
        )
    if params is None:
        return None
    pairs = pairs.join(
        params.select(
            pl.col("code").alias("parameter"), pl.col("unit").fill_null("").alias("parameter_unit")
        ),
        on="parameter",
        how="inner",
    )
    pairs = units.factor_frame(pairs, "unit", "parameter_unit")
    bad = pairs.filter(pl.col("canonical").is_not_null() & pl.col("factor").is_null())
    if bad.height:
        hits = m.with_columns(pl.col("unit").fill_null("")).join(
            bad.select("unit", "parameter", "parameter_unit"), on=["unit", "parameter"]
        )
        problems.rows(
            "measurements",
            hits,
            pl.lit(True),
            "unit",
            "unit_not_convertible",
            pl.format(
                "unit {} cannot be converted to {}'s unit {}",
                pl.col("unit"),
                pl.col("parameter"),
                pl.col("parameter_unit"),
            ),
        )
    return pairs.select("unit", "parameter", "canonical", "parameter_unit", "factor")


def _check_reference_tables(
    params: pl.DataFrame | None, limits: pl.DataFrame | None, problems: _Problems
) -> None:
    if params is not None:
        problems.rows(
            "parameters",
            params,
            ~pl.col("code").str.contains(r"^[a-z][a-z0-9_]*$"),
            "code",
            "malformed_code",
            "code must be ASCII lower_snake_case",
        )
        unknown_units = params.filter(
            pl.col("unit")
            .fill_null("")
            .map_elements(units.canonical, return_dtype=pl.String, skip_nulls=False)
            .is_null()
        )
        problems.rows(
            "parameters",
            unknown_units,
            pl.lit(True),
            "unit",
            "unknown_unit",
            "unit spelling is not known",
        )
    if limits is None:
        return
    _check_reference(
        limits, "limits", "code", params, "parameters", "code", problems, rule="unknown_parameter"
    )
    problems.rows(
        "limits",
        limits,
        ~pl.col("kind").is_in(LIMIT_KINDS),
        "kind",
        "invalid_choice",
        f"kind must be one of {', '.join(LIMIT_KINDS)}",
    )
    problems.rows(
        "limits",
        limits,
        pl.col("valid_until") < pl.col("valid_from"),
        "valid_until",
        "date_order",
        "valid_until is before valid_from",
    )
    parsed = _parse_limit_values(limits)
    numeric_kinds = pl.col("kind").is_in(["grenzwert", "indicator", "richtwert"])
    problems.rows(
        "limits",
        parsed,
        (numeric_kinds & pl.col("value").is_null())
        | ((pl.col("kind") == "range") & pl.col("value_min").is_null()),
        "limit_value",
        "invalid_limit_value",
        "limit_value must be a number (or min..max for kind range)",
    )
    ordered = limits.filter(pl.col("valid_from").is_not_null()).sort("code", "valid_from")
    ordered = ordered.with_columns(
        pl.col("valid_until").shift(1).over("code").alias("_prev_until"),
        pl.col(ROW).shift(1).over("code").alias("_prev_row"),
    )
    problems.rows(
        "limits",
        ordered,
        pl.col("_prev_row").is_not_null()
        & (pl.col("_prev_until").is_null() | (pl.col("_prev_until") >= pl.col("valid_from"))),
        "valid_from",
        "overlapping_validity",
        pl.format(
            "validity of {} overlaps the period of row {}", pl.col("code"), pl.col("_prev_row")
        ),
    )


def _parse_limit_values(limits: pl.DataFrame) -> pl.DataFrame:
    """Split `limit_value` into a number, a min..max range, or a requirement text."""
    text = pl.col("limit_value").str.strip_chars()
    rng = text.str.extract_groups(r"^(-?[0-9.]+)\.\.(-?[0-9.]+)$")
    return limits.with_columns(
        text.cast(pl.Float64, strict=False).alias("value"),
        rng.struct.field("1").cast(pl.Float64, strict=False).alias("value_min"),
        rng.struct.field("2").cast(pl.Float64, strict=False).alias("value_max"),
        pl.when(pl.col("kind") == "requirement").then(text).alias("requirement"),
    )


# ---------------------------------------------------------------------------- entry points


def check(data_dir: Path) -> tuple[SourceData | None, pl.DataFrame]:
    """Load and check every table; return the typed data (or None) and all problems."""
    problems = _Problems()
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        problems.table("suppliers", "missing_table", f"data directory {data_dir} does not exist")
        return None, problems.frame()
    tables: dict[str, pl.DataFrame] = {}
    for table in schema.TABLES:
        frame = _load_table(data_dir, table, problems)
        if frame is not None:
            tables[table.name] = frame
    ref = reference_dir()
    for table in schema.REFERENCE_TABLES:
        own = any((data_dir / f"{table.name}.{ext}").is_file() for ext in ("csv", "parquet"))
        frame = _load_table(data_dir if own else ref, table, problems)
        if frame is not None:
            tables[table.name] = frame

    for table in schema.TABLES + schema.REFERENCE_TABLES:
        if table.name in tables:
            _check_keys(tables[table.name], table, problems)
    for table in schema.TABLES:
        for column, other, other_column in table.references:
            if table.name in tables:
                _check_reference(
                    tables[table.name],
                    table.name,
                    column,
                    tables.get(other),
                    other,
                    other_column,
                    problems,
                )
    _check_fields(tables, problems)
    params, limits = tables.get("parameters"), tables.get("limits")
    _check_reference_tables(params, limits, problems)
    unit_pairs = _check_measurements(tables, params, problems)

    found = problems.frame()
    if found.height or len(tables) < len(schema.TABLES) + len(schema.REFERENCE_TABLES):
        return None, found
    assert unit_pairs is not None
    return _finish(tables, unit_pairs), found


def load(data_dir: Path) -> SourceData:
    """Load and check the data directory; raise SourceDataError listing every problem."""
    data, problems = check(data_dir)
    if data is None:
        raise SourceDataError(problems)
    return data


def _finish(t: dict[str, pl.DataFrame], unit_pairs: pl.DataFrame) -> SourceData:
    """Derive the columns every later stage relies on: parsed values in the register unit."""
    # Sorted once here, by the order every later stage needs (zone, parameter, date), so
    # derive and render work on slices instead of sorted copies of 10 million rows.
    m = (
        t.pop("measurements")
        .drop(ROW)
        .with_columns(pl.col("unit").fill_null(""))
        .sort(MEASUREMENT_ORDER, nulls_last=False)
    )
    # Suppliers repeat the same few thousand spellings across millions of rows: parse each
    # distinct text once. Joins below touch only their key columns and the result is
    # stacked beside the table, so the 10-million-row frame is never copied whole.
    parsed = parse_values(m.select(pl.col("value_text").unique()))
    derived = m.select("value_text").join(
        parsed, on="value_text", how="left", nulls_equal=True, maintain_order="left"
    )
    factor = (
        m.select("unit", "parameter")
        .join(
            unit_pairs.select("unit", "parameter", "factor"),
            on=["unit", "parameter"],
            how="left",
            maintain_order="left",
        )
        .get_column("factor")
    )
    m = m.hstack(derived.drop("value_text")).with_columns(
        (pl.col("value") * factor).alias("value_std"),
        (pl.col("reporting_limit") * factor).alias("reporting_limit_std"),
    )
    limits = _parse_limit_values(t["limits"].drop(ROW)).with_columns(pl.col("unit").fill_null(""))
    return SourceData(
        suppliers=t["suppliers"].drop(ROW),
        zones=t["zones"].drop(ROW),
        plz_zones=t["plz_zones"].drop(ROW),
        documents=t["documents"].drop(ROW),
        measurements=m,
        parameters=t["parameters"].drop(ROW).with_columns(pl.col("unit").fill_null("")),
        limits=limits,
    )


def format_problems(problems: pl.DataFrame, limit: int | None = 200) -> str:
    """Render problems as lines a person can act on, with a hint per rule."""
    lines: list[str] = []
    shown = problems if limit is None or limit <= 0 else problems.head(limit)
    for p in shown.iter_rows(named=True):
        where = p["table"]
        if p["row"] is not None:
            where += f", row {p['row']}"
        if p["column"] is not None:
            where += f", column {p['column']}"
        value = "" if p["value"] is None else f" (value: {p['value']!r})"
        lines.append(f"{where}: {p['message']}{value} [{p['rule']}] Fix: {RULES[p['rule']]}")
    if limit and problems.height > limit:
        lines.append(f"... and {problems.height - limit} more (use --max-problems 0 to list all)")
    return "\n".join(lines)
