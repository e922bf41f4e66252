"""The site's static assets as the build writes them: each with its content version.

Our own stylesheet is minified (`minify_css`); the other assets are copied as they are.
"""

from __future__ import annotations

import rcssmin

from generator.site import urls


def minify_css(css: str) -> str:
    """Drop comments and layout whitespace from our own stylesheet (a page budget is tight).

    With `rcssmin`, a maintained minifier that parses strings, comments and selectors (a
    regular expression of our own rewrote `a: b` inside a selector or a string too). Its
    output depends on its version, which pyproject.toml pins, as the golden tree does.
    """
    return str(rcssmin.cssmin(css)).strip() + "\n"


def static_files() -> tuple[list[tuple[str, bytes]], dict[str, str]]:
    """Return every asset as (build path, bytes), and the content version of each."""
    files, versions = [], {}
    for name, path in urls.static_files():
        data = path.read_bytes()
        if name.endswith(".css") and not name.startswith("vendor/"):
            data = minify_css(data.decode("utf-8")).encode()
        files.append((urls.static_file(name), data))
        versions[name] = urls.asset_version(data)
    return files, versions
