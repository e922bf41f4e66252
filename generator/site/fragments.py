"""Templates compiled into polars expressions, for markup repeated thousands of times.

Rows of big tables (current values, data points, charts) come from
`templates/fragments/*.html`, and the pages of every PLZ, zone and supplier from a shell
that Jinja renders once (`templates/plz.html` ...): polars fills them for all rows at once,
so Python never loops over values and barely over pages. The syntax is deliberately tiny:

- `{name}` inserts the column `name`, HTML-escaped;
- `{!name}` inserts it unescaped (for columns that already hold markup);
- `{?name}...{/name}` keeps the section only where `name` is true or a non-empty string.

>>> compile_fragment("<b>{x}</b>", {"x": pl.col("a")})  # doctest: +SKIP
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from generator.site.expressions import read_by, with_narrow
from generator.site.text import esc

_TOKEN = re.compile(r"\{([!?/]?)([a-z_][a-z0-9_]*)\}")


def _present(expr: pl.Expr) -> pl.Expr:
    text = expr.cast(pl.String)
    return text.is_not_null() & (text != "") & (text != "false")


def compile_fragment(template: str, values: dict[str, pl.Expr]) -> pl.Expr:
    """Return an expression that fills `template` from `values` for every row."""
    pos = 0
    stack: list[tuple[str, list[pl.Expr]]] = [("", [])]
    for match in _TOKEN.finditer(template):
        if match.start() > pos:
            stack[-1][1].append(pl.lit(template[pos : match.start()]))
        pos = match.end()
        sigil, name = match.groups()
        if name not in values:
            raise KeyError(f"fragment uses {{{sigil}{name}}} but no value {name!r} was given")
        if sigil == "?":
            stack.append((name, []))
        elif sigil == "/":
            opened, parts = stack.pop()
            if opened != name:
                raise ValueError(f"fragment closes {{/{name}}} but {{?{opened}}} is open")
            stack[-1][1].append(
                pl.when(_present(values[name])).then(_concat(parts)).otherwise(pl.lit(""))
            )
        else:
            expr = values[name].cast(pl.String)
            stack[-1][1].append((expr if sigil == "!" else esc(expr)).fill_null(""))
    if len(stack) != 1:
        raise ValueError(f"fragment leaves {{?{stack[-1][0]}}} open")
    if pos < len(template):
        stack[0][1].append(pl.lit(template[pos:]))
    return _concat(stack[0][1])


def with_fragment(
    frame: pl.DataFrame, template: str, values: dict[str, pl.Expr], name: str
) -> pl.DataFrame:
    """Return `frame` with the column `name`: `template` filled for every row.

    The same as `compile_fragment(template, values)`, but each value is computed once, as a
    column, before the template refers to it: a fragment that uses a long expression (a
    limit in words) in several places would otherwise carry a copy of it at each, and
    polars plans the copies again for every batch (seconds for a handful of rows).
    """
    temporary = {key: f"__fragment_{key}" for key in values}

    def filled(narrow: pl.DataFrame) -> pl.DataFrame:
        return narrow.with_columns(
            value.alias(temporary[key]) for key, value in values.items()
        ).select(
            compile_fragment(template, {k: pl.col(c) for k, c in temporary.items()}).alias(name)
        )

    return with_narrow(frame, read_by(list(values.values())), filled, [name])


def fill(shell: str, values: dict[str, pl.Expr]) -> pl.Expr:
    """Return the bytes of one page per row: `shell` with its placeholders filled."""
    return compile_fragment(shell, values).cast(pl.Binary)


def _concat(parts: list[pl.Expr]) -> pl.Expr:
    return pl.concat_str(parts) if parts else pl.lit("")


def load(templates: Path, name: str) -> str:
    """Read a fragment file; surrounding whitespace and line breaks between tags are dropped."""
    lines = [
        line.strip()
        for line in (templates / "fragments" / name).read_text(encoding="utf-8").splitlines()
    ]
    # Fragments repeat per row, so indentation would be much of their weight; a line break
    # between two words still counts as a space.
    out = ""
    for line in filter(None, lines):
        glue = "" if not out or out[-1] in ">}" or line[0] in "<{" else " "
        out += glue + line
    return out


_LAYOUT = re.compile(r"(<(pre|textarea)\b.*?</\2>)|[ \t]*\n\s*", re.S)


def squeeze(html: str) -> str:
    """Drop the indentation and blank lines of a rendered page (its whitespace runs).

    A run of whitespace with a line break in it becomes one line break: the browser reads
    both as one space, so the page says the same. Only `<pre>` and `<textarea>`, where
    whitespace is content, are kept as they are.
    """
    return _LAYOUT.sub(lambda m: m.group(1) or "\n", html)
