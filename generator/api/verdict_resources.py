"""The fields of a verdict: computed sums, checks, a zone's summary, a pesticide's status.

Declared like every other document (see `generator.api.resources`, which registers them);
kept apart so each module stays readable.
"""

from __future__ import annotations

from generator.api import verdicts
from generator.api.fields import Resource, boolean, date, integer, many, number, one, string, uri
from generator.api.qualifiers import QUALIFIERS, STATISTICS

_QUALIFIER = "What kind of statement the published text is."
STATES: dict[str, str] = {state: v.meaning for state, v in verdicts.STATES.items()}
"""What the `state` of a value means (derive's classification yields these)."""

SUM_COUNTED: dict[str, str] = {
    "added": "quantified and added to the sum",
    "below_reporting_limit": "below the reporting limit: not added (the ordinance's rule for "
    "its sums); for the nitrate rule anywhere between 0 and the reporting limit",
    "not_detected": "not detected: adds nothing",
    "lower_bound": "`> x`: x is added, the true value may be higher",
    "uncertain": "a metabolite whose relevance is open: not added, but in `value_max`",
    "no_number": "no comparable number: counts as not published",
}
"""How a member of a computed sum counts (`counted`)."""

SUM_MEMBER = Resource(
    "SumMember",
    "One published value that is a member of a computed sum, from the same sample.",
    (
        string("parameter", "Parameter code of the member.", "pfoa"),
        string("name_de", "German name of the member.", "Perfluoroctansäure (PFOA)"),
        string("value_text", "The value exactly as published.", "0,05"),
        string("unit", "Unit as published.", "µg/l", nullable=True),
        string("qualifier", _QUALIFIER, "number", enum=QUALIFIERS),
        number("normalized_value", "The value in the register unit.", 0.05, nullable=True),
        number(
            "normalized_reporting_limit",
            "The reporting limit in the register unit.",
            None,
            nullable=True,
        ),
        number("weight", "Factor the member enters the sum with (1 for plain sums).", 1.0),
        string("counted", "How the member counts.", "added", enum=SUM_COUNTED),
    ),
)

COMPUTED_SUM = Resource(
    "ComputedSum",
    "A sum the ordinance defines, computed from its members in one sample (same zone, date, "
    "sample point and document).",
    (
        number("value", "Sum of the added members, in `unit`.", 0.12),
        number(
            "value_max",
            "The largest the sum can be from its members (open metabolites and, for the "
            "nitrate rule, `< x` as x included); null when a member is only a lower bound.",
            0.12,
            nullable=True,
        ),
        string("unit", "Unit of the sum (null for the nitrate rule).", "µg/l", nullable=True),
        many("members", "SumMember", "The published members of the sample, by code."),
        many(
            "missing",
            string("", "", None),
            "Members the sum needs that the sample does not state as a number, `< x` or "
            "`n.n.` (empty where the ordinance sums only what was analysed).",
            [],
        ),
        string(
            "rule",
            "How members count.",
            "Sum of the quantified members; results below the limit of quantification are "
            "not added.",
        ),
        string("legal_basis", "Where the sum is defined.", "TrinkwV 2023, Anlage 2 Teil I"),
        number(
            "reported_value",
            "The sum as published in the same sample (register unit), if any.",
            None,
            nullable=True,
        ),
        boolean(
            "consistent",
            "Whether the members agree with the published sum within `tolerance`; null "
            "without a published sum.",
            None,
            nullable=True,
        ),
        number(
            "tolerance",
            "How far (relative) the members may exceed the published sum before the two "
            "count as inconsistent.",
            0.1,
        ),
    ),
)

OTHER_POINT = Resource(
    "OtherPoint",
    "Another sample point of the parameter: its newest value and what its values prove.",
    (
        string(
            "sample_point",
            "Where the sample was taken, if published.",
            "Wasserwerk Süd",
            nullable=True,
        ),
        date("sampled_at", "Date of the point's newest values.", "2026-03-10"),
        string(
            "statistic",
            "What the value is: one sample, or the minimum, mean or maximum of a period.",
            "sample",
            enum=STATISTICS,
        ),
        string("document_id", "The document the value is taken from.", "wk-2026"),
        string("value_text", "The value exactly as published.", "4,2"),
        string("unit", "Unit as published.", "µg/l", nullable=True),
        string("qualifier", _QUALIFIER, "number", enum=QUALIFIERS),
        number("normalized_value", "The value in the register unit.", 4.2, nullable=True),
        number(
            "normalized_reporting_limit",
            "The reporting limit in the register unit.",
            None,
            nullable=True,
        ),
        string(
            "state",
            "What the point's values prove against the same limit.",
            "below_limit",
            enum=STATES,
        ),
        string(
            "future_state",
            "What they prove against the limit already announced, or null.",
            None,
            nullable=True,
            enum=STATES,
        ),
        boolean(
            "old",
            "Older than the publication cadence: it decides only where no newer point stands.",
            False,
        ),
    ),
)

