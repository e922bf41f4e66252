"""The reference tables shipped with the package (generator/reference/).

The register, the limits, the pesticide decisions, the explanations and the hardness ranges.

A data directory may override each with its own table of the same shape.
"""

from __future__ import annotations

from generator.api.verdicts import PESTICIDE_DECISIONS
from generator.contract import rules
from generator.contract.constraints import (
    Choices,
    InRegister,
    LimitValue,
    NonNegative,
    NotBefore,
    Pattern,
    References,
    Unit,
)
from generator.contract.formats import CODE, EXPLAINED_FIELDS, SOURCES, URL
from generator.contract.model import DATE, FLOAT, PACKAGED, STR, Column, Table
from generator.contract.table_rules import NonOverlapping
from generator.values import parse

PARAMETERS = Table(
    name="parameters",
    meaning="The parameter register.",
    columns=(
        Column("code", STR, True, "ASCII lower_snake_case id.", "pfas_summe_20", (CODE,)),
        Column("name_de", STR, True, "German name.", "Summe PFAS-20"),
        Column("name_en", STR, True, "English name.", "Sum of PFAS (20 substances)"),
        Column(
            "unit", STR, False, "Unit values are reported and compared in.", "µg/l", (Unit(),), ""
        ),
        Column("group", STR, True, "Group of the parameter.", "pfas"),
        Column("cas_number", STR, False, "CAS registry number, where one exists.", "335-67-1"),
        Column("annex", STR, False, "Annex of the TrinkwV 2023 listing it.", "Anlage 2 Teil I"),
    ),
    key=("code",),
    if_absent=PACKAGED,
)

LIMITS = Table(
    name="limits",
    meaning="Versioned limit values of the TrinkwV 2023.",
    columns=(
        Column("code", STR, True, "Parameter code.", "pfas_summe_20", (InRegister(),)),
        Column(
            "kind",
            STR,
            True,
            "What kind of value the ordinance sets.",
            "grenzwert",
            (Choices(parse.LIMIT_KINDS),),
        ),
        Column(
            "limit_value",
            STR,
            True,
            "Number, `min..max` range or requirement text.",
            "0.1",
            (LimitValue("kind"),),
        ),
        Column("unit", STR, False, "Unit of the value.", "µg/l", (Unit(),), default=""),
        Column("valid_from", DATE, True, "First day the value applies (inclusive).", "2026-01-12"),
        Column(
            "valid_until",
            DATE,
            False,
            "Last day (inclusive); empty = open-ended.",
            "",
            (NotBefore("valid_from"),),
        ),
        Column("legal_basis", STR, True, "Where the value is set.", "TrinkwV 2023, Anlage 2"),
        Column("note", STR, False, "Conditions attached to the value (English).", ""),
        Column("note_de", STR, False, "The same conditions in German.", ""),
        Column(
            "source_url",
            STR,
            False,
            "Text of the annex (or of the guidance value).",
            "https://www.gesetze-im-internet.de/trinkwv_2023/anlage_2.html",
            (URL,),
        ),
    ),
    key=("code", "valid_from"),
    rules=(NonOverlapping("code", start="valid_from", end="valid_until"),),
    if_absent=PACKAGED,
)

PESTICIDES = Table(
    name="pesticides",
    meaning="How the ordinance's values for pesticides apply to each pesticide and metabolite "
    "of the register, with the sources of each decision.",
    columns=(
        # No register check: a data directory that brings its own register keeps the packaged
        # decisions, and codes its register lacks are ignored.
        Column(
            "code",
            STR,
            True,
            "Parameter code (ignored where the register has no such code).",
            "desphenylchloridazon",
            (CODE,),
        ),
        Column(
            "decision",
            STR,
            True,
            "active_substance, active_substance_strict, relevant_metabolite, "
            "non_relevant_metabolite, non_relevant_metabolite_gow, unclear or aggregate.",
            "non_relevant_metabolite",
            (Choices(tuple(PESTICIDE_DECISIONS)),),
        ),
        Column("legal_basis", STR, True, "Where the decision rests.", "TrinkwV 2023, Anlage 2"),
        Column("note_de", STR, True, "The decision in a German sentence.", "Kein Grenzwert."),
        Column("source_title", STR, False, "Title of the main source.", ""),
        Column("source_url", STR, False, "Address of the main source.", "", (URL,)),
        Column("source_date", STR, False, "Date of the main source, as known.", "2019"),
        Column("confidence", STR, False, "two_sources, one_source or assumed.", "one_source"),
        Column("second_source_url", STR, False, "Address of a second source.", "", (URL,)),
        Column("quote", STR, False, "The passages the decision rests on.", ""),
    ),
    key=("code",),
    if_absent=PACKAGED,
)

