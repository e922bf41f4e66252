"""What a verdict is, in one place: the kinds of values, the states of a value, a zone's status.

The ordinance sets values of different legal weight, and a verdict must say which one it
used: a Grenzwert of Anlage 1 or 2 (§§ 6, 7 TrinkwV), the Grenzwert or Anforderung of an
indicator parameter (Anlage 3 Teil I, § 8; the health office may tolerate a deviation,
§ 65 (3)), the technischer Maßnahmenwert for Legionella (Anlage 3 Teil II), Parameterwerte
for radioactive substances (Anlage 4 Teil I, § 9), Referenzwerte (Anlage 2 Teil II at the
works outlet, Anlage 3 Teil III), and, outside the ordinance, health guidance values of the
Umweltbundesamt for metabolites that are not relevant. Only the first are "Grenzwerte" in
the sense a zone summary counts as exceeded.

The derive stage classifies with these states, the resources declare them (English
meanings), the site and the zone summaries word them (German). Plain data: no polars.
"""

from __future__ import annotations

from dataclasses import dataclass

# Categories of a state, which the zone summary counts.
EXCEEDS_LIMIT = "exceeds_limit"
EXCEEDS_OTHER = "exceeds_other"
COMPLIES = "complies"
NOT_ASSESSABLE = "not_assessable"
NO_COMPARISON = "no_comparison"
NOT_MEASURED = "not_measured"


@dataclass(frozen=True)
class Kind:
    name_de: str
    """The ordinance's term, as the site names the value: 'Grenzwert 0,1 µg/l'."""
    meaning: str
    """What the kind is, for the API documentation."""
    exceeded: str | None
    """The state of a value above it (None: no number to be above)."""
    above_de: str
    """How a summary says a value is above (or outside) it."""
    comparison: str = "exceeded"
    """When the value is crossed, in the ordinance's words: `exceeded` ("überschritten": a
    value equal to it is kept) or `reached` ("erreicht": a value equal to it counts)."""
    wording_de: str = ""
    """The ordinance's wording the comparison rests on, with its place."""


