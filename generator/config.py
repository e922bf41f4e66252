"""The operator's configuration (`trinkwasser.toml`): typed, validated up front.

Every field checks itself and all problems are reported together, each with its key.
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from generator.errors import ConfigError

DEFAULT_FILE = "trinkwasser.toml"
OPEN_LICENSES = (
    "cc-zero",
    "cc-by/4.0",
    "cc-by-sa/4.0",
    "dl-zero-de/2.0",
    "dl-by-de/2.0",
    "odbl",
    "odby",
    "odcpddl",
)
"""Open licences of the DCAT-AP.de licence vocabulary (dcat-ap.de/def/licenses, edition
20210721), by the identifier that ends their IRI: the choices for the parameter register."""
SMTP_SECURITY = ("starttls", "tls", "none")
"""How `keys approve` talks to the mail server: STARTTLS on a plain port, TLS from the first
byte, or neither (only for a relay on the same host)."""
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_URL = re.compile(r"^https?://[^\s/]+(/[^\s]*)?$")


@dataclass(frozen=True)
class SmtpConfig:
    """Where `keys approve` and `keys reject` send their e-mails (`[smtp]`).

    The password is never in the file: it is read from the environment variable named by
    `password_env` when a message is sent.
    """

    host: str
    sender: str
    port: int = 587
    security: str = "starttls"
    user: str = ""
    password_env: str = "TRINKWASSER_SMTP_PASSWORD"
    timeout: float = 30.0


@dataclass(frozen=True)
class Config:
    """Who publishes the data and where; defaults describe the bundled sample."""

    operator: str = "Trinkwasserdaten (Beispielbetrieb)"
    base_url: str = "http://127.0.0.1:8000"
    contact: str = "kontakt@trinkwasserdaten.example"
    license_url: str = "https://opendatacommons.org/licenses/odbl/1-0/"
    key_prefix: str = "twd_"
    publication_cadence_months: int = 12
    """A zone whose newest publication is older than this is marked stale (TrinkwV § 46
    requires the consumers to be informed at least once a year)."""
    publisher: str = ""
    """Who publishes the open datasets in the catalogue (`dct:publisher`); empty: the
    operator."""
    contributor_id: str = ""
    """The operator's GovData contributor ID (`dcatde:contributorID`), an IRI of
    http://dcat-ap.de/def/contributors/; GovData harvests no dataset without one."""
    register_license: str = "cc-by/4.0"
    """The licence of the parameter register, the operator's compilation: an open licence of
    the DCAT-AP.de vocabulary (http://dcat-ap.de/def/licenses/ID)."""
    published_since: str = ""
    """The day the open datasets were first published (`dct:issued`), YYYY-MM-DD; empty:
    not stated."""
    smtp: SmtpConfig | None = None
    """`[smtp]`: send key e-mails; None prints them for the operator to send by hand."""
    allow_private_addresses: bool = False
    """`[fetch] allow_private_addresses`: let `fetch` read from loopback, link-local and
    private addresses (a register of an intranet's servers); off, they are refused."""
    sample: bool = False
    """Not a setting of the file: the build sets it when it builds the bundled sample, so
    every page says the values are invented and no search engine indexes them."""


NOT_IN_FILE = ("smtp", "allow_private_addresses", "sample")
"""Fields of Config that are no key of `[site]`."""

DEPLOY_ENV = "NETLIFY"
"""Netlify sets NETLIFY=true in every build it runs (production, previews, branch deploys).
Not `CI`: the project's own CI sets CI=true and builds the sample for its tests."""


def sample_data_dir() -> Path:
    """Return the directory of the bundled (synthetic) sample data."""
    return Path(str(resources.files("generator") / "sample"))


