"""Read a parameter name as suppliers print it: the name, and what is printed around it.

`Nitrat (NO3-) [mg/l] Mittelwert`, `Quecksilber [Bestimmungsgrenze 0,0001]`,
`pH-Wert (vor Ort)`, `Eisen, gesamt`, `Nitrat-N`: a published name carries the parameter
and, around it, markers: a unit, a reporting limit, a statistic, an on-site marker, the
element symbol or ion formula, a fraction (gesamt, gelöst) or the basis a value is given
as (als N). `parse` peels those markers off (in brackets, or after the name) and returns
the rest as `base`; `key` turns a name into the form names are compared in.

Nothing here decides which parameter a name is; `generator.publications.match` does, and
only where the alias register says so.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from generator.values import units

# ---------------------------------------------------------------------------- keys


def key(text: str) -> str:
    """Return the form names are compared in: `Härte`, `HAERTE` and `Harte` are one key.

    Compatibility characters are decomposed (`²` is `2`), accents dropped, case folded,
    `ae`/`oe`/`ue`/`ss` read as `a`/`o`/`u`/`s` (so a lost umlaut still matches), a
    temperature `22 °C` or `22 Grad C` is `22c`, `bei`/`bis` before a number or pH is
    dropped, and everything but letters and digits is removed (`1,2-Dichlorethan` and
    `1.2 Dichlorethan` are one key).
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    # A degree sign typed as a letter o (`25oC`) or left without its C (`22°`).
    text = re.sub(r"(\d)\s*(?:°|º|˚|o|grad)?\s*(?:c|celsius)\b", r"\1c", text)
    text = re.sub(r"(\d)\s*[°º˚](?!\s*[a-z])", r"\1c", text)
    # `pH-Wert 4,3` in a capacity's name is `pH 4,3`.
    text = re.sub(r"\bph[\s-]*wert\b(?=\s*[=:]?\s*\d)", "ph", text)
    text = re.sub(r"\b(?:bei|bis)\s+(?=\d|ph\b)", "", text)
    for a, b in (("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s")):
        text = text.replace(a, b)
    return re.sub(r"[^a-z0-9]+", "", text)


# ---------------------------------------------------------------------------- markers

STATISTIC_MARKERS: dict[str, str] = {
    "mittelwert": "mean",
    "mittel": "mean",
    "mittelw": "mean",
    "durchschnitt": "mean",
    "durchschnittswert": "mean",
    "durchschnittswerte": "mean",
    "mittelwerte": "mean",
    "jahresmittelwert": "mean",
    "jahresmittelwerte": "mean",
    "jahresmittel": "mean",
    "jahresdurchschnitt": "mean",
    "jahresdurchschnittswert": "mean",
    "arithmetisches mittel": "mean",
    "minimalwerte": "min",
    "minima": "min",
    "maximalwerte": "max",
    "maxima": "max",
    "mw": "mean",
    "ø": "mean",
    "minimum": "min",
    "min": "min",
    "minimalwert": "min",
    "minwert": "min",
    "kleinster wert": "min",
    "maximum": "max",
    "max": "max",
    "maximalwert": "max",
    "maxwert": "max",
    "hochstwert": "max",
    "grosster wert": "max",
}
"""Statistic markers (in the form `_marker` compares) -> statistic of the contract."""

UNSUPPORTED_STATISTICS = ("median", "perzentil", "90 perzentil", "p90", "anzahl", "n")
"""Statistics the contract has no value for: such a name is reported, never imported."""

