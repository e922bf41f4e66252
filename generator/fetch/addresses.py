"""Which addresses `fetch` may connect to, checked where the connection is made.

A register row, or a redirect from a registered host, could point `fetch` at the operator's
own network: the machine itself (`127.0.0.1`, `[::1]`, `localhost`, `2130706433`), the
cloud's metadata service (`169.254.169.254`), a router or a database on a private network.
So every host is resolved and refused when any of its addresses is not a public one:
loopback, link-local, private (RFC 1918, RFC 4193), shared (CGNAT, RFC 6598), multicast,
unspecified or otherwise reserved. An address that carries credentials (`user:pw@host`) is
refused too: a register has no business holding passwords.

The check is made twice: once before a request (so the report can say why, and robots.txt
is not even asked for), and once in the connection itself (`GuardedBackend`): the name is
resolved again, the addresses checked, and the connection made to one of exactly those
addresses, never to a name resolved a second time. A name that answers a public address to
the first question and a private one to the second (DNS rebinding) is refused at the
second. TLS still checks the certificate against the host name (httpcore passes the name,
not the address, as the server name).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpcore
import httpx

Resolver = Callable[[str, int], Awaitable[list[str]]]
"""Return the IP addresses of a host name (a resolver the tests can replace)."""

ALLOW_HINT = "--allow-private-addresses or [fetch] allow_private_addresses allows them"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(Exception):
    """The address policy forbids this request; the message says why."""


async def system_resolver(host: str, port: int) -> list[str]:
    """Resolve `host` as the system does (getaddrinfo; numbers such as 2130706433 included)."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise AddressRefused(f"the host {host} cannot be resolved ({exc.strerror})") from None
    seen: list[str] = []
    for *_rest, sockaddr in infos:
        address = str(sockaddr[0])
        if address not in seen:
            seen.append(address)
    return seen


def _kind(ip: IPAddress) -> str | None:
    """Return what makes `ip` not a public address, or None when it is one."""
    if isinstance(ip, ipaddress.IPv6Address):
        # An IPv4 address written as IPv6 is judged as the IPv4 address it is.
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is not None:
            return _kind(embedded)
    checks = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("shared (CGNAT)", ip in ipaddress.ip_network("100.64.0.0/10")),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved or not ip.is_global),
    )
    return next((name for name, hit in checks if hit), None)


@dataclass(frozen=True)
class AddressPolicy:
    """Refuse hosts that resolve to non-public addresses, unless `allow_private`."""

    allow_private: bool = False
    resolver: Resolver = system_resolver

    def check_url(self, url: str) -> None:
        """Refuse what can be told from the URL alone: credentials, a missing host."""
        parts = urlsplit(url)
        if parts.username is not None or parts.password is not None or "@" in parts.netloc:
            raise AddressRefused(f"the address {_without_credentials(url)} carries credentials")
        if not parts.hostname:
            raise AddressRefused(f"the address {url} names no host")

    async def addresses(self, host: str, port: int) -> list[str]:
        """Resolve `host` and return its addresses; AddressRefused if any is not allowed."""
        host = host.strip("[]")
        try:
            found = [ipaddress.ip_address(host)]
        except ValueError:
            found = [ipaddress.ip_address(a.split("%")[0]) for a in await self.resolver(host, port)]
        if not found:
            raise AddressRefused(f"the host {host} has no address")
        if not self.allow_private:
            for ip in found:
                kind = _kind(ip)
                if kind is not None:
                    shown = host if host == str(ip) else f"{host} ({ip})"
                    raise AddressRefused(
                        f"the address {shown} is {kind}; only public addresses are fetched "
                        f"({ALLOW_HINT})"
                    )
        return [str(ip) for ip in found]

    async def check(self, url: str) -> None:
        """Refuse `url` by the policy (before any connection is made)."""
        self.check_url(url)
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        assert parts.hostname is not None  # check_url refused it otherwise
        await self.addresses(parts.hostname, port)


def _without_credentials(url: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc="…@" + host).geturl()


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to addresses the policy allowed."""

    def __init__(self, policy: AddressPolicy, inner: httpcore.AsyncNetworkBackend | None = None):
        self.policy = policy
        self.inner = inner or httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await self.policy.addresses(host, port)
        error: Exception | None = None
        for address in addresses:  # each one checked above; the name is not resolved again
            try:
                return await self.inner.connect_tcp(
                    address, port, timeout, local_address, socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                error = exc
        assert error is not None
        raise error

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:  # pragma: no cover - fetch never uses a socket file
        raise AddressRefused("fetch connects to hosts, not to socket files")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class GuardedTransport(httpx.AsyncBaseTransport):
    """An httpx transport over an httpcore pool with the guarded backend (no proxies)."""

    def __init__(self, policy: AddressPolicy, inner: httpcore.AsyncNetworkBackend | None = None):
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl.create_default_context(),
            network_backend=GuardedBackend(policy, inner),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        try:
            response = await self._pool.handle_async_request(core)
        except httpcore.TimeoutException as exc:
            raise httpx.TimeoutException(str(exc), request=request) from exc
        except httpcore.NetworkError as exc:
            raise httpx.NetworkError(str(exc), request=request) from exc
        except httpcore.ProtocolError as exc:
            raise httpx.ProtocolError(str(exc), request=request) from exc
        except httpcore.UnsupportedProtocol as exc:
            raise httpx.UnsupportedProtocol(str(exc), request=request) from exc
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_Stream(response.stream),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()


class _Stream(httpx.AsyncByteStream):
    """httpcore's response stream as httpx wants it (network errors mapped to httpx's)."""

    def __init__(self, stream: object):
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for part in self._stream:  # type: ignore[attr-defined]
                yield part
        except httpcore.TimeoutException as exc:
            raise httpx.ReadTimeout(str(exc)) from exc
        except (httpcore.NetworkError, httpcore.ProtocolError) as exc:
            raise httpx.ReadError(str(exc)) from exc

    async def aclose(self) -> None:
        closer = getattr(self._stream, "aclose", None)
        if closer is not None:
            await closer()
