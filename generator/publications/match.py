"""Match published parameter names and units to the register, conservatively.

A name is mapped to a code only by the alias register (`aliases.csv`, the register's own
codes and names) after the normalisation rules of `generator.publications.names`; never by
similarity. Similar names are only offered as suggestions, for a person to decide. Every
name that is not mapped gets a status and a reason:

* `not_in_register`: the alias register lists the spelling as no register parameter
  (ion balance, acid capacity to pH 8.2, ...);
* `different_quantity`: the name is a register parameter, but its markers say another
  quantity (the dissolved fraction, a value given as N, a total where the register has a
  single form);
* `ambiguous`: the markers contradict each other, or the formula belongs to another code;
* `unsupported_statistic`: an aggregate the contract cannot hold (median, percentile);
* `no_match`: nothing sure; `suggestions` lists up to three codes.

A name that is matched can still fail on its unit (`unit_error`): unknown, missing where
the parameter has one, or known but not convertible to the parameter's register unit.
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import polars as pl

from generator.progress import StepPrinter
from generator.publications.aliases import AliasIndex
from generator.publications.names import (
    FORMULAS,
    ParsedName,
    brackets,
    expand_abbreviations,
    formula,
    key,
    parse,
    swapped,
    with_synonyms,
    without_acronym,
    without_context,
    without_sum_word,
    without_temperature,
)
from generator.values import units

MATCHED = "matched"
STATUSES: dict[str, str] = {
    MATCHED: "The name is a register parameter and the unit fits it.",
    "unit_error": "The name is sure, but the unit is unknown, missing where the parameter has "
    "one, or does not fit the parameter.",
    "not_in_register": "The alias register says this name is no register parameter.",
    "different_quantity": "The name is a register parameter, but its markers say another "
    "quantity (dissolved fraction, a value given as N or P, ...).",
    "ambiguous": "The markers contradict each other, or the formula belongs to another code.",
    "unsupported_statistic": "The name is an aggregate the contract has no value for (median, "
    "percentile, number of samples).",
    "no_match": "No sure match; suggestions, if any, are printed, never applied.",
}

# What a value of these parameters is given as; another basis is another quantity.
BASES: dict[str, tuple[str, ...]] = {
    "nitrat": ("NO3",),
    "nitrit": ("NO2",),
    "ammonium": ("NH4",),
    "phosphat": ("PO4",),
    "silikat": ("SiO2",),
    "oxidierbarkeit": ("O2",),
    "calcitloesekapazitaet": ("CaCO3",),
    # The Wasch- und Reinigungsmittelgesetz gives hardness as millimoles of calcium carbonate
    # per litre: `Gesamthärte ber. als Calciumcarbonat` in mmol/l is the total hardness.
    "gesamthaerte": ("CaCO3", "Calciumcarbonat"),
    "summe_erdalkalien": ("CaCO3", "Calciumcarbonat"),
    "freie_kohlensaeure": ("CO2",),
}
# `gesamt` after a name that the register holds as a total names the same quantity.
TOTAL_GROUPS = ("metals",)
TOTAL_CODES = ("cyanid", "toc", "pestizide_gesamt")
# `gelöst` is part of these parameters' definition: free carbonic acid is the dissolved
# carbon dioxide.
DISSOLVED_CODES = ("doc", "sauerstoff", "freie_kohlensaeure")
OUTLET_SUFFIX = "_wasserwerksausgang"
"""A register code that ends so holds a parameter at the works outlet (nitrite); the code
before it holds the same parameter at the tap."""

SUGGESTIONS = 3
SUGGESTION_CUTOFF = 0.75


@dataclass(frozen=True)
class Match:
    """What one published (name, unit) pair is."""

    name: str
    unit: str
    code: str
    """Empty when there is no sure match (or the name is not in the register)."""
    statistic: str
    """`sample`, `min`, `mean` or `max`; empty for an unsupported statistic."""
    canonical_unit: str
    """The canonical symbol of the unit read; empty when unknown (or none was given)."""
    status: str
    reason: str
    register_unit: str
    factor: float | None
    """Multiply a value in the published unit by this to get the register unit."""
    on_site: bool
    reporting_limit: str
    unit_text: str
    """The unit as read: the unit column, else the unit printed in the name."""
    suggestions: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == MATCHED


CANDIDATES = 40
"""Spellings compared in full with a name: those sharing the most trigrams with it."""


def _trigrams(key: str) -> set[str]:
    padded = f"  {key} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


class Suggester:
    """Close spellings of a name through a trigram index, built once per alias index.

    `difflib.get_close_matches` over every known spelling costs milliseconds per name; a
    table of a million distinct unknown names would take hours. The index picks the
    spellings that share the most trigrams with the name, and only those are compared.
    """

    def __init__(self, index: AliasIndex):
        self.keys = [k for k, e in index.entries.items() if e.code]
        self.codes = [index.entries[k].code for k in self.keys]
        postings: defaultdict[str, list[int]] = defaultdict(list)
        for i, spelling in enumerate(self.keys):
            for gram in _trigrams(spelling):
                postings[gram].append(i)
        self.postings = dict(postings)

    def close(self, probe: str) -> list[str]:
        """Codes of the spellings that look like `probe`, best first."""
        shared: Counter[int] = Counter()
        for gram in _trigrams(probe):
            shared.update(self.postings.get(gram, ()))
        candidates = {self.keys[i]: self.codes[i] for i, _ in shared.most_common(CANDIDATES)}
        close = difflib.get_close_matches(probe, list(candidates), n=20, cutoff=SUGGESTION_CUTOFF)
        return [candidates[k] for k in close]


_SUGGESTERS: dict[int, tuple[AliasIndex, Suggester]] = {}


def suggester(index: AliasIndex) -> Suggester:
    """Return the suggester of an alias index (built on first use, kept with the index)."""
    held = _SUGGESTERS.get(id(index))
    if held is None or held[0] is not index:
        held = (index, Suggester(index))
        _SUGGESTERS.clear()  # one register per run; never a growing cache
        _SUGGESTERS[id(index)] = held
    return held[1]


def _suggest(parsed: ParsedName, index: AliasIndex) -> tuple[str, ...]:
    """Up to three codes whose known spellings look like the name (never applied)."""
    found: list[str] = list(parsed.formulas)
    close = suggester(index)
    for probe in (parsed.base_key, parsed.full_key):
        found += close.close(probe)
    return tuple(dict.fromkeys(found))[:SUGGESTIONS]


SUM_CODES = (
    "thm",
    "pak",
    "tetrachlorethen_trichlorethen",
    "pestizide_gesamt",
    "pfas_summe_20",
    "pfas_summe_4",
    "haa5",
    "summe_erdalkalien",
)
"""Parameters that are sums: the word `Summe` beside their name says nothing new."""
TEMPERATURE_CONDITION_CODES = (
    "ph_wert",
    "sauerstoff",
    "freie_kohlensaeure",
    "saeurekapazitaet_ks43",
    "basekapazitaet_kb82",
    "redox_potential",
    "temperatur",
)
"""Parameters for which a temperature beside the name is the measuring condition (`pH-Wert
bei 20 °C`), not part of what is measured. Not so for conductivity (referred to 25 °C) or
colony counts (22 °C and 36 °C are two parameters)."""
_MIN_PREFIX = 4


def _lookup(text: str, index: AliasIndex) -> tuple[ParsedName, tuple[str, str, str]]:
    parsed = parse(text)
    return parsed, _one_name(parsed, index)


def _variants(name: str) -> list[tuple[str, tuple[str, ...]]]:
    """Return the name and the spellings the rules make of it.

    Each comes with the codes it may name (empty: any code).
    """
    out: list[tuple[str, tuple[str, ...]]] = []
    spelled = with_synonyms(expand_abbreviations(name))
    written = [name, expand_abbreviations(name), spelled]
    written += [t for t in (without_acronym(w) for w in written) if t]
    for text in dict.fromkeys(written):
        for summed, codes in ((text, ()), (without_sum_word(text), SUM_CODES)):
            for ordered in dict.fromkeys([summed, swapped(summed) or summed]):
                out.append((ordered, codes))
                cooled = without_temperature(ordered)
                if cooled and not codes:  # a sum has no measuring temperature
                    out.append((cooled, TEMPERATURE_CONDITION_CODES))
    return list(dict.fromkeys(out))


def _name_status(parsed: ParsedName, index: AliasIndex) -> tuple[str, str, str]:
    """Return (code, status, reason) for the name: as printed, else by the rules.

    A name with markers of place, method or rule (`names.without_context`) is read without
    them, and what they said is read after. The rules (`names.expand_abbreviations`,
    `with_synonyms`, `without_acronym`, `without_sum_word`, `swapped`,
    `without_temperature`, an explanation in brackets) each keep the meaning of the name;
    a name is mapped by them only when every spelling they make that is known names the
    same code.
    """
    first = _one_name(parsed, index)
    if first[1] != "no_match":
        return first
    bare = without_context(parsed.text)
    if bare is not None:
        # The name without its place, method and rule, read by all the rules (the rules
        # read no markers of that kind); what those markers said is read here.
        code, status, reason = _name_status(parse(bare), index)
        if status == MATCHED:
            return _placed(code, parsed, index, reason or f"read as {bare!r}")
        return (code, status, reason) if status != "no_match" else first
    found: dict[str, tuple[str, str, str]] = {}
    for text, codes in _variants(parsed.text)[1:]:
        _, (code, status, reason) = _lookup(text, index)
        if status == "no_match" or (codes and code not in codes):
            continue
        found.setdefault(code or status, (code, status, reason or f"read as {text!r}"))
    spelled = with_synonyms(expand_abbreviations(parsed.text))
    for text in dict.fromkeys([parsed.text, expand_abbreviations(parsed.text), spelled]):
        explained = _explained(text, index)
        if explained:
            found.setdefault(explained[0], explained)
    if parsed.base != parsed.text:
        # The explanation behind other markers (`Färbung (SAK 436 nm) (ICP-MS)`): those
        # markers are read as with any name.
        for text in dict.fromkeys([parsed.base, with_synonyms(expand_abbreviations(parsed.base))]):
            explained = _explained(text, index)
            if explained:
                marked = _with_markers(explained[0], parsed, index, explained[2])
                found.setdefault(marked[0] or marked[1], marked)
    if len(found) == 1:
        return next(iter(found.values()))
    if len(found) > 1:
        names = ", ".join(sorted(k for k in found))
        return "", "ambiguous", f"the spellings of the name point to different parameters ({names})"
    return first


def _explained(name: str, index: AliasIndex) -> tuple[str, str, str] | None:
    """Read a name explained in brackets (`TOC (organisch gebundener Kohlenstoff)`).

    The bracket names a parameter, and the name before it is that parameter or the start
    of its name (`Säurekapazität (m-Wert)`).
    """
    split = brackets(name)
    if split is None:
        return None
    outside, inner = split
    _, (code, status, _) = _lookup(inner, index)
    if status != MATCHED or not code:
        return None
    _, (out_code, out_status, _) = _lookup(outside, index)
    start = key(outside)
    if out_status == MATCHED and out_code == code:
        agrees = True
    else:
        agrees = len(start) >= _MIN_PREFIX and any(
            k.startswith(start) and e.code == code for k, e in index.entries.items()
        )
    if not agrees:
        return None
    return code, MATCHED, f"{inner!r} in brackets names it, and {outside!r} agrees"


def _one_name(parsed: ParsedName, index: AliasIndex) -> tuple[str, str, str]:
    """Return (code, status, reason) for the name alone."""
    whole = index.get(parsed.full_key)
    if whole is not None:  # the spelling as printed is known, markers and all
        return whole.code, MATCHED if whole.code else "not_in_register", whole.note
    entry = index.get(parsed.base_key)
    if entry is None:
        code = formula(parsed.base)
        if code and parsed.base_key == parsed.full_key:  # the name is only a formula (SO4)
            return code, MATCHED, f"the formula {parsed.base} names it"
        return "", "no_match", "no alias, register name or code matches the name"
    if not entry.code:
        return "", "not_in_register", entry.note
    return _with_markers(entry.code, parsed, index, entry.note)


def _with_markers(
    code: str, parsed: ParsedName, index: AliasIndex, note: str
) -> tuple[str, str, str]:
    """Return (code, status, reason) for a name whose base is `code`, its markers read."""
    if parsed.conflicts:
        return "", "ambiguous", "; ".join(parsed.conflicts)
    own = [b.casefold() for b in BASES.get(code, ())]
    other = [
        c
        for c in parsed.formulas
        if c != code and not any(f.casefold() in own for f, _ in FORMULAS.get(c, ()))
    ]
    if other:
        return "", "ambiguous", f"the name says {code}, but its formula is that of {other[0]}"
    if parsed.basis and parsed.basis.casefold() not in [b.casefold() for b in BASES.get(code, ())]:
        given = " or ".join(BASES.get(code, ())) or "itself"
        return (
            "",
            "different_quantity",
            (
                f"the value is given as {parsed.basis}; the register gives {code} as {given}, "
                "and no conversion is printed with it"
            ),
        )
    if parsed.fraction == "total" and not (
        index.group(code) in TOTAL_GROUPS or code in TOTAL_CODES
    ):
        return "", "different_quantity", f"a total; the register's {code} is not defined as one"
    if parsed.fraction == "dissolved" and code not in DISSOLVED_CODES:
        return (
            "",
            "different_quantity",
            (
                f"the dissolved (filtered) fraction; the register's {code} is the total, as the "
                "ordinance means it"
            ),
        )
    if parsed.unsupported_statistic:
        return (
            "",
            "unsupported_statistic",
            (f"{parsed.unsupported_statistic} is not one of sample, min, mean, max"),
        )
    return _placed(code, parsed, index, note)


def _placed(code: str, parsed: ParsedName, index: AliasIndex, note: str) -> tuple[str, str, str]:
    """Read the laboratory and the place of the sample of a name whose base is `code`."""
    if parsed.lab and code == "temperatur":
        return (
            "",
            "different_quantity",
            "a temperature read in the laboratory is the sample's there, not the water's",
        )
    if parsed.sampling:
        return _sampled(code, parsed.sampling, index, note)
    return code, MATCHED, note


def _sampled(code: str, place: str, index: AliasIndex, note: str) -> tuple[str, str, str]:
    """Read a parameter with the place its sample was taken (`Nitrit (Netzprobe)`).

    The place does not change what is measured, except where the register holds a
    parameter once at the tap and once at the works outlet: then the tap's code needs a
    sample from the network, the outlet's code one from the outlet; water taken in the
    works (`Reinwasser`) is not said to be either.
    """
    if code.endswith(OUTLET_SUFFIX):
        if place == "outlet":
            return code, MATCHED, note
        return "", "ambiguous", f"{code} is the works outlet's, but the sample is from the {place}"
    outlets = _outlet_codes(code, index)
    if not outlets or place == "network":
        return code, MATCHED, note or f"the place of the sample ({place}) is no other quantity"
    if place == "outlet" and outlets == (code + OUTLET_SUFFIX,):
        return outlets[0], MATCHED, "a sample from the works outlet"
    return (
        "",
        "ambiguous",
        f"the register holds {code} at the tap and {', '.join(outlets)} at the works outlet; "
        f"the place of the sample ({place}) does not say which",
    )


def _outlet_codes(code: str, index: AliasIndex) -> tuple[str, ...]:
    """Return the register's codes for `code` at the works outlet (`nitrit_wasserwerksausgang`)."""
    return tuple(
        c
        for c in index.parameters["code"].to_list()
        if c.startswith(code + "_") and c.endswith(OUTLET_SUFFIX)
    )


