"""An HTTP client that fetches like a guest (httpx, asynchronous).

- `robots.txt` is read once per host and run and obeyed for every URL, redirects included
  (a 404 allows everything; 401/403, a server error or no answer forbid the host, as
  RFC 9309 says);
- requests to one host are spaced by `delay` seconds, whoever makes them; different hosts
  are fetched at the same time;
- every request names the operator and its contact in the User-Agent;
- a known version is asked for conditionally (If-None-Match, If-Modified-Since), so an
  unchanged document costs a 304 and no body;
- redirects are followed by hand, at most `max_redirects`, each hop checked against
  robots.txt and paced like any request; a permanent one (301, 308) means the document moved;
- 429 and 502/503/504 (and 500) are retried `retries` times, after Retry-After when the
  server gives one (up to `max_retry_wait`), else after a doubling pause;
- only public addresses are fetched (`addresses`: every hop resolved and checked, the
  connection made to the checked address), unless private ones are allowed;
- only gzip and deflate, in one layer, are accepted as codings (`decoding`);
- a response is read as a stream, decoded in small pieces, and dropped as soon as its
  decoded bytes are more than `max_bytes`; the whole exchange, decoding included, has
  `timeout` seconds.

Whatever a server answers, `fetch` returns an `Answer`: an exception of the client or of
a server's bytes ends as the source's failure, never as the run's.
"""

from __future__ import annotations

import asyncio
import time
import urllib.robotparser
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import httpx

from generator import __version__
from generator.config import Config
from generator.fetch.addresses import AddressPolicy, AddressRefused, GuardedTransport
from generator.fetch.decoding import ACCEPT_ENCODING, BoundedDecoder, CodingRefused, coding
from generator.fetch.politeness import Politeness
from generator.retries import RetryPolicy, WaitTooLong

ROBOT_NAME = "Trinkwasserdaten"
PERMANENT_REDIRECTS = frozenset({301, 308})
REDIRECTS = frozenset({301, 302, 303, 307, 308})


_ASCII = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
)


def _ascii(text: str) -> str:
    # A header is ASCII: umlauts written out, anything else left out.
    return text.translate(_ASCII).encode("ascii", "ignore").decode().replace("\n", " ")


def user_agent(config: Config) -> str:
    """Name the program, the operator and how to reach it.

    The first word is the robot name robots.txt rules are matched against.
    """
    about = f"+{config.base_url}; {_ascii(config.operator)}; {config.contact}"
    return f"{ROBOT_NAME}/{__version__} ({about})"


@dataclass(frozen=True)
class Validators:
    """What the last version of a document was served with (for a conditional request)."""

    etag: str | None = None
    last_modified: str | None = None


@dataclass
class Answer:
    """What fetching one URL came to."""

    url: str
    final_url: str
    status: int | None
    """The last HTTP status; None when there was no answer."""
    body: bytes | None = None
    """The document (status 200 only)."""
    etag: str | None = None
    last_modified: str | None = None
    content_type: str | None = None
    moved: bool = False
    """A permanent redirect was on the way."""
    error: str | None = None
    """Why there is no document (None for 200 and 304)."""
    gone: bool = False
    """The link no longer answers (a 4xx/5xx in the end, or no answer at all)."""
    attempts: int = 0
    hops: list[str] = field(default_factory=list)

    @property
    def not_modified(self) -> bool:
        return self.status == 304 and self.error is None


class _Refused(Exception):
    """The request must not or cannot be made; the message says why."""

    def __init__(self, message: str, gone: bool = False, status: int | None = None):
        super().__init__(message)
        self.gone = gone
        self.status = status


