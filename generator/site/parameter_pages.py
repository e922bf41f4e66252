"""The register's pages: the list of parameters, and a page per parameter."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import jinja2

from generator import compare
from generator.api import verdicts
from generator.derive import Derived
from generator.site import answer, comparison, text, urls
from generator.site.environment import html


def _limit_rows(d: Derived) -> dict[str, list[dict[str, Any]]]:
    by_code: dict[str, list[dict[str, Any]]] = {}
    for r in d.limits.iter_rows(named=True):
        r["words"] = text.limit(
            r["kind"], r["value"], r["value_min"], r["value_max"], r["requirement"], r["unit"]
        )
        by_code.setdefault(r["code"], []).append(r)
    return by_code


def parameter_pages(
    d: Derived, env: jinja2.Environment, as_of: dt.date, compared: bool = False
) -> Iterator[tuple[str, bytes]]:
    """Yield the register's page and the parameters' pages, or the compared ones alone.

    With `compared`, the pages of the parameters compared across zones
    (`compare.COMPARED`): those show the national distribution of the zones' values,
    which follows from the series, so they are rendered every time, not kept with the
    register's section.
    """
    params = d.parameters.sort("group", "name_de").to_dicts()
    names = dict(zip(d.parameters["code"], d.parameters["name_de"], strict=True))
    limits = _limit_rows(d)
    explained = {r["code"]: r for r in d.explanations.iter_rows(named=True)}
    ranges = answer.hardness_rows(d.hardness_ranges)
    groups = sorted({p["group"] for p in params}, key=lambda g: text.GROUPS.get(g, g))
    if not compared:
        yield (
            urls.file_path("parameters"),
            html(env.get_template("parameters.html").render(parameters=params, group_codes=groups)),
        )
    template = env.get_template("parameter.html")
    for p in params:
        if (p["code"] in compare.COMPARED) != compared:
            continue
        rows = limits.get(p["code"], [])
        for r in rows:
            until = r["valid_until"]
            r["status"] = (
                "angekündigt"
                if r["valid_from"] > as_of
                else "abgelaufen"
                if until is not None and until < as_of
                else "gilt"
            )
        status = p["pesticide_status"]
        decision = verdicts.PESTICIDE_DECISIONS_DE[status["decision"]] if status else None
        member_of = [{"code": c, "name": names.get(c, c)} for c in p["sums"]]
        yield (
            urls.file_path("parameter", code=p["code"]),
            html(
                template.render(
                    parameter=p,
                    limits=rows,
                    status=status,
                    decision=decision,
                    member_of=member_of,
                    explanation=explained.get(p["code"]),
                    explain_questions=answer.QUESTIONS,
                    hardness_ranges=ranges if p["code"] in answer.HARDNESS_CODES else [],
                    distribution=comparison.distribution_chart(
                        d.distributions, d.limits, p["code"], text.unit(p["unit"])
                    )
                    if compared
                    else None,
                )
            ),
        )
