"""The parameters the demo data measures and the spellings suppliers print them with."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Unit spellings as suppliers print them; measurements refer to them by index.
UNITS = (
    "",
    "mg/l",
    "µg/l",
    "ug/l",
    "\u03bcg/l",
    "ng/l",
    "mmol/l",
    "µS/cm",
    "mS/cm",
    "°C",
    "°dH",
    "KBE/100 ml",
    "Anzahl/100 ml",
    "KBE/ml",
    "NTU",
    "FNU",
    "m-1",
    "Bq/l",
    "mg/l O2",
)
U = {u: i for i, u in enumerate(UNITS)}
MICRO_UNITS = np.array([U["µg/l"], U["ug/l"], U["\u03bcg/l"]])

PFAS_20 = (
    "pfba", "pfpea", "pfhxa", "pfhpa", "pfoa", "pfna", "pfda", "pfunda", "pfdoda", "pftrda",
    "pfbs", "pfpes", "pfhxs", "pfhps", "pfos", "pfns", "pfds", "pfunds", "pfdods", "pftrds",
)  # fmt: skip
PFAS_4 = ("pfoa", "pfna", "pfhxs", "pfos")
# Typical share of each substance in the PFAS-4 part and in the rest (short chains dominate).
PFAS_PROFILE = {
    "pfba": 0.24, "pfpea": 0.12, "pfhxa": 0.15, "pfhpa": 0.06, "pfda": 0.02, "pfunda": 0.01,
    "pfdoda": 0.005, "pftrda": 0.003, "pfbs": 0.22, "pfpes": 0.05, "pfhps": 0.02, "pfns": 0.005,
    "pfds": 0.005, "pfunds": 0.002, "pfdods": 0.002, "pftrds": 0.002,
    "pfoa": 0.34, "pfna": 0.07, "pfhxs": 0.22, "pfos": 0.37,
}  # fmt: skip
PESTICIDES = (
    "atrazin", "desethylatrazin", "bentazon", "glyphosat", "ampa", "terbuthylazin",
    "metolachlor", "diuron", "isoproturon", "metazachlor",
)  # fmt: skip


@dataclass(frozen=True)
class Param:
    """How one numeric parameter is published: unit family, decimals, reporting limit."""

    code: str
    unit: str
    """A fixed unit spelling, or a family resolved per supplier: metal, micro, pfas, ec,
    turbidity, count100."""
    decimals: int
    rl: float = 0.0
    """Reporting limit in the native unit (µg/l for metal/micro, ng/l for pfas); 0 = none."""


ROUTINE = (
    Param("e_coli", "count100", 0),
    Param("coliforme_bakterien", "count100", 0),
    Param("enterokokken", "count100", 0),
    Param("koloniezahl_22", "KBE/ml", 0),
    Param("koloniezahl_36", "KBE/ml", 0),
    Param("temperatur", "°C", 1),
    Param("ph_wert", "", 2),
    Param("elektrische_leitfaehigkeit", "ec", 0),
    Param("truebung", "turbidity", 2, 0.05),
    Param("nitrat", "mg/l", 1, 0.5),
    Param("gesamthaerte", "°dH", 1),
    Param("freies_chlor", "mg/l", 2, 0.02),
)
ANNUAL = (
    Param("calcium", "mg/l", 1),
    Param("magnesium", "mg/l", 1),
    Param("natrium", "mg/l", 1),
    Param("kalium", "mg/l", 1, 0.5),
    Param("chlorid", "mg/l", 1),
    Param("sulfat", "mg/l", 1),
    Param("hydrogencarbonat", "mg/l", 0),
    Param("saeurekapazitaet_ks43", "mmol/l", 2),
    Param("sauerstoff", "mg/l", 1),
    Param("nitrit", "mg/l", 3, 0.01),
    Param("fluorid", "mg/l", 2, 0.1),
    Param("eisen", "mg/l", 3, 0.01),
    Param("mangan", "mg/l", 3, 0.005),
    Param("blei", "metal", 1, 1.0),
    Param("kupfer", "metal", 0, 5.0),
    Param("nickel", "metal", 1, 2.0),
    Param("arsen", "metal", 1, 1.0),
    Param("uran", "metal", 2, 0.1),
    Param("chrom", "metal", 1, 1.0),
    Param("faerbung", "m-1", 2, 0.1),
    Param("oxidierbarkeit", "mg/l O2", 1, 0.5),
    Param("radon_222", "Bq/l", 1, 2.0),
) + tuple(Param(code, "micro", 3, 0.01) for code in PESTICIDES)
TEXT_PARAMS = ("geruch", "geschmack", "haertebereich")
PFAS_PARAMS = PFAS_20 + ("pfas_summe_20", "pfas_summe_4")
# Values some suppliers print as a range over their wells (`8,2 - 11,4`).
RANGE_PARAMS = {"calcium", "magnesium", "natrium", "chlorid", "sulfat", "hydrogencarbonat"}

PARAMETERS = tuple(sorted({p.code for p in ROUTINE + ANNUAL} | set(TEXT_PARAMS) | set(PFAS_PARAMS)))
P = {code: i for i, code in enumerate(PARAMETERS)}

# Verbal values; measurements refer to them by index. Variant i of geruch goes with variant
# i of geschmack (a supplier's house style).
TEXTS = (
    "ohne Befund", "o.B.", "geruchlos", "unauffällig",
    "ohne Befund", "o.B.", "einwandfrei", "unauffällig",
    "weich", "mittel", "hart",
    "Härtebereich weich", "Härtebereich mittel", "Härtebereich hart",
    "farblos",
)  # fmt: skip
FOOTNOTES = ("", "¹)", "*", "²)", "**")
BELOW_STYLES = ("< {}", "<{}", "< BG", "n.n.", "n. n.", "nicht nachweisbar")