KINDS: dict[str, Kind] = {
    "grenzwert": Kind(
        "Grenzwert",
        "binding limit (Grenzwert) of Anlage 1 or 2 of the TrinkwV",
        "exceeds_limit",
        "über dem Grenzwert",
        wording_de="§ 7 Abs. 2 TrinkwV: die Grenzwerte der Anlage 2 „dürfen nicht überschritten "
        "werden“",
    ),
    "indicator": Kind(
        "Grenzwert für Indikatorparameter",
        "value of an indicator parameter (Anlage 3 Teil I); a deviation may be tolerated "
        "by the health office (§ 65 (3) TrinkwV)",
        "exceeds_indicator",
        "über dem Grenzwert für diesen Indikatorparameter",
        wording_de="Anlage 3 Teil I TrinkwV: ein „Grenzwert“ wie die der Anlage 2 (§ 7 Abs. 2: "
        "„dürfen nicht überschritten werden“)",
    ),
    "range": Kind(
        "zulässiger Bereich",
        "permitted range of an indicator parameter (pH, Anlage 3 Teil I)",
        "outside_range",
        "außerhalb des zulässigen Bereichs für diesen Indikatorparameter",
        comparison="outside",
        wording_de="Anlage 3 Teil I TrinkwV: „≥ 6,5 und ≤ 9,5“ (beide Grenzen gehören zum Bereich)",
    ),
    "requirement": Kind(
        "Anforderung",
        "qualitative requirement of an indicator parameter (Anlage 3 Teil I), not a number",
        None,
        "",
    ),
    "massnahmenwert": Kind(
        "technischer Maßnahmenwert",
        "technical action value for Legionella (Anlage 3 Teil II); not a limit, reaching it "
        'obliges the operator to act (§ 51 (1), §§ 52 (3), 53 (1) TrinkwV: "erreicht"), so a '
        "value equal to it counts",
        "reaches_action_value",
        "technischer Maßnahmenwert erreicht",
        comparison="reached",
        wording_de="§ 51 Abs. 1, § 52 Abs. 3, § 53 Abs. 1 TrinkwV: die Pflichten gelten, wenn "
        "der technische Maßnahmenwert „erreicht“ ist",
    ),
    "parameterwert": Kind(
        "Parameterwert",
        "parameter value for radioactive substances (Anlage 4 Teil I); above it the competent "
        "authority assesses whether action is needed (§ 62 (3) TrinkwV)",
        "exceeds_guidance",
        "über dem Parameterwert",
        wording_de="Anlage 4 Teil I TrinkwV: ein Parameterwert; darüber prüft die zuständige "
        "Behörde, ob Maßnahmen nötig sind (§ 62 Abs. 3)",
    ),
    "referenzwert": Kind(
        "Referenzwert",
        "reference value (Anlage 2 Teil II at the works outlet under § 41 (3), or Anlage 3 "
        "Teil III in raw water); not a limit at the consumer's tap",
        "exceeds_guidance",
        "über dem Referenzwert",
        wording_de="Anlage 2 Teil II und Anlage 3 Teil III TrinkwV: ein Referenzwert; es "
        "zählt ein Wert darüber",
    ),
    "orientierungswert": Kind(
        "gesundheitlicher Orientierungswert (UBA)",
        "health guidance value of the Umweltbundesamt for a non-relevant pesticide metabolite; "
        "not a limit of the ordinance",
        "exceeds_guidance",
        "über dem gesundheitlichen Orientierungswert des Umweltbundesamts",
        wording_de="Umweltbundesamt: ein Trinkwasser, in dem die Orientierungswerte „eingehalten "
        "oder unterschritten“ sind",
    ),
    "leitwert": Kind(
        "Trinkwasserleitwert (UBA)",
        "toxicologically derived drinking-water guide value (Trinkwasserleitwert) of the "
        "Umweltbundesamt for a substance the ordinance does not regulate (TFA); not a limit "
        "of the ordinance",
        "exceeds_guidance",
        "über dem Trinkwasserleitwert des Umweltbundesamts",
        wording_de="Umweltbundesamt: eine Konzentration, „bei der keine Schädigung der "
        "menschlichen Gesundheit zu erwarten ist“; es zählt ein Wert darüber",
    ),
}

LIMIT_KINDS = tuple(KINDS)
REACHED_KINDS = tuple(k for k, v in KINDS.items() if v.comparison == "reached")
"""Kinds a value equal to them crosses (the ordinance says "erreicht", not "überschritten")."""
NUMERIC_LIMIT_KINDS = tuple(k for k, v in KINDS.items() if v.exceeded and k != "range")
ORDINANCE_KINDS = tuple(k for k in KINDS if k not in ("orientierungswert", "leitwert"))
"""Kinds the ordinance sets (a parameter with one of them 'has a limit')."""

PESTICIDE_DECISIONS: dict[str, str] = {
    "active_substance": "pesticide active substance: limit 0.1 µg/l (Anlage 2 Teil I)",
    "active_substance_strict": "aldrin, dieldrin, heptachlor, heptachlor epoxide: 0.03 µg/l",
    "relevant_metabolite": "relevant metabolite: limit 0.1 µg/l, as its parent substance",
    "non_relevant_metabolite": "non-relevant metabolite: no legal limit, no guidance value "
    "confirmed",
    "non_relevant_metabolite_gow": "non-relevant metabolite: no legal limit; a health guidance "
    "value of the Umweltbundesamt applies",
    "unclear": "metabolite whose relevance is not settled: no verdict either way",
    "aggregate": "a value of the ordinance for pesticides as a group (not a substance)",
}
"""How the ordinance's pesticide values apply to a register code (reference/pesticides.csv)."""

