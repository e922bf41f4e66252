"""The German notes of computed sums: how a sum came about and what its members can show.

Kept beside generator/ordinance/sums.py, which computes the sums; the words say which members were
added ("derselben Probe", "Höchstwerte verschiedener Proben"), what is missing, and why a
sum cannot show compliance (a member "< BG" without a number, maxima of different samples,
metabolites whose relevance is open).
"""

from __future__ import annotations

import polars as pl

from generator.values.german import number_expr

_OF_MEMBERS = {
    "max": "(Höchstwerte verschiedener Proben)",
    "mean": "(Mittelwerte desselben Zeitraums)",
    "min": "(Mindestwerte verschiedener Proben)",
}


def of_members() -> pl.Expr:
    """Where the members come from: one sample, or aggregates of several samples."""
    return pl.col("statistic").replace_strict(
        _OF_MEMBERS, default="derselben Probe", return_dtype=pl.String
    )


def computed_note() -> pl.Expr:
    """How a computed sum came about, in German (its state adds the rest)."""
    unit = pl.col("sum_unit").fill_null("")
    added = (
        pl.when(pl.col("n_added") > 0)
        .then(
            pl.format("Berechnet aus den Einzelstoffen {}: {}.", of_members(), pl.col("added_text"))
        )
        .when(pl.col("rl_unknown") > 0)
        .then(
            pl.format(
                "Berechnet aus den Einzelstoffen {}: kein Einzelstoff über der "
                "Bestimmungsgrenze; Bestimmungsgrenze nicht angegeben. Eine Einhaltung lässt "
                "sich so nicht zeigen.",
                of_members(),
            )
        )
        .otherwise(
            pl.format(
                "Berechnet aus den Einzelstoffen {}; keiner lag über der Bestimmungsgrenze.",
                of_members(),
            )
        )
    )
    maxima = pl.col("statistic") == "max"
    rule = (
        pl.when((pl.col("n_added") == 0) & (pl.col("rl_unknown") == 0))
        .then(
            pl.lit(
                " Messwerte unter der Bestimmungsgrenze werden nach der Verordnung bei der "
                "Summenbildung nicht berücksichtigt (Anlage 2): Die Summe ist daher 0, auch "
                "wenn die Bestimmungsgrenzen zusammen höher liegen."
            )
        )
        .otherwise(
            pl.lit(" Werte unter der Bestimmungsgrenze zählen nach der Verordnung nicht mit.")
        )
    )
    parts = [
        added,
        rule,
        pl.when((pl.col("n_added") > 0) & (pl.col("rl_unknown") > 0)).then(
            pl.format(
                " Für {} Einzelstoffe unter der Bestimmungsgrenze ist diese nicht angegeben: "
                "Eine Einhaltung lässt sich so nicht zeigen.",
                pl.col("rl_unknown"),
            )
        ),
        # A sum of maxima of different samples is no sample's sum: at or below the limit,
        # every sample complied; above it, only a member above the limit proves anything.
        pl.when(maxima & (pl.col("n_added") > 1)).then(
            pl.lit(
                " Summe der Höchstwerte verschiedener Proben: Liegt sie nicht über dem "
                "Grenzwert, lag keine Probe darüber; liegt sie darüber, zeigt sie keine "
                "Überschreitung."
            )
        ),
        pl.when(pl.col("missing").list.len() > 0).then(
            pl.format(
                " Nicht veröffentlicht sind {} der {} Einzelstoffe: Eine Überschreitung lässt "
                "sich so feststellen, eine Einhaltung nicht.",
                pl.col("missing").list.len(),
                pl.col("n_needed"),
            )
        ),
        pl.when(pl.col("_lower_bound")).then(
            pl.lit(" Ein Einzelstoff ist nur als „> x“ angegeben: Die Summe kann höher sein.")
        ),
        pl.when(pl.col("value_max") > pl.col("value")).then(
            pl.format(
                " Abbaustoffe, deren Einstufung offen ist, sind nicht eingerechnet; mit ihnen "
                "ergäbe sich {} {}.",
                number_expr(pl.col("value_max")),
                unit,
            )
        ),
    ]
    return pl.concat_str([p.fill_null("") for p in parts])