class Pacer:
    """One clock per host: a request waits until `delay` seconds after the previous one."""

    def __init__(self, delay: float, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self.delay = delay
        self._sleep = sleep
        self._locks: dict[str, asyncio.Lock] = {}
        self._next: dict[str, float] = {}

    def lock(self, host: str) -> asyncio.Lock:
        return self._locks.setdefault(host, asyncio.Lock())

    async def wait_turn(self, host: str) -> None:
        """Wait for the host's turn (call with its lock held)."""
        pause = self._next.get(host, 0.0) - time.monotonic()
        if pause > 0:
            await self._sleep(pause)

    def done(self, host: str, extra: float = 0.0) -> None:
        self._next[host] = time.monotonic() + max(self.delay, extra)


def _host(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class PoliteClient:
    """Fetch documents politely; use as `async with PoliteClient(...) as client`."""

    def __init__(
        self,
        config: Config,
        rules: Politeness = Politeness(),
        transport: httpx.AsyncBaseTransport | None = None,
        policy: AddressPolicy | None = None,
    ):
        self.rules = rules
        self.agent = user_agent(config)
        self.pacer = Pacer(rules.delay)
        self.policy = policy or AddressPolicy(allow_private=rules.allow_private)
        self._robots: dict[str, urllib.robotparser.RobotFileParser | str] = {}
        self._client = httpx.AsyncClient(
            headers={"User-Agent": self.agent, "Accept-Encoding": ACCEPT_ENCODING},
            follow_redirects=False,
            timeout=httpx.Timeout(rules.timeout),
            transport=transport or GuardedTransport(self.policy),
            trust_env=False,
        )
        self.requests = 0
        """How many HTTP requests were made (robots.txt included)."""

    async def __aenter__(self) -> PoliteClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self._client.aclose()

    # ---------------------------------------------------------------- one request

    async def _exchange(
        self, url: str, headers: dict[str, str], limit: int
    ) -> tuple[httpx.Response, bytes]:
        """One paced request; the body is read up to `limit` bytes (more: _Refused)."""
        host = _host(url)
        async with self.pacer.lock(host):
            await self.pacer.wait_turn(host)
            self.requests += 1
            try:
                return await asyncio.wait_for(
                    self._send(url, headers, limit), timeout=self.rules.timeout
                )
            except TimeoutError:
                raise _Refused(
                    f"no complete answer within {self.rules.timeout:g} s", gone=True
                ) from None
            except AddressRefused as exc:
                raise _Refused(str(exc)) from None
            except CodingRefused as exc:
                raise _Refused(str(exc), status=200) from None
            except httpx.InvalidURL as exc:
                # httpx reads a redirect's Location even when it does not follow it.
                raise _Refused(f"an answer with an invalid address: {exc}") from None
            except httpx.HTTPError as exc:
                raise _Refused(f"no answer: {type(exc).__name__}: {exc}", gone=True) from None
            finally:
                self.pacer.done(host)

    async def _send(
        self, url: str, headers: dict[str, str], limit: int
    ) -> tuple[httpx.Response, bytes]:
        request = self._client.build_request("GET", url, headers=headers)
        response = await self._client.send(request, stream=True)
        try:
            if response.status_code != 200:
                return response, b""
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > limit:
                raise _Refused(
                    f"larger than the size cap ({int(declared)} bytes declared, cap {limit})",
                    status=200,
                )
            # Decoded here, not by httpx: in small pieces, counted against the cap as they
            # come, so a bomb stops at the cap and the deadline can interrupt it.
            decoder = BoundedDecoder(coding(response.headers.get_list("Content-Encoding")), limit)
            chunks: list[bytes] = []
            async for raw in response.aiter_raw():
                for piece in decoder.feed(raw):
                    chunks.append(piece)
                    await asyncio.sleep(0)
            chunks.extend(decoder.finish())
            return response, b"".join(chunks)
        finally:
            await response.aclose()

    # ---------------------------------------------------------------- robots.txt

    async def allowed(self, url: str) -> str | None:
        """Return None when robots.txt allows `url`, else why not."""
        host = _host(url)
        if host not in self._robots:
            self._robots[host] = await self._read_robots(host)
        robots = self._robots[host]
        if isinstance(robots, str):
            return robots
        if not robots.can_fetch(self.agent, url):
            return f"robots.txt of {host} forbids {urlsplit(url).path or '/'}"
        return None

    async def _read_robots(self, host: str) -> urllib.robotparser.RobotFileParser | str:
        parser = urllib.robotparser.RobotFileParser(host + "/robots.txt")
        try:
            response, body = await self._exchange(host + "/robots.txt", {}, 512 * 1024)
        except _Refused as exc:
            return f"robots.txt of {host} could not be read ({exc}); the host is left alone"
        status = response.status_code
        if status == 200:
            parser.parse(body.decode("utf-8", errors="replace").splitlines())
        elif status in (401, 403) or status >= 500:
            return f"robots.txt of {host} answers {status}; the host is left alone"
        else:  # 404 and the like: no rules, everything allowed
            parser.parse([])
        return parser

    # ---------------------------------------------------------------- a document

    async def fetch(self, url: str, known: Validators | None = None) -> Answer:
        """Fetch `url` (conditionally when `known`); never raises for what a server does."""
        answer = Answer(url=url, final_url=url, status=None)
        try:
            await self._follow(answer, known)
        except _Refused as exc:
            answer.error = str(exc)
            answer.gone = exc.gone
            if exc.status is not None:
                answer.status = exc.status
        except Exception as exc:  # noqa: BLE001 - a server's bytes must not end the run
            answer.error = f"unreadable answer: {type(exc).__name__}: {exc}"
        return answer

    async def _follow(self, answer: Answer, known: Validators | None) -> None:
        url = answer.url
        for _hop in range(self.rules.max_redirects + 1):
            try:
                await self.policy.check(url)
            except AddressRefused as exc:
                raise _Refused(str(exc), status=answer.status) from None
            refusal = await self.allowed(url)
            if refusal is not None:
                raise _Refused(refusal)
            headers: dict[str, str] = {}
            if known is not None and known.etag:
                headers["If-None-Match"] = known.etag
            if known is not None and known.last_modified:
                headers["If-Modified-Since"] = known.last_modified
            conditional = bool(headers)
            response, body = await self._with_retries(answer, url, headers)
            status = response.status_code
            answer.status = status
            answer.final_url = url
            if status in REDIRECTS:
                location = response.headers.get("Location")
                if not location:
                    raise _Refused(f"{status} without a Location", status=status)
                answer.moved = answer.moved or status in PERMANENT_REDIRECTS
                url = urljoin(url, location)
                if urlsplit(url).scheme not in ("http", "https"):
                    raise _Refused(f"redirected to a non-HTTP address {url}", status=status)
                answer.hops.append(url)
                continue
            if status == 304:
                if not conditional:  # nothing was known to be "not modified" against
                    raise _Refused("HTTP 304 to a request that was not conditional", status=304)
                return
            if status != 200:
                # 429 after every retry: the server is busy, its link still answers.
                raise _Refused(f"HTTP {status}", gone=status != 429, status=status)
            answer.body = body
            answer.etag = response.headers.get("ETag")
            answer.last_modified = response.headers.get("Last-Modified")
            answer.content_type = response.headers.get("Content-Type")
            return
        raise _Refused(f"more than {self.rules.max_redirects} redirects", status=answer.status)

    async def _with_retries(
        self, answer: Answer, url: str, headers: dict[str, str]
    ) -> tuple[httpx.Response, bytes]:
        policy = RetryPolicy(self.rules.retries, self.rules.delay, self.rules.max_retry_wait)
        for attempt in range(policy.retries + 1):
            answer.attempts += 1
            response, body = await self._exchange(url, headers, self.rules.max_bytes)
            if not policy.retries_after(response.status_code, attempt):
                return response, body
            try:
                wait = policy.wait(attempt, response.headers.get("Retry-After"))
            except WaitTooLong as exc:
                raise _Refused(
                    f"HTTP {response.status_code}, {exc}", status=response.status_code
                ) from None
            # The pause counts for the whole host, not only for this document.
            self.pacer.done(_host(url), wait)
        raise AssertionError("unreachable")  # pragma: no cover