PESTICIDE_DECISIONS_DE: dict[str, str] = {
    "active_substance": "Pestizid-Wirkstoff: Es gilt der Grenzwert für jedes einzelne Pestizid "
    "(TrinkwV 2023, Anlage 2 Teil I).",
    "active_substance_strict": "Für diesen Wirkstoff gilt der strengere Grenzwert für Aldrin, "
    "Dieldrin, Heptachlor und Heptachlorepoxid (TrinkwV 2023, Anlage 2 Teil I).",
    "relevant_metabolite": "Relevanter Metabolit: Es gilt der Grenzwert für jedes einzelne "
    "Pestizid (TrinkwV 2023, Anlage 2 Teil I).",
    "non_relevant_metabolite": "Nicht relevanter Metabolit: Für diesen Stoff gilt kein "
    "gesetzlicher Grenzwert, und er zählt nicht zu „Pestizide-gesamt“.",
    "non_relevant_metabolite_gow": "Nicht relevanter Metabolit: Für diesen Stoff gilt kein "
    "gesetzlicher Grenzwert, und er zählt nicht zu „Pestizide-gesamt“. Das Umweltbundesamt nennt "
    "einen gesundheitlichen Orientierungswert; er ist kein Grenzwert.",
    "unclear": "Ob dieser Abbaustoff für Trinkwasser als relevant gilt, ist nicht abschließend "
    "bewertet. Deshalb bewertet diese Website seine Werte nicht, weder als eingehalten noch als "
    "überschritten, und rechnet sie nicht in „Pestizide-gesamt“ ein.",
    "aggregate": "Wert der Verordnung für Pestizide als Gruppe; er gilt für die einzelnen Stoffe.",
}
"""The decision as the parameter page states it, before the reasons of the decision."""


@dataclass(frozen=True)
class State:
    meaning: str
    """English, for the API documentation."""
    category: str
    """What the zone summary counts it as."""
    label_de: str
    icon: str
    """A shape that tells the state without colour (screen readers skip it)."""
    tone: str
    """CSS modifier: ok | bad | warn | none."""
    explanation_de: str


