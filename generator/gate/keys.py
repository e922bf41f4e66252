"""API keys: make them, check them, and the operator's workflow (approve, reject, issue, revoke).

A key is the configured prefix (`twd_`) and 32 random base62 characters (about 190 bits).
Only its SHA-256 is stored; the key itself is shown once, when it is issued. The workflow
functions take the stores as protocols, so approving works the same whichever backend the
access requests come from.
"""

from __future__ import annotations

import hashlib
import secrets
import string
from dataclasses import dataclass
from pathlib import Path

from generator.api import routes
from generator.api.http import KEY_HEADER
from generator.api.license_resources import odbl_attribution
from generator.api.settings import TIMEZONE, GateSettings
from generator.config import Config
from generator.gate.model import (
    AccessRequest,
    ApiKey,
    KeyStore,
    RequestSource,
    TransitionError,
    undecidable,
)
from generator.output.atomic import atomic_write

KEY_ALPHABET = string.digits + string.ascii_uppercase + string.ascii_lowercase  # base62
KEY_LENGTH = 32
HINT_CHARS = 4
DEMO_KEY_FILE = "demo-key.txt"
DEMO_EMAIL = "demo@localhost"
EXAMPLE_PLZ = "10115"
"""The PLZ of example lookups when no build is at hand (Berlin-Mitte)."""


@dataclass(frozen=True)
class IssuedKey:
    key: str
    """The key in clear text: exists only in memory, to be shown once."""
    api_key: ApiKey
    request: AccessRequest | None = None


def new_key(prefix: str) -> str:
    """Return a fresh random key, e.g. `twd_` + 32 base62 characters."""
    return prefix + "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_LENGTH))