def _unit_text(parsed: ParsedName, unit: str) -> tuple[str, str]:
    """Return (unit as read, problem or '') from the unit column and the name."""
    column = unit.strip()
    if column and parsed.unit and units.canonical(column) != units.canonical(parsed.unit):
        return column, f"the name gives the unit {parsed.unit}, the unit column {column}"
    return (column or parsed.unit or ""), ""


def _substance_problem(code: str, substance: str) -> str:
    """Why a value given as `substance` (`mg/l N`) is not `code`'s value, or ''.

    A unit may name what a mass is counted as: `mg/l NO3` for nitrate is the register's own
    basis, `mg/l Fe` for iron its element; `mg/l N` for nitrate is the nitrogen in it, a
    smaller number, and is never converted.
    """
    own = [b.casefold() for b in BASES.get(code, ())]
    if substance.rstrip("+-").casefold() in own or formula(substance) == code:
        return ""
    given = " or ".join(BASES.get(code, ())) or "itself"
    return (
        f"the unit gives the value as {substance}; the register gives {code} as {given}, "
        "and no conversion is printed with it"
    )


def match_one(name: str, unit: str | None, index: AliasIndex) -> Match:
    """Match one published name and unit (see the module doc)."""
    unit = unit or ""
    parsed = parse(name)
    code, status, reason = _name_status(parsed, index)
    unit_text, unit_problem = _unit_text(parsed, unit)
    if status == MATCHED and (split := units.split_substance(unit_text)):
        problem = _substance_problem(code, split[1])
        if problem:
            code, status, reason = "", "different_quantity", problem
        else:
            # `mg/l NO3` for nitrate is the register's mg/l: the value is kept in that unit.
            unit_text = split[0]
    symbol = units.canonical(unit_text)
    register_unit = index.unit(code) if code else ""
    factor = units.factor(unit_text, register_unit, code) if code else None
    if status == MATCHED:
        shown = unit_text or "(none)"
        if unit_problem:
            status, reason = "unit_error", unit_problem
        elif symbol is None:
            status, reason = "unit_error", f"unknown unit {unit_text!r}"
        elif factor is None and not unit_text:
            status, reason = "unit_error", f"no unit given; {code} is published in {register_unit}"
        elif factor is None:
            status, reason = (
                "unit_error",
                (
                    f"the unit {shown} does not fit {code} "
                    f"(register unit {register_unit or '(none)'})"
                ),
            )
    statistic = "" if status == "unsupported_statistic" else (parsed.statistic or "sample")
    return Match(
        name=name,
        unit=unit,
        code=code,
        statistic=statistic,
        canonical_unit=symbol or "",
        status=status,
        reason=reason,
        register_unit=register_unit,
        factor=factor if status == MATCHED else None,
        on_site=parsed.on_site,
        reporting_limit=parsed.reporting_limit or "",
        unit_text=unit_text,
        suggestions=_suggest(parsed, index) if status == "no_match" else (),
    )