STATES: dict[str, State] = {
    "below_limit": State(
        "The value is at or below the value of `limit` (whatever its kind).",
        COMPLIES,
        "eingehalten",
        "✓",
        "ok",
        "Der Wert liegt nicht über dem angegebenen Wert.",
    ),
    "exceeds_limit": State(
        "The value is above a binding limit (kind `grenzwert`, Anlage 1 or 2).",
        EXCEEDS_LIMIT,
        "Grenzwert überschritten",
        "✕",
        "bad",
        "Der Wert liegt über dem Grenzwert der Trinkwasserverordnung.",
    ),
    "exceeds_indicator": State(
        "The value is above the value of an indicator parameter (kind `indicator`).",
        EXCEEDS_OTHER,
        "Indikatorparameter auffällig",
        "△",
        "warn",
        "Der Wert liegt über dem Grenzwert für diesen Indikatorparameter (Anlage 3). "
        "Über Maßnahmen entscheidet das Gesundheitsamt; es kann die Abweichung dulden, wenn "
        "keine Schädigung der Gesundheit zu besorgen ist (§ 65 Abs. 3 TrinkwV).",
    ),
    "exceeds_guidance": State(
        "The value is above a value that is not a limit: a technical action value, a "
        "parameter or reference value, or a health guidance value (see `limit.kind`).",
        EXCEEDS_OTHER,
        "über dem Wert",
        "△",
        "warn",
        "Der Wert liegt über einem Wert, der kein Grenzwert ist: dem technischen "
        "Maßnahmenwert (Legionellen), einem Parameter- oder Referenzwert oder einem "
        "gesundheitlichen Orientierungswert. Was daraus folgt, steht beim Wert.",
    ),
    "reaches_action_value": State(
        "The value reaches (is at or above) the technical action value for Legionella (kind "
        "`massnahmenwert`); the ordinance's duties start when it is reached (§ 51 (1)).",
        EXCEEDS_OTHER,
        "technischer Maßnahmenwert erreicht",
        "△",
        "warn",
        "Der Wert erreicht den technischen Maßnahmenwert für Legionellen (Anlage 3 Teil II). "
        "Er ist kein Grenzwert; ist er erreicht, muss der Betreiber der Anlage das "
        "Gesundheitsamt informieren und die Ursache untersuchen lassen (§ 51 TrinkwV).",
    ),
    "within_range": State(
        "The value lies inside the permitted range (pH).",
        COMPLIES,
        "im Bereich",
        "✓",
        "ok",
        "Der Wert liegt im zulässigen Bereich.",
    ),
    "outside_range": State(
        "The value lies outside the permitted range of an indicator parameter (pH).",
        EXCEEDS_OTHER,
        "außerhalb",
        "△",
        "warn",
        "Der Wert liegt außerhalb des zulässigen Bereichs für diesen Indikatorparameter.",
    ),
    "below_reporting_limit": State(
        "Below a reporting limit that is itself at or below the value of `limit`.",
        COMPLIES,
        "unter Bestimmungsgrenze",
        "▽",
        "ok",
        "Zu wenig, um es genau zu messen; die Bestimmungsgrenze liegt nicht über dem Wert.",
    ),
    "not_detected": State(
        "Not detected (`n.n.`; a count limited to 0 per volume also `< 1`, `negativ`) at a "
        "reporting limit not above `limit`, or none given.",
        COMPLIES,
        "nicht nachgewiesen",
        "○",
        "ok",
        "Das Labor hat den Stoff nicht gefunden.",
    ),
    "not_assessable": State(
        "The sample point's values prove neither a crossing nor compliance (docs/api.md: "
        "what each kind of evidence proves); `note_de` says why.",
        NOT_ASSESSABLE,
        "nicht bewertbar",
        "?",
        "warn",
        "Der veröffentlichte Wert lässt keinen Vergleich mit dem Wert zu; der Grund steht "
        "beim Wert.",
    ),
    "relevance_unclear": State(
        "A pesticide metabolite whose classification (relevant or not) is not settled: "
        "no verdict either way; `note_de` says why.",
        NOT_ASSESSABLE,
        "Einstufung offen",
        "?",
        "warn",
        "Ob für diesen Abbaustoff ein Grenzwert gilt, ist nicht abschließend bewertet; "
        "deshalb keine Bewertung.",
    ),
    "no_limit": State(
        "No limit or guidance value applies to this parameter on the reference date.",
        NO_COMPARISON,
        "kein Grenzwert",
        "–",
        "none",
        "Für diesen Stoff gilt an diesem Tag kein Grenzwert.",
    ),
    "unit_mismatch": State(
        "The units of value and limit cannot be converted into each other.",
        NOT_ASSESSABLE,
        "Einheit passt nicht",
        "?",
        "warn",
        "Die Einheit des Werts lässt sich nicht in die des Grenzwerts umrechnen.",
    ),
    "requirement": State(
        "The ordinance sets a qualitative requirement, not a number.",
        NO_COMPARISON,
        "Anforderung",
        "◇",
        "none",
        "Die Verordnung beschreibt eine Eigenschaft statt einer Zahl.",
    ),
    "not_measured": State(
        "No value of this parameter has been published for the zone.",
        NOT_MEASURED,
        "nicht gemessen",
        "–",
        "none",
        "Der Versorger hat dafür keinen Wert veröffentlicht.",
    ),
}

ASSESSED_CATEGORIES = (EXCEEDS_LIMIT, EXCEEDS_OTHER, COMPLIES)


def states_in(*categories: str) -> list[str]:
    return [s for s, v in STATES.items() if v.category in categories]


HEADLINE_PARAMETERS: dict[str, str] = {
    "pfas_summe_20": "PFAS",
    "nitrat": "Nitrat",
    "blei": "Blei",
}
"""The values a person looks for first, with the word the headline names them by: a zone
whose values comply gets a green verdict only when all of them were assessed."""

