"""The site's template environment: Jinja with the site-wide globals, and a page as bytes."""

from __future__ import annotations

import datetime as dt
from typing import cast

import jinja2

from generator import __version__
from generator.api import routes
from generator.api.license_resources import odbl_attribution
from generator.config import Config
from generator.site import assets, compiled, fragments, text, urls


def environment(
    as_of: dt.date,
    config: Config,
    versions: dict[str, str],
    search_index: str = "",
    newest: dt.date | None = None,
) -> jinja2.Environment:
    """Return the template environment with the site-wide globals.

    `search_index` is the versioned URL of the search index (`places.search_index`);
    `newest` the edition date of the newest publication the build used
    (`derive.newest_publication`), which the footer names beside the build date.
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(assets.templates_dir()),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=compiled.TEMPLATES,
    )
    env.globals.update(
        url=urls.url,
        url_pattern=urls.url_pattern,
        static=lambda name: urls.static_url(name, versions[name]),
        api_url=routes.url,
        search_index=search_index,
        badges=text.BADGES,
        kinds=text.KINDS,
        groups=text.GROUPS,
        site={
            "operator": config.operator,
            "contact": config.contact,
            "base_url": config.base_url,
            "attribution": odbl_attribution(config.operator, config.license_url),
            "as_of": text.date(as_of),
            "as_of_iso": as_of.isoformat(),
            "newest_publication": text.date(newest),
            "version": __version__,
            "sample": config.sample,
        },
    )
    env.filters.update(
        number=text.number,
        thousands=text.thousands,
        date=text.date,
        unit=text.unit,
    )
    # Badges repeat on every zone page: render each once, not once per use.
    # A template module's macros are attributes made at run time: look them up by name.
    badge = vars(env.get_template("macros.html").module)["badge"]
    env.globals["badge_html"] = {state: badge(state) for state in text.BADGES}
    return env


def html(page: str) -> bytes:
    """Return a rendered page as the bytes of its file, without its whitespace runs."""
    return fragments.squeeze(page).encode()


def badges(env: jinja2.Environment) -> dict[str, str]:
    """Return each state's badge as `environment` rendered it, as text."""
    # A dict of Markup by state (the globals are untyped).
    rendered = cast(dict[str, object], env.globals["badge_html"])
    return {state: str(html) for state, html in rendered.items()}
