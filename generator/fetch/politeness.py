"""The rules `trinkwasser fetch` fetches by, with their defaults.

Apart from the client (`generator.fetch.polite`, which needs httpx), so that the command
can show them (`generator.fetch.options`) without the fetch extra.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Politeness:
    delay: float = 5.0
    """Seconds between two requests to the same host."""
    timeout: float = 60.0
    """Seconds one exchange (connect, send, read the whole body) may take."""
    max_bytes: int = 50 * 1024 * 1024
    max_redirects: int = 5
    retries: int = 3
    max_retry_wait: float = 600.0
    """A Retry-After longer than this gives up instead of waiting."""
    allow_private: bool = False
    """Fetch from loopback, link-local and private addresses too (an intranet, tests)."""