SUMMARY_STATUSES: dict[str, str] = {
    "exceeds_limit": "At least one value is above a binding limit (state `exceeds_limit`).",
    "exceeds_other": "No binding limit is exceeded, but at least one value is above an "
    "indicator, action, parameter, reference or guidance value.",
    "complies": "At least one value was assessed, none is above its value, and every key "
    "value (`key_unassessed` is empty) was assessed.",
    "key_values_missing": "The values assessed comply, but key values (PFAS-20, nitrate, "
    "lead) were not published or cannot be assessed: no verdict on the water as a whole "
    "(`key_unassessed` names them).",
    "not_assessable": "Values are published, but none can be compared with a value.",
    "no_data": "No value is published for the zone.",
}
"""What the `status` of a zone summary means."""

SUMMARY_TONES = {
    "exceeds_limit": "bad",
    "exceeds_other": "warn",
    "complies": "ok",
    "key_values_missing": "none",
    "not_assessable": "none",
    "no_data": "none",
}

# ---------------------------------------------------------------------------- German wording
# The zone summary's sentences; `{n}` a count, `{list}` a list of "name (reason)".

SUMMARY_TITLES_DE = {
    "exceeds_limit": ("1 Wert über dem Grenzwert", "{n} Werte über dem Grenzwert"),
    "exceeds_other": ("1 Wert auffällig", "{n} Werte auffällig"),
    "complies": ("Der bewertete Wert ist eingehalten", "Alle {n} bewerteten Werte eingehalten"),
    "key_values_missing": ("{list}", "{list}"),
    "not_assessable": ("Keine bewertbaren Werte", "Keine bewertbaren Werte"),
    "no_data": ("Noch keine Werte veröffentlicht", "Noch keine Werte veröffentlicht"),
}

SUMMARY_TEXTS_DE = {
    "exceeds_limit": "Über dem Grenzwert: {list}.",
    "exceeds_other": "Kein Wert liegt über einem Grenzwert der Anlagen 1 und 2 der "
    "Trinkwasserverordnung. Auffällig: {list}.",
    "complies": "Keiner der bewerteten Werte liegt über seinem Grenz-, Indikator- oder "
    "Orientierungswert.",
    "key_values_missing": "Keiner der bewerteten Werte ({n}) liegt über seinem Grenz-, "
    "Indikator- oder Orientierungswert. Das sagt nichts über {list}: Dafür liegt keine "
    "Bewertung vor.",
    "not_assessable": "Es sind Werte veröffentlicht, aber keiner lässt sich mit einem "
    "Grenzwert vergleichen: {list}.",
    "no_data": "Für dieses Versorgungsgebiet liegen noch keine veröffentlichten Werte vor.",
}

ALSO_OTHER_DE = " Außerdem auffällig: {list}."
ALSO_NOT_ASSESSABLE_DE = " Nicht bewertbar: {list}."

# Why a value is not assessable (or how it was assessed), for `note_de`.
NOTES_DE = {
    "rl_above": "Die angegebene Bestimmungsgrenze liegt über dem Wert; ob er eingehalten ist, "
    "lässt sich nicht sagen.",
    "rl_missing": "Die Bestimmungsgrenze ist nicht als Zahl angegeben.",
    "above_below": "„> x“ sagt nur, dass der Wert über x liegt; x liegt nicht über dem Wert.",
    "no_number": "Der veröffentlichte Text enthält keine Zahl, die sich vergleichen lässt.",
    "range_above": "Die veröffentlichte Spanne reicht über den Wert hinaus; es zählt die obere "
    "Grenze.",
    "range_in_range": "Die veröffentlichte Spanne zeigt nicht, dass beide Grenzen des Bereichs "
    "eingehalten sind.",
    "range_one_end": "Der veröffentlichte Wert zeigt nur für eine Grenze des Bereichs, dass sie "
    "eingehalten ist; für die andere fehlt ein Wert (etwa ein Minimum neben dem Maximum).",
    "statistic_weak": "Ein Mittel- oder Minimalwert unter dem Wert zeigt nicht, dass jede Probe "
    "ihn eingehalten hat.",
}