MATCH_COLUMNS = (
    "name",
    "unit",
    "code",
    "statistic",
    "canonical_unit",
    "status",
    "reason",
    "register_unit",
    "factor",
    "on_site",
    "reporting_limit",
    "suggestions",
)
"""The columns of `match_frame` (and of `trinkwasser parameters match`), in order."""


def match_pairs(
    pairs: Iterable[tuple[str, str | None]],
    index: AliasIndex,
    progress: StepPrinter | None = None,
    total: int | None = None,
) -> dict[tuple[str, str], Match]:
    """Match each distinct (name, unit) pair once (counted on `progress`)."""
    distinct = dict.fromkeys((n, u or "") for n, u in pairs)
    progress = progress or StepPrinter(enabled=False)
    items = progress.track(distinct, "Matching names", total or len(distinct), "names")
    return {(name, unit): match_one(name, unit, index) for name, unit in items}


def match_frame(
    frame: pl.DataFrame, index: AliasIndex, progress: StepPrinter | None = None
) -> pl.DataFrame:
    """Return one row per row of `frame` (columns `name`, `unit`): `MATCH_COLUMNS`, `unit_read`.

    Python looks at each distinct (name, unit) pair once; the rows are joined back.
    """
    pairs = frame.select(pl.col("name"), pl.col("unit").fill_null("")).unique(maintain_order=True)
    matches = match_pairs(pairs.iter_rows(), index, progress, pairs.height)
    table = pl.DataFrame(
        [
            {
                "name": m.name,
                "unit": m.unit,
                "code": m.code,
                "statistic": m.statistic,
                "canonical_unit": m.canonical_unit,
                "status": m.status,
                "reason": m.reason,
                "register_unit": m.register_unit,
                "factor": m.factor,
                "on_site": m.on_site,
                "reporting_limit": m.reporting_limit,
                "suggestions": " ".join(m.suggestions),
                "unit_read": m.unit_text,
            }
            for m in matches.values()
        ],
        schema={
            "name": pl.String,
            "unit": pl.String,
            "code": pl.String,
            "statistic": pl.String,
            "canonical_unit": pl.String,
            "status": pl.String,
            "reason": pl.String,
            "register_unit": pl.String,
            "factor": pl.Float64,
            "on_site": pl.Boolean,
            "reporting_limit": pl.String,
            "suggestions": pl.String,
            "unit_read": pl.String,
        },
    )
    keyed = frame.select(pl.col("name"), pl.col("unit").fill_null(""))
    return keyed.join(table, on=["name", "unit"], how="left", maintain_order="left").select(
        *MATCH_COLUMNS, "unit_read"
    )