CHECK = Resource(
    "Check",
    "A rule of the ordinance over several parameters, checked on one sample: "
    "nitrate/50 + nitrite/3 must not exceed 1 (Anlage 2).",
    (
        string("code", "Id of the rule.", "nitrat_nitrit"),
        string("name_de", "German name.", "Nitrat/50 + Nitrit/3"),
        string("name_en", "English name.", "Nitrate/50 + nitrite/3"),
        date("sampled_at", "Date of the sample.", "2026-03-10"),
        string("sample_point", "Where the sample was taken, if published.", None, nullable=True),
        string("state", "Classification against `limit`.", "below_limit", enum=STATES),
        one("limit", "Limit", "The value the rule must not exceed."),
        one("computed", "ComputedSum", "The members and how they add up."),
        one("provenance", "Document", "The document of the sample.", nullable=True),
        string("note_de", "The check in a German sentence.", None, nullable=True),
    ),
)

ZONE_SUMMARY = Resource(
    "ZoneSummary",
    "The zone's verdict over its current values and checks, as the site shows it.",
    (
        string("status", "The verdict.", "complies", enum=verdicts.SUMMARY_STATUSES),
        integer(
            "assessed",
            "Number of values (and checks) compared with a value: complying or above it.",
            5,
        ),
        many(
            "exceeds_limit",
            string("", "", None),
            "Codes of the values above a binding limit (state `exceeds_limit`).",
            [],
        ),
        many(
            "exceeds_other",
            string("", "", None),
            "Codes of the values above an indicator, action, parameter, reference or "
            "guidance value.",
            [],
        ),
        many(
            "not_assessable",
            string("", "", None),
            "Codes of the published values that cannot be compared (`not_assessable`, "
            "`relevance_unclear`, `unit_mismatch`).",
            [],
        ),
        many(
            "key_unassessed",
            string("", "", None),
            "Codes of the key values (PFAS-20, nitrate, lead) that were not published or "
            "cannot be assessed; the headline names them, and the status is at best "
            "`key_values_missing`.",
            [],
        ),
        many(
            "announced",
            string("", "", None),
            "Codes of the values above a stricter value already announced.",
            ["blei"],
        ),
        string(
            "title_de", "The verdict as a German headline.", "Alle 5 bewerteten Werte eingehalten"
        ),
        string(
            "text_de",
            "The verdict in German sentences, naming the values concerned.",
            "Keiner der bewerteten Werte liegt über seinem Grenz-, Indikator- oder "
            "Orientierungswert.",
        ),
    ),
)

PESTICIDE_STATUS = Resource(
    "PesticideStatus",
    "How the ordinance's values for pesticides apply to this substance, with the source.",
    (
        string("decision", "The decision.", "active_substance", enum=verdicts.PESTICIDE_DECISIONS),
        string(
            "legal_basis",
            "Where the decision rests.",
            "TrinkwV 2023, Anlage 2 Teil I, Parameter „Pestizide“",
        ),
        string(
            "note_de",
            "The decision in a German sentence.",
            "Grenzwert von 0,1 µg/l für jeden einzelnen Pestizid-Wirkstoff (TrinkwV 2023, "
            "Anlage 2 Teil I).",
        ),
        string("source_title", "Title of the main source.", None, nullable=True),
        uri(
            "source_url",
            "Address of the main source.",
            "https://www.gesetze-im-internet.de/trinkwv_2023/anlage_2.html",
            nullable=True,
        ),
        string("source_date", "Date of the main source, as known.", "2023-06-20", nullable=True),
        string(
            "confidence",
            "two_sources, one_source or assumed (no source on the classification).",
            "two_sources",
            nullable=True,
        ),
    ),
)