EXPLANATIONS = Table(
    name="explanations",
    meaning="Plain German explanations of parameters for the site: what a substance is, "
    "where it comes from, what its limit protects and what a person can do, with sources.",
    columns=(
        Column(
            "topic",
            STR,
            True,
            "Id of the explanation: a parameter code, or a name for a group of parameters.",
            "nitrat",
            (CODE,),
        ),
        Column("title_de", STR, True, "What the explanation is about.", "Nitrat"),
        Column("what", STR, True, "What it is.", "Nitrat ist eine Stickstoffverbindung."),
        Column("origin", STR, True, "Where it comes from.", "Aus Dünger und Boden."),
        Column(
            "limit_protects",
            STR,
            True,
            "What the limit (or other value) protects, and its legal weight.",
            "Das ist ein verbindlicher Grenzwert.",
        ),
        Column(
            "what_to_do",
            STR,
            True,
            "What a person can do.",
            "Fragen Sie Ihren Wasserversorger.",
        ),
        Column(
            "sources",
            STR,
            True,
            "The public sources the sentences rest on, each as `title | URL`.",
            "TrinkwV 2023, Anlage 2 | https://www.gesetze-im-internet.de/trinkwv_2023/anlage_2.html",
            (SOURCES,),
        ),
        Column("source_quote", STR, False, "The passages relied on, quoted.", ""),
        Column(
            "unsourced",
            STR,
            False,
            "Fields whose sentences are general knowledge, not taken from a source (the site "
            "says so): names from " + ", ".join(EXPLAINED_FIELDS) + ", separated by spaces.",
            "origin",
            (
                Pattern(
                    r"^("
                    + "|".join(EXPLAINED_FIELDS)
                    + r")( ("
                    + "|".join(EXPLAINED_FIELDS)
                    + r"))*$",
                    rules.INVALID_CHOICE,
                    "field names from " + ", ".join(EXPLAINED_FIELDS),
                ),
            ),
        ),
    ),
    key=("topic",),
    if_absent=PACKAGED,
)

EXPLAINED_PARAMETERS = Table(
    name="explained_parameters",
    meaning="Which explanation the site shows for a parameter.",
    columns=(
        # No register check, as for `pesticides`: codes a replaced register lacks are ignored.
        Column(
            "code",
            STR,
            True,
            "Parameter code (ignored where the register has no such code).",
            "nitrat",
            (CODE,),
        ),
        Column(
            "topic",
            STR,
            True,
            "The explanation.",
            "nitrat",
            (References("explanations", "topic"),),
        ),
    ),
    key=("code",),
    if_absent=PACKAGED,
)

HARDNESS_RANGES = Table(
    name="hardness_ranges",
    meaning="The hardness ranges of § 9 WRMG (weich, mittel, hart) with dosing advice.",
    columns=(
        Column(
            "range",
            STR,
            True,
            "Name of the range.",
            "mittel",
            (Choices(("weich", "mittel", "hart")),),
        ),
        Column(
            "min_mmol_l",
            FLOAT,
            True,
            "Lowest value of the range, in millimoles of calcium carbonate per litre. A value on "
            "a bound two ranges share belongs to the narrower one (§ 9 WRMG: weich 'weniger "
            "als 1,5', mittel '1,5 bis 2,5', hart 'mehr als 2,5').",
            "1.5",
            (NonNegative(),),
        ),
        Column(
            "max_mmol_l",
            FLOAT,
            False,
            "Highest value of the range; empty = no upper end.",
            "2.5",
            (NonNegative(),),
        ),
        Column("advice_de", STR, True, "The range and dosing advice in German.", ""),
        Column(
            "source_url",
            STR,
            True,
            "Where the range is set.",
            "https://www.gesetze-im-internet.de/wrmg/__9.html",
            (URL,),
        ),
    ),
    key=("range",),
    if_absent=PACKAGED,
)

REFERENCE_TABLES: tuple[Table, ...] = (
    PARAMETERS,
    LIMITS,
    PESTICIDES,
    EXPLANATIONS,
    EXPLAINED_PARAMETERS,
    HARDNESS_RANGES,
)