ON_SITE_MARKERS = (
    "vor ort",
    "vor ort gemessen",
    "vor ort messung",
    "vor ort bestimmt",
    "feldmessung",
    "feld",
    "bei entnahme",
    "bei probenahme",
    "bei pn",
)
METHOD_MARKERS = (
    "elektrometrisch",
    "elektrochemisch",
    "elektrochem",
    "potentiometrisch",
    "nephelometrisch",
    "photometrisch",
    "spektralphotometrisch",
    "spektrometrisch",
    "titrimetrisch",
    "gravimetrisch",
    "ionenchromatographisch",
    "ionenchromatografisch",
    "berechnet",
    "ber",
    "gemessen",
    "quantitativ",
    "colilert",
    "colilert 18",
    "mpn",
    "membranfiltration",
    "quanti tray",
    "quant",
    "organoleptisch",
    "sensorisch",
    "visuell",
    "iodometrisch",
    "jodometrisch",
    "icp ms",
    "icp oes",
    "icp",
    "aas",
    "gc ms",
    "gc",
    "hplc",
    "lc ms",
    "lc ms/ms",
    "ic",
    "ionenchromatographie",
    "ionenchromatografie",
    "massenspektrometrie",
)
"""How a value was measured or obtained: the quantity is the same, so these are dropped.
`qualitativ` is no such marker: a qualitative turbidity or colour is another finding than
the measured one (the alias register says which)."""
_METHOD_PATTERN = re.compile(
    r"(?:[a-z]+(?:metrisch|metr|graphisch|grafisch)"  # `photometr.`, `iodometrisch`
    r"|(?:[a-z]+ )?[a-z]*agar(?: [a-z0-9]+)*"  # a culture medium: `G.-Agar`, `Hefeextrakt-Agar`
    r"|(?:din|dev|en|iso)(?: [a-z]+)*(?: [a-z]*\d[a-z0-9:/]*)+)"  # `DIN EN ISO 10304-1`
)
"""Method markers by their form (in the form `_marker` compares)."""
_REFERENCE = re.compile(
    r"(?i)(?:nach|gem\.?|gemäß|lt\.?|laut)\s+.*(?:gesetz|wrmg|waschmg|verordnung|trinkwv|"
    r"din|iso|dvgw|norm)"
)
"""A law or standard a value is given by (`nach Deutschem Waschmittelgesetz`, `gem. DIN
38404`): a reference, not part of what is measured."""
LAB_MARKERS = ("labor", "im labor", "labormessung", "labormesswert")
NETWORK_MARKERS = (
    "am zapfhahn",
    "zapfhahn",
    "zapfstelle",
    "netz",
    "im netz",
    "netzprobe",
    "ortsnetz",
    "rohrnetz",
    "verteilungsnetz",
    "im verteilungsnetz",
    "verteilernetz",
    "hausanschluss",
    "beim verbraucher",
)
OUTLET_MARKERS = (
    "ausgang wasserwerk",
    "ausgang des wasserwerks",
    "am ausgang des wasserwerks",
    "am ausgang wasserwerk",
    "wasserwerksausgang",
    "werksausgang",
    "ww ausgang",
    "ausgang ww",
)
WORKS_MARKERS = ("reinwasser", "wasserwerk", "im wasserwerk", "nach aufbereitung")
SAMPLING_MARKERS: dict[str, str] = {
    **dict.fromkeys(NETWORK_MARKERS, "network"),
    **dict.fromkeys(OUTLET_MARKERS, "outlet"),
    **dict.fromkeys(WORKS_MARKERS, "works"),
}
"""Where a sample was taken -> `network` (at the tap, in the distribution network),
`outlet` (at the works outlet) or `works` (in the works, after treatment). The place does
not change what is measured, except for a parameter the register holds once at the tap and
once at the works outlet (nitrite): `generator.publications.match` decides that."""
TOTAL_MARKERS = ("gesamt", "ges", "insgesamt", "total")
DISSOLVED_MARKERS = ("gelost", "gelöst", "geloest", "filtriert", "filtrierbar")
_LIMIT_WORDS = r"(?:BG|NG|NWG|BSG|Bestimmungsgrenze|Nachweisgrenze)"
_REPORTING_LIMIT = re.compile(
    rf"(?i)^{_LIMIT_WORDS}\s*[:=]?\s*<?\s*(?P<number>[0-9][0-9.,]*)\s*(?P<unit>.*?)\s*$"
)
BASIS_SUBSTANCES = ("CaCO3", "N", "P")
"""Substances a value is given as that are no register parameter's formula: in brackets
alone they are the basis (`(CaCO3)` as `als CaCO3`). A formula of a parameter (`(NO3)`,
`(O2)`) is read as that formula, and `match` accepts it where it is the basis of the
parameter named (`Oxidierbarkeit (O2)`)."""
_BASIS = re.compile(r"(?i)^(?:als|as|ber\.? als|berechnet als)\s+(?P<basis>[A-Za-z0-9]+)$")
_BASIS_SUFFIX = re.compile(r"-(?P<basis>N|P)$")
_FOOTNOTES = re.compile(r"(?:\s*(?:\*+|[⁰¹²³⁴⁵⁶⁷⁸⁹]+\)?)|\s+\d\))+$")
_BRACKETS = re.compile(r"(?:^|(?<=[\s,;]))[\(\[]([^\(\)\[\]]*)[\)\]]")


