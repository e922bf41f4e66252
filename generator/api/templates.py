"""`{name}` templates filled row by row: the polars form of `messages.fill`.

One helper for every template the build fills per row of a frame: the routes' URLs and
files (`generator.api.routes`), the site's page URLs (`generator.site.urls`) and the lines
around a series file (`generator.render`). Placeholders are `messages.placeholders`' own.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from generator.api.messages import PLACEHOLDER


def template_pieces(template: str, values: Mapping[str, pl.Expr]) -> list[pl.Expr]:
    """Return `template` as pieces of `pl.concat_str`: its text, and a value per placeholder.

    A placeholder without a value is an error, naming it; a value that is null makes the
    whole text null, as `pl.format` does.
    """
    pieces: list[pl.Expr] = []
    for i, chunk in enumerate(PLACEHOLDER.split(template)):
        if i % 2 == 0:
            if chunk:
                pieces.append(pl.lit(chunk))
        elif chunk in values:
            pieces.append(values[chunk].cast(pl.String))
        else:
            raise KeyError(f"{template!r} has {{{chunk}}}, and no value was given for it")
    return pieces


def template_expr(template: str, values: Mapping[str, pl.Expr]) -> pl.Expr:
    """Return `template` filled from `values` for every row, e.g. `/plz/{plz}/`."""
    pieces = template_pieces(template, values)
    return pl.concat_str(pieces) if pieces else pl.lit("")