def hash_key(key: str) -> str:
    """Return the stored form of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_hint(key: str, prefix: str) -> str:
    """Return the part of a key the operator may see in listings (`twd_AbC9…`)."""
    return key[: len(prefix) + HINT_CHARS] + "…"


def authenticate(
    keys: KeyStore, presented: str, max_length: int = GateSettings.max_key_length
) -> ApiKey | None:
    """Return the stored key for a presented one (active or revoked), or None if unknown."""
    if not presented or len(presented) > max_length:
        return None
    # Looked up by hash: the timing of the index lookup depends on the hash, not on how much
    # of a real key the caller guessed right.
    return keys.key_by_hash(hash_key(presented))


def issue(
    keys: KeyStore,
    email: str,
    prefix: str,
    note: str = "",
    request_id: str | None = None,
) -> IssuedKey:
    """Make a key for `email`, store its hash and return it (the only time it is visible)."""
    key = new_key(prefix)
    api_key = keys.add_key(hash_key(key), key_hint(key, prefix), email, note, request_id)
    return IssuedKey(key, api_key)


def check_recipient(address: str, what: str) -> None:
    """Refuse to issue a key for anything but exactly one e-mail address.

    Both gates check an access request's address when it arrives; this checks it again
    before a key is made, for requests stored by an older gate or written by hand, so a key
    never goes to a second, hidden recipient or to a header line.
    """
    if not routes.is_one_address(address):
        raise TransitionError(
            f"{what} has the address {address!r}, which is not exactly one e-mail address "
            "(name@domain); no key was issued. Reject it, or issue a key for a checked "
            "address with `keys issue --email`"
        )


def approve(source: RequestSource, keys: KeyStore, request_id: str, prefix: str) -> IssuedKey:
    """Approve a pending request: issue its key and mark it approved, in one transaction.

    Raise NotFoundError for an unknown id and TransitionError if it is not pending.
    """
    request = source.get_request(request_id)
    if request.status != "pending":
        # decide_request checks again (compare-and-set); this check only avoids making a key.
        raise undecidable(request_id, request.status)
    check_recipient(request.email, f"access request {request_id}")
    with keys.atomic():
        issued = issue(keys, request.email, prefix, f"access request {request_id}", request_id)
        decided = source.decide_request(request_id, "approved", key_id=issued.api_key.id)
    return IssuedKey(issued.key, issued.api_key, decided)


def reject(source: RequestSource, request_id: str, reason: str) -> AccessRequest:
    """Reject a pending request with a reason (kept for the operator's records)."""
    return source.decide_request(request_id, "rejected", reason=reason)


def ensure_demo_key(keys: KeyStore, state_dir: Path, prefix: str) -> tuple[str, bool]:
    """Return a local demo key and whether it is new; reuse the one in the state directory.

    The demo key is the one exception to "never store a key": it is written to
    `<state>/demo-key.txt` (mode 0600) so every `serve --demo-key` prints the same key.
    """
    path = Path(state_dir) / DEMO_KEY_FILE
    try:
        key = path.read_text(encoding="utf-8").strip()
    except OSError:
        key = ""
    if key:
        stored = keys.key_by_hash(hash_key(key))
        if stored is not None and stored.active:
            return key, False
    issued = issue(keys, DEMO_EMAIL, prefix, "local demo key (trinkwasser serve --demo-key)")
    atomic_write(path, (issued.key + "\n").encode("utf-8"), mode=0o600)
    return issued.key, True


def curl_line(base_url: str, key: str, plz: str) -> str:
    """Return a ready-to-run curl command for one lookup."""
    return f"curl -H '{KEY_HEADER}: {key}' '{base_url}{routes.url('lookup', plz=plz)}'"


APPROVAL_SUBJECT = "Ihr API-Schlüssel für Trinkwasserdaten"
REJECTION_SUBJECT = "Ihre Anfrage eines API-Schlüssels für Trinkwasserdaten"
KEY_PLACEHOLDER = "IHR_SCHLUESSEL"
"""Stands for the key in the e-mail's example, so the key itself is in the e-mail once."""


def approval_body(issued: IssuedKey, config: Config, settings: GateSettings) -> str:
    """Return the text of the e-mail (German, the service's language) with a new key."""
    request = issued.request
    reference = f" (Anfrage {request.id})" if request else ""
    return f"""Guten Tag,

vielen Dank für Ihr Interesse an Trinkwasserdaten{reference}.
Ihr API-Schlüssel lautet:

    {issued.key}

Senden Sie ihn bei jeder Anfrage im Header {KEY_HEADER} mit, zum Beispiel
(für {KEY_PLACEHOLDER} Ihren Schlüssel einsetzen):

    {curl_line(config.base_url, KEY_PLACEHOLDER, EXAMPLE_PLZ)}

Der Schlüssel erlaubt {settings.daily_quota} Anfragen pro Kalendertag (Zeitzone {TIMEZONE}).
Bitte behandeln Sie ihn wie ein Passwort: Wir speichern nur einen Hashwert und können ihn
nicht noch einmal anzeigen. Die Beschreibung der API (OpenAPI) finden Sie unter
{config.base_url}{routes.file_url(routes.open_file("openapi"))}

Die Zuordnung von Postleitzahlen zu Versorgungsgebieten steht unter der ODbL 1.0
({config.license_url}). Bitte nennen Sie bei ihrer Verwendung die Quelle:
{odbl_attribution(config.operator, config.license_url)["credit"]}

Fragen beantworten wir unter {config.contact}.

Viele Grüße
{config.operator}
{config.contact}
"""


def approval_email(issued: IssuedKey, config: Config, settings: GateSettings) -> str:
    """Return a ready-to-send e-mail, with recipient and subject, for the operator to send."""
    body = approval_body(issued, config, settings)
    return f"An: {issued.api_key.email}\nBetreff: {APPROVAL_SUBJECT}\n\n{body}"


def rejection_body(request: AccessRequest, config: Config) -> str:
    """Return the short e-mail that tells a requester no key is issued, and why."""
    return f"""Guten Tag,

vielen Dank für Ihre Anfrage eines API-Schlüssels für Trinkwasserdaten (Anfrage {request.id}).
Leider können wir Ihnen keinen Schlüssel ausstellen.

Begründung: {request.reason}

Wenn Sie Fragen haben oder Ihren Zweck genauer beschreiben möchten, schreiben Sie uns an
{config.contact}.

Viele Grüße
{config.operator}
{config.contact}
"""


def rejection_email(request: AccessRequest, config: Config) -> str:
    """Return the rejection with recipient and subject, for the operator to send by hand."""
    return f"An: {request.email}\nBetreff: {REJECTION_SUBJECT}\n\n{rejection_body(request, config)}"


def replace(
    source: RequestSource, keys: KeyStore, key_id: str, prefix: str
) -> tuple[IssuedKey, ApiKey]:
    """Issue a new key for an active key's owner and revoke the old one, in one transaction.

    The way to send a key again: only its hash is stored, so the old key cannot be shown
    again. Return the new key (with its access request, if any) and the revoked one.
    """
    old = keys.get_key(key_id)
    if not old.active:
        raise TransitionError(f"key {key_id} is revoked; issue a new one with `keys issue`")
    check_recipient(old.email, f"key {key_id}")
    request = source.get_request(old.request_id) if old.request_id else None
    with keys.atomic():
        issued = issue(keys, old.email, prefix, old.note, old.request_id)
        revoked = keys.revoke_key(old.id)
    return IssuedKey(issued.key, issued.api_key, request), revoked