def _marker(text: str) -> str:
    """Return the form markers are compared in: lower case, no dots, single spaces, no dashes."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("-", " ").replace(".", " ")
    return re.sub(r"\s+", " ", text).strip(" ,;:")


# Ion formulas by register code: (formula, charge). A bracket or trailing token such as
# `(Ni)`, `(SO4 2-)`, `SO4²⁻` or `(NO3-)` is read as the formula of that code; one that
# names another code's formula makes the name ambiguous (reported, never resolved).
FORMULAS: dict[str, tuple[tuple[str, str], ...]] = {
    "aluminium": (("Al", "3+"),),
    "ammonium": (("NH4", "+"),),
    "antimon": (("Sb", ""),),
    "arsen": (("As", ""),),
    "barium": (("Ba", "2+"),),
    "beryllium": (("Be", ""),),
    "blei": (("Pb", ""),),
    "bor": (("B", ""),),
    "bromat": (("BrO3", "-"),),
    "bromid": (("Br", "-"),),
    "cadmium": (("Cd", ""),),
    "calcium": (("Ca", "2+"),),
    "carbonat": (("CO3", "2-"),),
    "chlorat": (("ClO3", "-"),),
    "chlorid": (("Cl", "-"),),
    "chrom": (("Cr", ""),),
    "chrom_vi": (("CrVI", ""), ("Cr6+", "")),
    "cyanid": (("CN", "-"),),
    "eisen": (("Fe", ""),),
    "fluorid": (("F", "-"),),
    "freie_kohlensaeure": (("CO2", ""),),
    "hydrogencarbonat": (("HCO3", "-"),),
    "iodid": (("I", "-"), ("J", "-")),
    "kalium": (("K", "+"),),
    "kobalt": (("Co", ""),),
    "kupfer": (("Cu", ""),),
    "lithium": (("Li", "+"),),
    "magnesium": (("Mg", "2+"),),
    "mangan": (("Mn", ""),),
    "molybdaen": (("Mo", ""),),
    "natrium": (("Na", "+"),),
    "nickel": (("Ni", ""),),
    "nitrat": (("NO3", "-"),),
    "nitrit": (("NO2", "-"),),
    "phosphat": (("PO4", "3-"),),
    "quecksilber": (("Hg", ""),),
    "sauerstoff": (("O2", ""),),
    "selen": (("Se", ""),),
    "silber": (("Ag", "+"),),
    "silikat": (("SiO2", ""),),
    "strontium": (("Sr", "2+"),),
    "sulfat": (("SO4", "2-"),),
    "thallium": (("Tl", ""),),
    "titan": (("Ti", ""),),
    "uran": (("U", ""),),
    "vanadium": (("V", ""),),
    "zink": (("Zn", "2+"),),
    "zinn": (("Sn", ""),),
}

# The chlorite ion is ClO2-, chlorine dioxide is ClO2: only the charge tells them apart.
_EXTRA_FORMULAS = {"ClO2-": "chlorit", "ClO2": "chlordioxid"}


def _formula_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for code, spellings in FORMULAS.items():
        for formula, charge in spellings:
            for text in {formula, formula + charge}:
                index[text.casefold()] = code
    index.update({f.casefold(): code for f, code in _EXTRA_FORMULAS.items()})
    return index


FORMULA_CODES = _formula_index()
"""Normalised formula (see `formula`) -> register code."""

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻₀₁₂₃₄₅₆₇₈₉", "0123456789+-0123456789")


def formula(text: str) -> str | None:
    """Return the code whose formula `text` is (`SO4 2-`, `SO₄²⁻`, `SO4--`, `Ni`), or None."""
    text = text.translate(_SUPERSCRIPT).replace("\u2212", "-").replace("−", "-")
    text = re.sub(r"[\s^()\[\]]", "", text)
    text = re.sub(r"(?<![+-])(\+\+\+|---)$", lambda m: "3" + m.group(1)[0], text)
    text = re.sub(r"(?<![+-])(\+\+|--)$", lambda m: "2" + m.group(1)[0], text)
    text = re.sub(r"(?<=[A-Za-z0-9])1([+-])$", r"\1", text)
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*[+-]?", text):
        return None
    return FORMULA_CODES.get(text.casefold())


def _unit(text: str) -> str | None:
    """Return `text` if it is a unit spelling worth peeling off a name, else None."""
    text = text.strip()
    # One letter (`C`, `K`) is more often an element than a unit, and a dimensionless
    # spelling (`pH`, `-`) says nothing a name needs.
    if len(text) < 2 or re.search(r"(?i)\bph\b", text):
        return None
    symbol = units.canonical(text)
    return text if symbol else None


# ---------------------------------------------------------------------------- parsing


@dataclass(frozen=True)
class ParsedName:
    """A published name split into its parameter part and the markers around it."""

    text: str
    """The name as published."""
    base: str
    """What is left when the markers are peeled off."""
    statistic: str | None = None
    """`min`, `mean` or `max` from a marker; None without one."""
    unsupported_statistic: str | None = None
    """A statistic the contract has no value for (`Median`), as published."""
    on_site: bool = False
    unit: str | None = None
    """A unit printed in the name, as printed."""
    reporting_limit: str | None = None
    """The number of `Bestimmungsgrenze 0,0001` in the name, as printed."""
    formulas: tuple[str, ...] = ()
    """Codes of the element symbols or ion formulas printed with the name."""
    fraction: str | None = None
    """`total` or `dissolved` (from gesamt, gelöst, filtriert)."""
    basis: str | None = None
    """What a value is given as (`N` of `Nitrat als N` or `Nitrat-N`)."""
    conflicts: tuple[str, ...] = ()
    """Markers that contradict each other (two statistics, two units), in words."""
    lab: bool = False
    """The name says the value was read in the laboratory (`(Labor)`)."""
    sampling: str | None = None
    """Where the sample was taken, from a marker: `network`, `outlet` or `works`."""

    @property
    def full_key(self) -> str:
        return key(_FOOTNOTES.sub("", self.text))

    @property
    def base_key(self) -> str:
        return key(self.base)


@dataclass
class _Found:
    statistic: list[str]
    unsupported: list[str]
    on_site: bool
    units: list[str]
    limits: list[str]
    formulas: list[str]
    fractions: list[str]
    bases: list[str]
    lab: bool = False
    sampling: list[str] = field(default_factory=list)

    def merge(self, other: _Found) -> None:
        self.statistic += other.statistic
        self.unsupported += other.unsupported
        self.on_site |= other.on_site
        self.units += other.units
        self.limits += other.limits
        self.formulas += other.formulas
        self.fractions += other.fractions
        self.bases += other.bases
        self.lab |= other.lab
        self.sampling += other.sampling


def _found() -> _Found:
    return _Found([], [], False, [], [], [], [], [])


def _classify(part: str, found: _Found) -> bool:
    """Record `part` if it is a marker; return whether it was one."""
    m = _marker(part)
    if not m:
        return False
    if part.strip() in BASIS_SUBSTANCES:
        # `Gesamthärte (CaCO3)`, `Nitrat (N)` (a capital N: nitrogen, not a count): a
        # substance that is no parameter's own formula names what the value is given as.
        found.bases.append(part.strip())
    elif m in STATISTIC_MARKERS:
        found.statistic.append(STATISTIC_MARKERS[m])
    elif m in UNSUPPORTED_STATISTICS or re.fullmatch(r"\d+ ?(?:%|perzentil)", m):
        found.unsupported.append(part.strip())
    elif m in ON_SITE_MARKERS:
        found.on_site = True
    elif m in LAB_MARKERS:
        found.lab = True  # a laboratory reading is the parameter itself (not so for temperature)
    elif m in SAMPLING_MARKERS:
        found.sampling.append(SAMPLING_MARKERS[m])
    elif m in METHOD_MARKERS or _METHOD_PATTERN.fullmatch(m) or _REFERENCE.match(part.strip()):
        pass  # the method, or the law or standard a value is given by, is no other quantity
    elif key(m) in {key(x) for x in TOTAL_MARKERS}:
        found.fractions.append("total")
    elif key(m) in {key(x) for x in DISSOLVED_MARKERS}:
        found.fractions.append("dissolved")
    elif limit := _REPORTING_LIMIT.match(part.strip()):
        found.limits.append(limit["number"])
        if limit["unit"]:
            if _unit(limit["unit"]) is None:
                return False
            found.units.append(limit["unit"])
    elif basis := _BASIS.match(part.strip()):
        found.bases.append(basis["basis"])
    elif code := formula(part):
        found.formulas.append(code)
    elif unit := _unit(part):
        found.units.append(unit)
    else:
        return False
    return True


def _bracket(inner: str, found: _Found) -> bool:
    """Peel a bracketed segment whose every comma-separated part is a marker."""
    # A comma before a digit is a decimal comma (`BG 0,0001`), not a separator.
    parts = [p for p in re.split(r";|,(?!\d)", inner) if p.strip()]
    if not parts:
        return False
    trial = _found()
    if not all(_classify(p, trial) for p in parts):
        return False
    found.merge(trial)
    return True


def _peel_brackets(text: str, found: _Found) -> str:
    def replace(m: re.Match[str]) -> str:
        return " " if _bracket(m.group(1), found) else m.group(0)

    return _BRACKETS.sub(replace, text)


def _peel_tail(text: str, found: _Found) -> str:
    """Peel markers after the name: `Nitrat mg/l`, `Eisen, gesamt`, `pH-Wert vor Ort`."""
    while True:
        text = text.strip(" ,;:/")
        # `Ammonium/NH 4`: a formula after a slash.
        if "/" in text:
            head, _, tail = text.rpartition("/")
            code = formula(tail.replace(" ", "")) if head.strip() else None
            if code:
                found.formulas.append(code)
                text = head
                continue
        if suffix := _BASIS_SUFFIX.search(text):
            found.bases.append(suffix["basis"])
            text = text[: suffix.start()]
            continue
        # The part after the last comma first (`Oxidierbarkeit in mg/l O2, Netzprobe`), so
        # a longer tail does not take words of the name's own markers with it.
        head, comma, last = text.rpartition(",")
        if comma and head.strip() and not re.match(r"\d", last) and _bracket(last, found):
            text = head
            continue
        limit = re.search(rf"(?i)[\s,;]+({_LIMIT_WORDS}\s*[:=]?\s*<?\s*[0-9].*)$", text)
        if limit and _bracket(limit.group(1), found):
            text = text[: limit.start()]
            continue
        words = text.split(" ")
        for n in range(min(4, len(words) - 1), 0, -1):
            tail = " ".join(words[-n:])
            head = " ".join(words[:-n]).rstrip(" ,;")
            # `Koloniezahl 22 °C`: a unit after a number is a method detail, not the unit.
            if re.search(r"\d$", head) and _unit(re.split(r";|,(?!\d)", tail)[0]):
                continue
            if tail.casefold().startswith("in ") and (_unit(tail[3:]) or _unit(tail)):
                found.units.append(tail[3:].strip() if _unit(tail[3:]) else tail.strip())
                text = head
                break
            if _bracket(tail, found):
                # `Carbonathärte in °dH, Netzprobe`: the `in` of a peeled unit goes with it.
                text = re.sub(r"(?i)\s+in$", "", head)
                break
        else:
            return text


def parse(text: str) -> ParsedName:
    """Split a published name into its parameter part and markers (see the module doc)."""
    clean = re.sub(r"\s+", " ", unicodedata.normalize("NFC", text).replace("\u00a0", " "))
    clean = _FOOTNOTES.sub("", clean.strip()).strip()
    found = _found()
    base = clean
    for _ in range(3):  # brackets may hide a tail marker and the other way round
        before = base
        base = _peel_tail(_peel_brackets(base, found), found)
        base = re.sub(r"\s+", " ", base).strip(" ,;:-")
        if base == before:
            break
    if not base:  # a name that is only markers (`(Ni)`) names what its markers say
        base = clean
    conflicts = []
    if len(set(found.statistic)) > 1:
        conflicts.append("the name gives more than one statistic")
    if len({units.canonical(u) for u in found.units}) > 1:
        conflicts.append(f"the name gives more than one unit ({', '.join(found.units)})")
    if len(set(found.fractions)) > 1:
        conflicts.append("the name says both gesamt and gelöst")
    if len(set(found.sampling)) > 1:
        conflicts.append("the name gives more than one place the sample was taken")
    return ParsedName(
        text=text,
        base=base,
        statistic=found.statistic[0] if found.statistic else None,
        unsupported_statistic=found.unsupported[0] if found.unsupported else None,
        on_site=found.on_site,
        unit=found.units[0] if found.units else None,
        reporting_limit=found.limits[0] if found.limits else None,
        formulas=tuple(dict.fromkeys(found.formulas)),
        fraction=found.fractions[0] if found.fractions else None,
        basis=found.bases[0] if found.bases else None,
        conflicts=tuple(conflicts),
        lab=found.lab,
        sampling=found.sampling[0] if found.sampling else None,
    )


# ---------------------------------------------------------------------------- variants

ABBREVIATIONS: dict[str, str] = {
    "u.": "und",
    "b.": "bei",
    "org.": "organisch",
    "geb.": "gebundener",
    "gel.": "gelöster",
    "aromat.": "aromatische",
    "arom.": "aromatische",
    "Kohlenwasserst.": "Kohlenwasserstoffe",
    "el.": "elektrische",
    "elektr.": "elektrische",
    "Leitf.": "Leitfähigkeit",
    "Bakt.": "Bakterien",
    "Kolonienzahl": "Koloniezahl",
    "Keimzahl": "Koloniezahl",
    "Temp.": "Temperatur",
    "Säurekap.": "Säurekapazität",
    "Basekap.": "Basekapazität",
    "Basenkapazität": "Basekapazität",
    "Basekapaz.": "Basekapazität",
    "Säurekapaz.": "Säurekapazität",
    "Leitfähigk.": "Leitfähigkeit",
    "Erdalk.": "Erdalkalien",
}
"""Words suppliers abbreviate or spell in two ways, written out before a name is looked up
again (`Tetrachlorethen u. Trichlorethen`, `Kolonienzahl bei 22°`). Each is one word (a
word of the name as printed, case ignored); nothing else of the name changes."""

_ABBREVIATION_KEYS = {k.casefold(): v for k, v in ABBREVIATIONS.items()}
_SUM_WORDS = re.compile(r"(?i)(?:^|[\s,;:–—-]+)(?:summe|summe der|summe aus|sum)(?=$|[\s,;:–—-])")
_TEMPERATURE = re.compile(
    r"(?i)[\s,;]*(?:\(\s*)?(?:bei|gemessen bei|@)?\s*[0-9]+(?:[.,][0-9]+)?\s*(?:°|º|˚|grad)\s*c?"
    r"\b(?:\s*\))?"
)


def expand_abbreviations(text: str) -> str:
    """Write out the words of `ABBREVIATIONS` (see there)."""
    return _replace_words(text, _ABBREVIATION_KEYS)


SYNONYMS: dict[str, str] = {
    "Kohlenstoffdioxid": "Kohlendioxid",
    "Tetrachlorethylen": "Tetrachlorethen",
    "Perchlorethylen": "Tetrachlorethen",
    "Trichlorethylen": "Trichlorethen",
    "Chloroform": "Trichlormethan",
    "Bromoform": "Tribrommethan",
    "Methylenchlorid": "Dichlormethan",
    "Tetrachlorkohlenstoff": "Tetrachlormethan",
    "Permanganatindex": "Oxidierbarkeit",
    "Permanganat-Index": "Oxidierbarkeit",
    "elektrolytische": "elektrische",
    "Kalzium": "Calcium",
    "Hydrogenkarbonat": "Hydrogencarbonat",
    "Silizium": "Silicium",
    "Jodid": "Iodid",
}
"""Names chemistry gives the same substance or quantity (IUPAC and trivial names, the
permanganate index that the ordinance calls Oxidierbarkeit, German spellings with k and z),
written the register's way before a name is looked up again. Each is one word of the name;
only what is certainly the same quantity in the same unit is here: the permanganate
*consumption* (`KMnO4-Verbrauch`, mg/l KMnO4) is not the index (mg/l O2), and a nitrate
given as nitrogen is not nitrate (the alias register and `BASES` say so)."""

_SYNONYM_KEYS = {k.casefold(): v for k, v in SYNONYMS.items()}


def _replace_words(text: str, table: dict[str, str]) -> str:
    """Replace each word of `text` found in `table` (keys case-folded), brackets kept."""

    def one(word: str) -> str:
        m = re.fullmatch(r"(?P<pre>[(\[]*)(?P<word>.*?)(?P<post>[)\],;:]*)", word)
        assert m is not None  # the pattern matches any text
        inner = table.get(m["word"].casefold(), m["word"])
        return m["pre"] + inner + m["post"]

    return "".join(one(w) for w in re.split(r"(\s+|/)", text))


def with_synonyms(text: str) -> str:
    """Write the words of `SYNONYMS` the register's way (see there)."""
    return _replace_words(text, _SYNONYM_KEYS)