def is_sample(data_dir: Path) -> bool:
    """Tell whether `data_dir` holds the bundled sample: the packaged folder, or a copy.

    A copy counts when its suppliers and zones are the sample's, byte for byte: invented
    suppliers on real postcodes must be labelled wherever they are built from.
    """
    sample = sample_data_dir()
    data_dir = Path(data_dir)
    try:
        if data_dir.resolve() == sample.resolve():
            return True
        return all(
            (data_dir / name).read_bytes() == (sample / name).read_bytes()
            for name in ("suppliers.csv", "zones.csv")
        )
    except OSError:
        return False


def for_data(config: Config, data_dir: Path) -> Config:
    """Return `config` marked `sample` when `data_dir` is the bundled sample (or a copy)."""
    if config.sample or not is_sample(data_dir):
        return config
    return replace(config, sample=True)


def deploy_context(flag: bool, environ: Mapping[str, str]) -> str | None:
    """Say why a build is a deploy (`--deploy`, or NETLIFY=true), or None for a local one."""
    if flag:
        return "--deploy"
    if environ.get(DEPLOY_ENV, "").strip().lower() == "true":
        return f"{DEPLOY_ENV}=true"
    return None


def is_loopback_url(url: str) -> bool:
    """Tell whether `url` names this machine: localhost, 127.0.0.0/8, ::1, 0.0.0.0 or ::."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def check_deploy(config: Config, reason: str, path: Path | None) -> None:
    """Refuse a deploy whose links would point at this machine (ConfigError names the setting).

    Every canonical link, the sitemap, the feeds, the catalogue's URIs, the OpenAPI `servers`
    entry and the key e-mails are made from `base_url`; the built-in default is loopback.
    """
    if not is_loopback_url(config.base_url):
        return
    where = str(path) if path is not None else f"{DEFAULT_FILE} in the working directory"
    found = "" if path is not None or Path(DEFAULT_FILE).is_file() else " (there is none)"
    raise ConfigError(
        f"site.base_url is {config.base_url}, an address of this machine, and this build is a "
        f"deploy ({reason}): every canonical link, the sitemap, the feeds, the catalogue and "
        f"the OpenAPI document would point there. Set base_url in the [site] table of "
        f"{where}{found} to the public address of the site, e.g. "
        f'base_url = "https://trinkwasser.example" (docs/netlify.md, Deploy).'
    )


# The settings given as text, each with its check and what the check wants.
_CHECKS: dict[str, tuple[Callable[[str], bool], str]] = {
    "operator": (lambda v: bool(v.strip()) and len(v) <= 200, "a non-empty name"),
    "base_url": (
        lambda v: bool(_URL.match(v)) and not v.endswith("/"),
        "an http(s) URL without a trailing slash",
    ),
    "contact": (lambda v: bool(_EMAIL.match(v)), "an e-mail address"),
    "license_url": (lambda v: bool(_URL.match(v)), "an http(s) URL"),
    "key_prefix": (
        lambda v: bool(re.fullmatch(r"[a-z]{2,8}_", v)),
        "2-8 lowercase letters followed by '_'",
    ),
    "publisher": (lambda v: len(v) <= 200 and "\n" not in v, "a name (empty: the operator)"),
    "contributor_id": (
        lambda v: v == "" or bool(re.fullmatch(r"http://dcat-ap\.de/def/contributors/\w+", v)),
        "an IRI of http://dcat-ap.de/def/contributors/ (GovData assigns it), or empty",
    ),
    "register_license": (
        lambda v: v in OPEN_LICENSES,
        f"an open licence of the DCAT-AP.de vocabulary: {', '.join(OPEN_LICENSES)}",
    ),
    "published_since": (lambda v: v == "" or _is_date(v), "a date YYYY-MM-DD, or empty"),
}


def _is_date(text: str) -> bool:
    import datetime as dt

    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", text))


_SMTP_TEXT: dict[str, tuple[Callable[[str], bool], str]] = {
    "host": (lambda v: bool(re.fullmatch(r"[A-Za-z0-9.\-:\[\]]+", v)), "a host name or address"),
    "sender": (lambda v: bool(_EMAIL.match(v)), "an e-mail address"),
    "security": (lambda v: v in SMTP_SECURITY, f"one of {', '.join(SMTP_SECURITY)}"),
    "user": (lambda v: len(v) <= 200 and "\n" not in v, "a user name"),
    "password_env": (
        lambda v: bool(re.fullmatch(r"[A-Z_][A-Z0-9_]*", v)),
        "the NAME of an environment variable (the password itself never goes in the file)",
    ),
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _smtp(section: object, errors: list[str]) -> SmtpConfig | None:
    if not isinstance(section, dict):
        errors.append("smtp: must be a table")
        return None
    known = {f.name for f in fields(SmtpConfig)}
    for key in section:
        if key not in known and key != "password":
            errors.append(f"smtp.{key}: unknown setting (known: {', '.join(sorted(known))})")
    values: dict[str, Any] = {}
    for key in ("host", "sender"):
        if key not in section:
            errors.append(f"smtp.{key}: missing (required when [smtp] is given)")
    for key, (ok, what) in _SMTP_TEXT.items():
        if key in section:
            value = section[key]
            if not isinstance(value, str) or not ok(value):
                errors.append(f"smtp.{key}: must be {what}, got {value!r}")
            else:
                values[key] = value
    if "port" in section:
        port = section["port"]
        if not _is_int(port) or not 1 <= port <= 65535:
            errors.append(f"smtp.port: must be a port number (1-65535), got {port!r}")
        else:
            values["port"] = port
    if "timeout" in section:
        timeout = section["timeout"]
        if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout <= 0:
            errors.append(f"smtp.timeout: must be a positive number of seconds, got {timeout!r}")
        else:
            values["timeout"] = float(timeout)
    if "password" in section:
        errors.append("smtp.password: never in the file; set the variable named by password_env")
    if errors:
        return None
    return SmtpConfig(**values)


def _fetch(section: object, values: dict[str, Any], errors: list[str]) -> None:
    if not isinstance(section, dict):
        errors.append("fetch: must be a table")
        return
    for key in section:
        if key != "allow_private_addresses":
            errors.append(f"fetch.{key}: unknown setting (known: allow_private_addresses)")
    if "allow_private_addresses" in section:
        allow = section["allow_private_addresses"]
        if not isinstance(allow, bool):
            errors.append(f"fetch.allow_private_addresses: must be true or false, got {allow!r}")
        else:
            values["allow_private_addresses"] = allow


def load_config(path: Path | None = None) -> Config:
    """Read `path` (or ./trinkwasser.toml if it exists); return defaults otherwise."""
    if path is None:
        candidate = Path(DEFAULT_FILE)
        if not candidate.is_file():
            return Config()
        path = candidate
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    section = raw.get("site", {})
    errors: list[str] = []
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [site] must be a table")
    known = {f.name for f in fields(Config)} - set(NOT_IN_FILE)
    for key in section:
        if key not in known:
            errors.append(f"site.{key}: unknown setting (known: {', '.join(sorted(known))})")
    for key in sorted(set(raw) - {"site", "smtp", "fetch"}):
        errors.append(f"{key}: unknown section (only [site], [smtp] and [fetch] are read)")
    values: dict[str, Any] = {}
    if "publication_cadence_months" in section:
        months = section["publication_cadence_months"]
        if not _is_int(months) or not 1 <= months <= 120:
            errors.append(
                f"site.publication_cadence_months: must be a whole number of months "
                f"(1-120), got {months!r}"
            )
        else:
            values["publication_cadence_months"] = months
    if "smtp" in raw:
        values["smtp"] = _smtp(raw["smtp"], errors)
    if "fetch" in raw:
        _fetch(raw["fetch"], values, errors)
    for key, (ok, what) in _CHECKS.items():
        if key not in section:
            continue
        value = section[key]
        if not isinstance(value, str) or not ok(value):
            errors.append(f"site.{key}: must be {what}, got {value!r}")
        else:
            values[key] = value
    if errors:
        raise ConfigError(f"{path} is invalid:\n  " + "\n  ".join(errors))
    return Config(**values)
