"""Every validation rule, each on a broken copy of the tiny dataset."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.load import RULES, check, checked, load
from tests.helpers import append, edit, read_rows, write_rows


def problems_of(data_dir):
    data, problems = check(data_dir)
    assert data is None, "a broken dataset must not load"
    return problems.to_dicts()


def has(problems, table, rule, row=None, column=None):
    return any(
        p["table"] == table
        and p["rule"] == rule
        and (row is None or p["row"] == row)
        and (column is None or p["column"] == column)
        for p in problems
    )


def test_clean_data_loads(tiny_data):
    data, problems = check(tiny_data)
    assert problems.height == 0
    assert data is not None
    assert data.measurements.height == 84


def test_missing_directory(tmp_path):
    # Of the directory, not of any table in it: one problem, without a table.
    problems = problems_of(tmp_path / "nope")
    assert has(problems, "", "missing_directory")
    assert len(problems) == 1


def test_missing_table(tiny_data):
    (tiny_data / "documents.csv").unlink()
    assert has(problems_of(tiny_data), "documents", "missing_table")


def test_table_given_twice(tiny_data):
    pl.read_csv(tiny_data / "suppliers.csv").write_parquet(tiny_data / "suppliers.parquet")
    assert has(problems_of(tiny_data), "suppliers", "ambiguous_table")


def test_empty_table(tiny_data):
    (tiny_data / "zones.csv").write_text("zone_id,supplier_id,name,water_source,population\n")
    assert has(problems_of(tiny_data), "zones", "empty_table")


def test_missing_column(tiny_data):
    rows = read_rows(tiny_data / "plz_zones.csv")
    for r in rows:
        del r["confidence"]
    write_rows(tiny_data / "plz_zones.csv", rows)
    assert has(problems_of(tiny_data), "plz_zones", "missing_column", column="confidence")


def test_unknown_column(tiny_data):
    rows = read_rows(tiny_data / "suppliers.csv")
    for r in rows:
        r["webseite"] = ""
    write_rows(tiny_data / "suppliers.csv", rows)
    assert has(problems_of(tiny_data), "suppliers", "unknown_column", column="webseite")


def test_unreadable_file(tiny_data):
    (tiny_data / "zones.parquet").write_bytes(b"PAR1 this is not a parquet file")
    (tiny_data / "zones.csv").unlink()
    found = problems_of(tiny_data)
    p = next(p for p in found if p["rule"] == "unreadable_file")
    assert (p["table"], p["row"], p["column"]) == ("zones", None, None)
    assert p["message"].startswith("zones.parquet: ")


# ---------------------------------------------------------------------------- bad bytes (#9.6)


def test_control_characters_in_text_cells(tiny_data):
    edit(tiny_data, "suppliers", 2, name="Zweckverband\x00Seeland")
    edit(tiny_data, "zones", 1, water_source="Grund\x1bwasser")
    # A line break inside a quoted cell is valid CSV, but not a valid cell of the contract.
    edit(tiny_data, "measurements", 4, sample_point="Netz\nHochbehälter")
    edit(tiny_data, "documents", 2, title="Analyse\x85 2026")  # C1 control (NEL)
    edit(tiny_data, "measurements", 6, value_text="0,5\t")  # a tab is allowed
    found = problems_of(tiny_data)
    control = {
        (p["table"], p["row"], p["column"]) for p in found if p["rule"] == "control_character"
    }
    assert control == {
        ("suppliers", 2, "name"),
        ("zones", 1, "water_source"),
        ("measurements", 4, "sample_point"),
        ("documents", 2, "title"),
    }
    messages = {p["column"]: p["message"] for p in found if p["rule"] == "control_character"}
    assert messages["name"] == "name contains the control character U+0000 (NUL)"
    assert messages["sample_point"].endswith("U+000A (line feed)")
    assert messages["title"].endswith("U+0085 (next line)")
    assert len(found) == 4, found  # nothing else: the rows after the line break keep their numbers


def test_control_character_in_a_number_column_is_reported_once(tiny_data):
    edit(tiny_data, "zones", 2, population="3400\x00")
    found = problems_of(tiny_data)
    assert [(p["table"], p["row"], p["column"], p["rule"]) for p in found] == [
        ("zones", 2, "population", "control_character")
    ]


def test_control_character_in_parquet_text(tiny_data):
    frame = pl.read_csv(tiny_data / "suppliers.csv", infer_schema=False)
    frame = frame.with_columns(
        pl.when(pl.col("supplier_id") == "2")
        .then(pl.lit("See\rland"))
        .otherwise("city")
        .alias("city")
    )
    frame.write_parquet(tiny_data / "suppliers.parquet")
    (tiny_data / "suppliers.csv").unlink()
    assert has(problems_of(tiny_data), "suppliers", "control_character", row=2, column="city")


def test_invalid_encoding_names_offset_row_and_column(tiny_data):
    path = tiny_data / "zones.csv"
    text = path.read_bytes()
    latin1 = text.replace("Höhe".encode(), "H\xf6he".encode("latin-1"))
    path.write_bytes(latin1)
    found = problems_of(tiny_data)
    p = next(p for p in found if p["table"] == "zones")
    assert (p["rule"], p["row"], p["column"]) == ("invalid_encoding", 2, "name")
    offset = latin1.index(b"\xf6")
    assert f"byte 0xF6 at offset {offset} is not valid UTF-8" in p["message"]
    assert "'ö'" in p["message"]  # what the byte would be in Windows-1252
    assert [q for q in found if q["table"] == "zones"] == [p]


def test_utf16_file_is_named_as_such(tiny_data):
    path = tiny_data / "suppliers.csv"
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    found = problems_of(tiny_data)
    p = next(p for p in found if p["table"] == "suppliers")
    assert p["rule"] == "invalid_encoding" and p["row"] is None
    assert "UTF-16" in p["message"]


def test_unterminated_quote_names_row_column_and_offset(tiny_data):
    # In the middle of a file the next quote "closes" the cell lines later; at the end of
    # a file nothing does. Both name the row and column where the quote opens.
    edit(tiny_data, "measurements", 5, value_text="MARK")
    edit(tiny_data, "documents", 3, title="MARK")
    for table in ("measurements", "documents"):
        path = tiny_data / f"{table}.csv"
        broken = path.read_bytes().replace(b",MARK,", b',"12,')
        path.write_bytes(broken)
        if table == "measurements":
            offset = broken.index(b'"12,')
    found = problems_of(tiny_data)
    quotes = [p for p in found if p["rule"] == "unterminated_quote"]
    assert [(p["table"], p["row"], p["column"]) for p in quotes] == [
        ("documents", 3, "title"),
        ("measurements", 5, "value_text"),
    ]
    assert quotes[1]["message"] == (
        f"measurements.csv: the quote at offset {offset} opens a cell "
        "that is not closed on its line"
    )
    assert len(found) == 2, found


def test_stray_quotes_and_extra_cells(tiny_data):
    path = tiny_data / "suppliers.csv"
    path.write_text(
        "supplier_id,name,city,website\n"
        '1,Wasserwerke 5" Kleinstadt,Kleinstadt,\n'
        '2,"Zweckverband" Seeland,Seeland,\n'
        "3,Dritte,Ort,,zu viel\n",
        encoding="utf-8",
    )
    found = [p for p in problems_of(tiny_data) if p["table"] == "suppliers"]
    assert [(p["rule"], p["row"], p["column"]) for p in found] == [
        ("stray_quote", 1, "name"),
        ("stray_quote", 2, "name"),
        ("field_count", 3, None),
    ]
    assert "the row has 5 cells, the header 4" in found[2]["message"]


def test_missing_optional_column_is_one_problem(tiny_data):
    rows = read_rows(tiny_data / "measurements.csv")
    write_rows(
        tiny_data / "measurements.csv", [{k: v for k, v in r.items() if k != "unit"} for r in rows]
    )
    found = problems_of(tiny_data)
    assert len(found) == 1, found
    p = found[0]
    assert (p["table"], p["row"], p["column"], p["rule"]) == (
        "measurements",
        None,
        "unit",
        "missing_column",
    )
    assert "unit_not_convertible" in p["message"] and "(first: row 1:" in p["message"]


def test_missing_optional_column_that_no_row_needs_is_fine(tiny_data):
    # Zone 31 publishes two sample points on one date: without the column they would clash.
    rows = [r for r in read_rows(tiny_data / "measurements.csv") if r["zone_id"] != "31"]
    for r in rows:
        del r["sample_point"]
    write_rows(tiny_data / "measurements.csv", rows)
    data, problems = check(tiny_data)
    assert problems.height == 0
    assert data.measurements["sample_point"].null_count() == data.measurements.height


# ------------------------------------------------------------------- one edit, one rule each

PLANTED = {
    # id: (edits as (table, row, changes), problems as (table, rule, row, column))
    "dangling_supplier_zone_and_document": (
        [
            ("zones", 3, {"supplier_id": "9"}),
            ("plz_zones", 1, {"zone_id": "99"}),
            ("measurements", 5, {"document_id": "nope-2026"}),
        ],
        [
            ("zones", "dangling_reference", 3, "supplier_id"),
            ("plz_zones", "dangling_reference", 1, "zone_id"),
            ("measurements", "dangling_reference", 5, "document_id"),
        ],
    ),
    "area_share_outside_range": (
        [("plz_zones", 1, {"area_share": "0"}), ("plz_zones", 4, {"area_share": "1.2"})],
        [
            ("plz_zones", "out_of_range", 1, "area_share"),
            ("plz_zones", "out_of_range", 4, "area_share"),
        ],
    ),
    "malformed_shape": (
        [("plz_shapes", 1, {"shape": "13.0 51.5,14.0"})],
        [("plz_shapes", "malformed_shape", 1, "shape")],
    ),
    "confidence_outside_range": (
        [("plz_zones", 1, {"confidence": "-0.1"})],
        [("plz_zones", "out_of_range", 1, "confidence")],
    ),
    "impossible_dates": (
        [
            ("documents", 1, {"edition_date": "2025-02-30"}),
            ("measurements", 2, {"sampled_at": "10.09.2025"}),
        ],
        [
            ("documents", "invalid_date", 1, "edition_date"),
            ("measurements", "invalid_date", 2, "sampled_at"),
        ],
    ),
    "date_order": (
        [
            ("documents", 2, {"retrieved_date": "2026-06-01"}),
            ("measurements", 1, {"sampled_at": "2026-02-01"}),
        ],
        [
            ("documents", "date_order", 2, "retrieved_date"),
            ("measurements", "date_order", 1, "sampled_at"),
        ],
    ),
    "unknown_parameter_code": (
        [("measurements", 7, {"parameter": "bleii"})],
        [("measurements", "unknown_parameter", 7, "parameter")],
    ),
    "unknown_unit": (
        [("measurements", 8, {"unit": "Milligramm pro Eimer"})],
        [("measurements", "unknown_unit", 8, "unit")],
    ),
    "wrong_type": (
        [("zones", 1, {"population": "viele"}), ("plz_zones", 1, {"zone_id": "11.5"})],
        [("zones", "wrong_type", 1, "population"), ("plz_zones", "wrong_type", 1, "zone_id")],
    ),
    "empty_required_field": (
        [("measurements", 3, {"value_text": ""}), ("suppliers", 2, {"name": "   "})],
        [
            ("measurements", "empty_required", 3, "value_text"),
            ("suppliers", "empty_required", 2, "name"),
        ],
    ),
    "ids_must_be_positive": (
        [("suppliers", 2, {"supplier_id": "0"})],
        [("suppliers", "not_positive", 2, None)],
    ),
    "malformed_url_and_document_id": (
        [("documents", 3, {"url": "seeland.example/werte", "document_id": "zs 2026!"})],
        [("documents", "malformed_url", 3, "url"), ("documents", "malformed_id", 3, "document_id")],
    ),
    "negative_population": (
        [("zones", 2, {"population": "-5"})],
        [("zones", "negative", 2, "population")],
    ),
    "boundary_source_is_one_of_three": (
        [("plz_zones", 1, {"boundary_source": "guess"})],
        [("plz_zones", "invalid_choice", 1, "boundary_source")],
    ),
}


@pytest.mark.parametrize(("edits", "expected"), PLANTED.values(), ids=PLANTED.keys())
def test_a_planted_fault_is_named_with_table_row_and_column(tiny_data, edits, expected):
    for table, row, changes in edits:
        edit(tiny_data, table, row, **changes)
    found = problems_of(tiny_data)
    for table, rule, row, column in expected:
        assert has(found, table, rule, row=row, column=column), (table, rule, row, column)


def test_malformed_plz(tiny_data):
    edit(tiny_data, "plz_zones", 2, plz="7643")
    found = problems_of(tiny_data)
    assert has(found, "plz_zones", "malformed_plz", row=2, column="plz")
    assert next(p for p in found if p["rule"] == "malformed_plz")["value"] == "7643"


def test_duplicate_ids(tiny_data):
    append(tiny_data, "suppliers", supplier_id="1", name="Doppelt")
    found = problems_of(tiny_data)
    dup = next(p for p in found if p["rule"] == "duplicate_key")
    assert (dup["table"], dup["row"], dup["column"]) == ("suppliers", 4, "supplier_id")
    assert "same as row 1" in dup["message"]


def test_duplicate_measurement_key(tiny_data):
    append(
        tiny_data,
        "measurements",
        zone_id="12",
        parameter="nitrat",
        sampled_at="2026-04-02",
        value_text="3",
        unit="mg/l",
        document_id="wk-2026",
    )
    assert has(problems_of(tiny_data), "measurements", "duplicate_key", row=85)


def test_shares_of_one_plz_add_up_to_more_than_one(tiny_data):
    edit(tiny_data, "plz_zones", 3, area_share="0.7")
    found = problems_of(tiny_data)
    p = next(p for p in found if p["rule"] == "share_sum_exceeds_one")
    assert p["table"] == "plz_zones" and p["row"] == 2 and p["column"] == "area_share"
    assert "76437" in p["message"] and "rows 2, 3" in p["message"]


def test_small_share_excess_is_tolerated(tiny_data):
    edit(tiny_data, "plz_zones", 3, area_share="0.4005")
    data, problems = check(tiny_data)
    assert problems.height == 0


def test_unit_not_convertible_is_a_warning(tiny_data):
    edit(tiny_data, "measurements", 7, unit="µS/cm")
    result = checked(tiny_data)
    assert result.data is not None and result.problems.height == 0
    (p,) = result.warnings.to_dicts()
    assert (p["table"], p["row"], p["column"], p["rule"]) == (
        "measurements",
        7,
        "unit",
        "unit_not_convertible",
    )
    assert "blei" in p["message"] and "µg/l" in p["message"]


def test_places_and_replaced_explanations_are_checked(tiny_data):
    edit(tiny_data, "places", 2, lat="61.2")
    (tiny_data / "explanations.csv").write_text(
        "topic,title_de,what,origin,limit_protects,what_to_do,sources\n"
        "nitrat,Nitrat,a,b,c,d,Umweltbundesamt https://www.umweltbundesamt.de\n",
        encoding="utf-8",
    )
    found = problems_of(tiny_data)
    assert has(found, "places", "out_of_range", row=2, column="lat")
    assert has(found, "explanations", "malformed_sources", row=1, column="sources")


def test_the_operators_aliases_and_undecided_values_are_checked(tiny_data):
    (tiny_data / "aliases.csv").write_text(
        "alias,code,note,source\n"
        "PFAS-Summe,pfas_summe_99,,\n"
        "Ionenbilanz,,,\n"
        "Nitrat gesamt,nitrat,,www.example.org\n",
        encoding="utf-8",
    )
    (tiny_data / "undecided.csv").write_text(
        "zone_id,document_id,name,unit,values\n11,wk-2099,PFAS-Summe,µg/l,0\n", encoding="utf-8"
    )
    found = problems_of(tiny_data)
    assert has(found, "aliases", "unknown_parameter", row=1, column="code")
    assert has(found, "aliases", "missing_reason", row=2, column="note")
    assert has(found, "aliases", "malformed_addresses", row=3, column="source")
    assert has(found, "undecided", "dangling_reference", row=1, column="document_id")
    assert has(found, "undecided", "not_positive", row=1, column="values")


def test_overriding_limits_checks_periods_and_codes(tiny_data):
    (tiny_data / "limits.csv").write_text(
        "code,kind,limit_value,unit,valid_from,valid_until,legal_basis,note,source_url\n"
        "blei,grenzwert,10,µg/l,2023-06-24,2028-06-01,TrinkwV,,\n"
        "blei,grenzwert,5,µg/l,2028-01-12,,TrinkwV,,\n"
        "bleii,grenzwert,5,µg/l,2028-01-12,,TrinkwV,,\n"
        "nitrat,streng,50,mg/l,2023-06-24,,TrinkwV,,\n"
        "nitrit,grenzwert,viel,mg/l,2023-06-24,,TrinkwV,,\n",
        encoding="utf-8",
    )
    found = problems_of(tiny_data)
    assert has(found, "limits", "overlapping_validity", row=2)
    assert has(found, "limits", "unknown_parameter", row=3)
    assert has(found, "limits", "invalid_choice", row=4, column="kind")
    assert has(found, "limits", "invalid_limit_value", row=5)


def test_semicolon_and_bom_csv_is_read(tiny_data):
    text = (tiny_data / "plz_zones.csv").read_text(encoding="utf-8")
    german = "\ufeff" + text.replace(",", ";").replace("0.6", "0,6").replace("0.4;", "0,4;")
    (tiny_data / "plz_zones.csv").write_text(german, encoding="utf-8")
    data, problems = check(tiny_data)
    assert problems.height == 0
    shares = data.plz_zones.filter(pl.col("plz") == "76437")["area_share"].sort().to_list()
    assert shares == [0.4, 0.6]


def test_parquet_tables_are_read(tiny_data):
    for name in ("measurements", "plz_zones"):
        pl.read_csv(tiny_data / f"{name}.csv", infer_schema=False).write_parquet(
            tiny_data / f"{name}.parquet"
        )
        (tiny_data / f"{name}.csv").unlink()
    data = load(tiny_data)
    assert data.measurements.height == 84


def test_every_problem_reported_at_once_and_cli_exit_status(tiny_data):
    edit(tiny_data, "plz_zones", 1, confidence="1.5")
    edit(tiny_data, "measurements", 7, parameter="bleii")
    edit(tiny_data, "documents", 1, edition_date="2025-02-30")
    result = CliRunner().invoke(cli, ["validate", str(tiny_data)])
    assert result.exit_code == 1
    out = result.output
    assert "plz_zones, row 1, column confidence" in out
    assert "measurements, row 7, column parameter" in out
    assert "documents, row 1, column edition_date" in out
    assert "Error: 3 problem(s)" in out


def test_build_with_bad_data_writes_nothing(tiny_data, tmp_path):
    out = tmp_path / "build"
    edit(tiny_data, "plz_zones", 1, confidence="1.5")
    result = CliRunner().invoke(cli, ["build", "--data", str(tiny_data), "--out", str(out)])
    assert result.exit_code == 1
    assert "Error: the source data has 1 problem(s); nothing was written" in result.output
    assert not out.exists()


# ---------------------------------------------------------------------------- the mapping


def test_population_shares_of_a_plz_add_up_to_at_most_one(tiny_data):
    edit(tiny_data, "plz_zones", 2, population_share="0.5")  # 0.5 + 0.75 for 76437
    found = problems_of(tiny_data)
    assert has(found, "plz_zones", "share_sum_exceeds_one", row=2, column="population_share")
    message = next(p["message"] for p in found if p["rule"] == "share_sum_exceeds_one")
    assert message == (
        "the population_share values of plz 76437 (rows 2, 3) add up to 1.25, more than 1"
    )


def test_a_street_lies_in_a_zone_of_its_plz(tiny_data):
    append(tiny_data, "streets", plz="76437", street="Seeweg", zone_id="21", length_share="1")
    found = problems_of(tiny_data)
    assert [(p["row"], p["column"], p["rule"], p["message"]) for p in found] == [
        (5, "zone_id", "dangling_reference", "plz 76437, zone_id 21 is no row of plz_zones")
    ]


def test_a_street_of_an_unknown_plz(tiny_data):
    append(tiny_data, "streets", plz="99999", street="Seeweg", zone_id="11", length_share="1")
    found = problems_of(tiny_data)
    assert has(found, "streets", "dangling_reference", row=5, column="plz")


def test_the_length_shares_of_a_street_add_up_to_at_most_one(tiny_data):
    edit(tiny_data, "streets", 2, length_share="0.7")  # Hauptstraße: 0.7 + 0.6
    found = problems_of(tiny_data)
    assert has(found, "streets", "share_sum_exceeds_one", row=2, column="length_share")
    message = next(p["message"] for p in found if p["rule"] == "share_sum_exceeds_one")
    assert "of plz 76437, street Hauptstraße (rows 2, 3) add up to 1.3" in message


def test_streets_may_be_absent(tiny_data):
    (tiny_data / "streets.csv").unlink()
    data, problems = check(tiny_data)
    assert problems.height == 0 and data is not None and data.streets.height == 0


@pytest.mark.parametrize(
    ("text", "column", "says"),
    [
        ("{", None, "is not UTF-8 JSON"),
        ("[]", None, "must hold a JSON object"),
        ('{"sources": {}}', "sources", "sources must be a list"),
        ('{"sources": [{"credit": "x"}]}', "sources[0].title", "sources[0].title is missing"),
        ('{"sources": [{"title": 3}]}', "sources[0].title", "sources[0].title must be text"),
        (
            '{"inputs": {}, "sources": [{"title": "PLZ", "input": "plz_areas"}]}',
            "sources[0].input",
            "names 'plz_areas', which is not in inputs (none)",
        ),
        (
            '{"inputs": {"a": {"modified": "2026-02-30"}}, "sources": [{"title": "A", '
            '"input": "a"}]}',
            "sources[0]",
            "has the date '2026-02-30'",
        ),
    ],
)
def test_a_broken_mapping_json_is_named(tiny_data, text, column, says):
    (tiny_data / "mapping.json").write_text(text, encoding="utf-8")
    found = problems_of(tiny_data)
    assert [(p["table"], p["column"], p["rule"]) for p in found] == [
        ("mapping.json", column, "invalid_provenance")
    ]
    assert says in found[0]["message"]


def test_without_mapping_json_the_contract_names_the_sources(tiny_data):
    from generator.contract import provenance

    (tiny_data / "mapping.json").unlink()
    data = load(tiny_data)
    assert data.mapping is None
    sources = provenance.map_sources(data.mapping, data.plz_zones, data.streets)
    assert [(s.title, s.license, s.date) for s in sources] == [
        ("PLZ-Gebiete", "ODbL-1.0", None),
        ("Straßennamen", "ODbL-1.0", None),
        ("Bevölkerungsgitter, Zensus 2022", "dl-de/by-2-0", None),
    ]
    rows = read_rows(tiny_data / "plz_zones.csv")
    for r in rows:
        r["population_share"] = ""
    write_rows(tiny_data / "plz_zones.csv", rows)
    (tiny_data / "streets.csv").unlink()
    again = load(tiny_data)
    sources = provenance.map_sources(again.mapping, again.plz_zones, again.streets)
    assert [s.title for s in sources] == ["PLZ-Gebiete"]


def test_every_rule_has_a_fix_and_is_documented():
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "data-contract.md").read_text(encoding="utf-8")
    for rule, fix in RULES.items():
        assert fix
        assert f"`{rule}`" in doc, f"rule {rule} is not documented"


@pytest.mark.parametrize("rule", sorted(RULES))
def test_rule_is_exercised_by_a_test(rule):
    source = Path(__file__).read_text(encoding="utf-8")
    assert f'"{rule}"' in source, f"no test plants a fault for {rule}"


def test_overriding_the_register_checks_codes(tiny_data):
    from generator.load import reference_dir

    rows = read_rows(reference_dir() / "parameters.csv")
    rows.append(dict(rows[0], code="Blei-Gesamt"))
    write_rows(tiny_data / "parameters.csv", rows)
    found = problems_of(tiny_data)
    assert has(found, "parameters", "malformed_code", row=len(rows), column="code")


def test_planted_faults_in_a_copy_of_the_sample_are_all_listed(tmp_path):
    import shutil

    from generator.load import sample_data_dir

    data = tmp_path / "sample"
    shutil.copytree(sample_data_dir(), data, ignore=shutil.ignore_patterns("*.py", "*.md"))
    planted = {
        ("plz_zones", 5, "plz"): {"plz": "7643"},
        ("zones", 2, "supplier_id"): {"supplier_id": "999"},
        ("documents", 3, "edition_date"): {"edition_date": "2024-02-30"},
        ("measurements", 10, "parameter"): {"parameter": "pfas_summe_21"},
        ("measurements", 20, "unit"): {"unit": "Eimer"},
        ("suppliers", 1, "name"): {"name": ""},
    }
    for (table, row, _column), change in planted.items():
        edit(data, table, row, **change)
    result = CliRunner().invoke(cli, ["validate", str(data)])
    assert result.exit_code == 1
    listed = {(p["table"], p["row"], p["column"]) for p in problems_of(data)}
    assert set(planted) <= listed
    for table, row, column in planted:
        assert f"{table}, row {row}, column {column}" in result.output


def test_planted_bad_bytes_in_a_copy_of_the_sample_are_all_listed(tmp_path):
    import shutil

    from generator.load import sample_data_dir

    data = tmp_path / "sample"
    shutil.copytree(sample_data_dir(), data, ignore=shutil.ignore_patterns("*.py", "*.md"))
    edit(data, "suppliers", 3, name="Zweckverband\x00Rheinbogen")
    edit(data, "measurements", 10, sample_point="Hochbehälter\r\nAusgang")
    edit(data, "documents", 7, title="MARK")
    edit(data, "zones", 4, name="MARK")
    edit(data, "plz_zones", 6, confidence="MARK")
    for table, broken in (
        ("documents", b',"Analyse'),  # a quote opened and never closed
        ("zones", b",N\xf6rd"),  # "Nörd" saved as Latin-1: not UTF-8
        ("plz_zones", b",0.9,0.1"),  # one cell too many
    ):
        path = data / f"{table}.csv"
        path.write_bytes(path.read_bytes().replace(b",MARK", broken))
    planted = {
        ("suppliers", 3, "name"): "control_character",
        ("measurements", 10, "sample_point"): "control_character",
        ("documents", 7, "title"): "unterminated_quote",
        ("zones", 4, "name"): "invalid_encoding",
        ("plz_zones", 6, None): "field_count",
    }
    result = CliRunner().invoke(cli, ["validate", str(data)])
    assert result.exit_code == 1
    found = {(p["table"], p["row"], p["column"]): p["rule"] for p in problems_of(data)}
    assert found == planted
    for (table, row, column), rule in planted.items():
        where = f"{table}, row {row}" + (f", column {column}" if column else "")
        assert any(
            line.startswith(where) and f"[{rule}]" in line for line in result.output.splitlines()
        )