_ACRONYM = re.compile(r"\s*[(\[](?P<acronym>[A-ZÄÖÜ]{2,6})[)\]]")


def without_acronym(text: str) -> str | None:
    """Return the name without a bracket that abbreviates the words before it, else None.

    `Wassertemperatur (WT)`, `Pflanzenschutzmittel (PSM)`: the letters of the bracket are
    capitals that occur in that order in the name before it, the first being its first
    letter. A formula (`(Ni)`, `(NO3)`) is read as a formula before, never here.
    """
    m = _ACRONYM.search(text)
    if m is None:
        return None
    before = key(text[: m.start()])
    letters = m["acronym"].casefold()
    if not before or before[0] != key(letters[0])[:1]:
        return None
    rest = iter(before)
    if not all(any(ch == c for c in rest) for ch in key(letters)):
        return None
    out = (text[: m.start()] + " " + text[m.end() :]).strip()
    return re.sub(r"\s+", " ", out)


def _context(part: str) -> bool:
    """Whether a marker only says where, how or by what rule a value was obtained."""
    m = _marker(part)
    return bool(m) and (
        m in ON_SITE_MARKERS
        or m in LAB_MARKERS
        or m in SAMPLING_MARKERS
        or m in METHOD_MARKERS
        or bool(_METHOD_PATTERN.fullmatch(m))
        or bool(_REFERENCE.match(part.strip()))
    )


def without_context(text: str) -> str | None:
    """Return the name without its markers of place, method and rule, else None.

    Everything else is kept as printed (`DOC (Gelöst.)org.Kohlenstoff) (Netzprobe)` is
    `DOC (Gelöst.)org.Kohlenstoff)`), so a spelling the alias register knows as a whole is
    found again; what the removed markers say is read from the name itself.
    """

    def bracket(m: re.Match[str]) -> str:
        parts = [p for p in re.split(r";|,(?!\d)", m.group(1)) if p.strip()]
        return " " if parts and all(_context(p) for p in parts) else m.group(0)

    out = _BRACKETS.sub(bracket, text)
    while True:
        head, comma, tail = out.rpartition(",")
        if comma and head.strip() and _context(tail):
            out = head
            continue
        words = out.split()
        for n in range(min(4, len(words) - 1), 0, -1):
            if _context(" ".join(words[-n:])):
                out = " ".join(words[:-n])
                break
        else:
            break
    out = re.sub(r"\s+", " ", out).strip(" ,;:")
    return out if out and out != text.strip() else None


def without_sum_word(text: str) -> str:
    """Return the name without the word `Summe` (`Trihalogenmethane, Summe`, `Summe PAK`)."""
    return re.sub(r"\s+", " ", _SUM_WORDS.sub(" ", text)).strip(" ,;:–—-")


def swapped(text: str) -> str | None:
    """Return `B und A` for a name `A und B` (one `und`), else None."""
    parts = re.split(r"(?i)\s+(?:und|u\.|&)\s+", text)
    if len(parts) != 2:
        return None
    return f"{parts[1].strip()} und {parts[0].strip()}"


def without_temperature(text: str) -> str | None:
    """Return the name without a measuring temperature (`pH-Wert bei 20 °C`), else None."""
    out = _TEMPERATURE.sub(" ", text)
    out = re.sub(r"\s+", " ", out).strip(" ,;:")
    return out if out != text.strip() else None


def brackets(text: str) -> tuple[str, str] | None:
    """Return (name, explanation) of `TOC (organisch gebundener Kohlenstoff)`, else None."""
    m = re.fullmatch(r"\s*(?P<out>[^()\[\]]+?)\s*[(\[](?P<inner>[^()\[\]]+)[)\]]\s*", text)
    if not m:
        return None
    return m["out"].strip(" ,;:"), m["inner"].strip()
