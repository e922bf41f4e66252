"""The gate's production state in Netlify Blobs, for `trinkwasser keys --from netlify`.

The edge gate (netlify/gate/state.ts) reads and writes the same stores; this module is the
operator's side, through the Netlify Blobs HTTP API with a site id and a personal access
token from the environment:

    NETLIFY_SITE_ID      the site's API id (Site configuration > Site details)
    NETLIFY_AUTH_TOKEN   a personal access token (User settings > Applications)
    NETLIFY_API_URL      optional, default https://api.netlify.com (tests point it elsewhere)

Layout (site-wide stores, shared with the edge function):

    access-requests  <request id>              written by the gate (onlyIfNew), decided here
    api-keys         keys/<sha256 of the key>  what the gate reads: id and status
                     ids/<key id>              {"hash": ...}: finds a key's record by id
    quota            <YYYY-MM-DD>/<key id>     the day's count, kept by the gate

Only key hashes ever reach Blobs. Every change is a compare-and-swap on the blob's ETag, so
two operators deciding the same request cannot both win.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.api.http import KEY_ID
from generator.api.settings import BLOB_STORES
from generator.gate.model import (
    AccessRequest,
    ApiKey,
    Clock,
    NotFoundError,
    StateError,
    already_revoked,
    check_decision,
    key_from_record,
    new_id,
    no_key,
    no_request,
    quota_day,
    request_from_record,
    system_clock,
    timestamp,
    undecidable,
)
from generator.retries import RetryPolicy, WaitTooLong

DEFAULT_API_URL = "https://api.netlify.com"
STORES = BLOB_STORES
Record = dict[str, Any]
"""A stored access request or key: one JSON blob."""
SIGNED_URL = "application/json;type=signed-url"
RETRIES = RetryPolicy(retries=3, pause=1.0, max_wait=60.0)
"""Rate limits and server errors are tried again (after Retry-After, else 1, 2, 4 s); an
operator waits at the terminal, so a server that asks for more than a minute fails the
command instead."""


class BlobsError(StateError):
    """The Blobs API refused or failed a request."""


@dataclass(frozen=True)
class Blob:
    data: bytes
    etag: str | None


class BlobsClient:
    """A small client of the Netlify Blobs HTTP API (what `@netlify/blobs` does in API mode).

    Reads and writes go to a signed URL the API hands out; conditional writes send
    `If-Match` / `If-None-Match: *` to it and a refused one answers 412.
    """

    def __init__(
        self,
        site_id: str,
        token: str,
        api_url: str = DEFAULT_API_URL,
        timeout: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.site_id = site_id
        self.token = token
        self.api_url = api_url.rstrip("/")
        self.timeout = timeout
        self.sleep = sleep
        """How the client waits between tries (tests record the waits instead)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> BlobsClient:
        """Build a client from NETLIFY_SITE_ID, NETLIFY_AUTH_TOKEN (and NETLIFY_API_URL)."""
        env = os.environ if env is None else env
        missing = [name for name in ("NETLIFY_SITE_ID", "NETLIFY_AUTH_TOKEN") if not env.get(name)]
        if missing:
            raise StateError(
                f"--from netlify needs {' and '.join(missing)} in the environment: the site's API "
                "id (Site configuration > Site details) and a personal access token (User "
                "settings > Applications > Personal access tokens)"
            )
        return cls(
            env["NETLIFY_SITE_ID"],
            env["NETLIFY_AUTH_TOKEN"],
            env.get("NETLIFY_API_URL") or DEFAULT_API_URL,
        )

    # -- HTTP

    def _send(
        self, method: str, url: str, headers: dict[str, str], body: bytes | None = None
    ) -> tuple[int, Mapping[str, str], bytes]:
        """Send one request; retry rate limits and server errors as `RETRIES` says."""
        for attempt in range(RETRIES.retries + 1):
            request = urllib.request.Request(url, data=body, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    status, got, data = response.status, response.headers, response.read()
            except urllib.error.HTTPError as exc:
                status, got, data = exc.code, exc.headers, exc.read()
            except urllib.error.URLError as exc:
                if attempt == RETRIES.retries:
                    raise BlobsError(f"cannot reach the Netlify Blobs API at {url}: {exc}") from exc
                self.sleep(RETRIES.wait(attempt))
                continue
            if not RETRIES.retries_after(status, attempt):
                return status, got, data
            try:
                self.sleep(RETRIES.wait(attempt, got.get("Retry-After")))
            except WaitTooLong as exc:
                raise BlobsError(f"the Netlify Blobs API answered {status} and {exc}") from None
        raise AssertionError("unreachable")

    def _api(self, store: str, key: str = "") -> str:
        path = f"/api/v1/blobs/{self.site_id}/site:{store}"
        if key:
            path += "/" + urllib.parse.quote(key, safe="/")
        return self.api_url + path

    def _auth(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}"}

    def _signed_url(self, method: str, store: str, key: str) -> str:
        status, _, data = self._send(
            method, self._api(store, key), {**self._auth(), "accept": SIGNED_URL}
        )
        if status != 200:
            raise BlobsError(f"{method} {store}/{key}: the Blobs API answered {status}")
        url: str = json.loads(data)["url"]
        return url

    # -- operations

    def get(self, store: str, key: str) -> Blob | None:
        """Return a blob and its ETag, or None if there is none."""
        status, headers, data = self._send("GET", self._signed_url("GET", store, key), {})
        if status == 404:
            return None
        if status != 200:
            raise BlobsError(f"GET {store}/{key}: answered {status}")
        return Blob(data, headers.get("etag"))

    def set(
        self,
        store: str,
        key: str,
        data: bytes,
        *,
        only_if_match: str | None = None,
        only_if_new: bool = False,
    ) -> bool:
        """Write a blob; return False if the condition (ETag or absence) did not hold."""
        headers = {"cache-control": "max-age=0, stale-while-revalidate=60"}
        if only_if_match:
            headers["if-match"] = only_if_match
        elif only_if_new:
            headers["if-none-match"] = "*"
        status, _, _ = self._send("PUT", self._signed_url("PUT", store, key), headers, data)
        if status == 412:
            return False
        if status not in (200, 201, 204):
            raise BlobsError(f"PUT {store}/{key}: answered {status}")
        return True

    def delete(self, store: str, key: str) -> None:
        status, _, _ = self._send("DELETE", self._api(store, key), self._auth())
        if status not in (200, 204, 404):
            raise BlobsError(f"DELETE {store}/{key}: answered {status}")

    def keys(self, store: str, prefix: str = "") -> list[str]:
        """Return every key of a store that starts with `prefix`, sorted."""
        found: list[str] = []
        cursor = None
        while True:
            # No `prefix` parameter: the local emulator's Blobs server misreads any query on a
            # listing (it ends up in the store name), so filter here; the stores are small.
            url = self._api(store)
            if cursor:
                url += "?" + urllib.parse.urlencode({"cursor": cursor})
            status, _, data = self._send("GET", url, self._auth())
            if status == 404:
                break
            if status != 200:
                raise BlobsError(f"listing {store}: answered {status}")
            page = json.loads(data)
            found += [b["key"] for b in page.get("blobs") or []]
            cursor = page.get("next_cursor")
            if not cursor:
                break
        return sorted(k for k in found if k.startswith(prefix))


class NetlifyBlobsState:
    """Access requests and keys in Netlify Blobs: a `RequestSource` and a `KeyStore`.

    `atomic()` cannot be a transaction across blobs; it undoes the keys added inside the
    block when the block fails (e.g. the request was decided by someone else meanwhile).
    """

    def __init__(self, client: BlobsClient, *, clock: Clock = system_clock):
        self.client = client
        self.clock = clock
        self._added: list[list[tuple[str, str]]] = []  # (key id, hash) per atomic block

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> NetlifyBlobsState:
        return cls(BlobsClient.from_env(env))

    def _json(self, store: str, key: str) -> tuple[Record, str | None] | None:
        blob = self.client.get(STORES[store], key)
        return None if blob is None else (json.loads(blob.data), blob.etag)

    @staticmethod
    def _encode(value: Record) -> bytes:
        return json.dumps(value, ensure_ascii=False, sort_keys=True).encode("utf-8")

    def _update(self, store: str, key: str, change: Callable[[Record], Record]) -> Record:
        """Compare-and-swap one JSON blob: `change(old)` returns the new value or raises."""
        for _ in range(10):
            found = self._json(store, key)
            if found is None:
                raise NotFoundError(f"no {key!r} in the {STORES[store]} store")
            old, etag = found
            new = change(old)
            if self.client.set(STORES[store], key, self._encode(new), only_if_match=etag):
                return new
        raise StateError(f"{STORES[store]}/{key} keeps changing; try again")

    # -- access requests

    def list_requests(self, status: str | None = None) -> list[AccessRequest]:
        requests = [self.get_request(key) for key in self.client.keys(STORES["requests"])]
        chosen = [r for r in requests if status is None or r.status == status]
        return sorted(chosen, key=lambda r: (r.created_at, r.id))

    def get_request(self, request_id: str) -> AccessRequest:
        found = self._json("requests", request_id)
        if found is None:
            raise no_request(request_id)
        return request_from_record(found[0])

    def decide_request(
        self,
        request_id: str,
        status: str,
        *,
        key_id: str | None = None,
        reason: str | None = None,
    ) -> AccessRequest:
        check_decision(status)

        def change(old: Record) -> Record:
            if old["status"] != "pending":
                raise undecidable(request_id, old["status"])
            decided = {"status": status, "decided_at": timestamp(self.clock())}
            decided |= {"key_id": key_id} if key_id else {}
            decided |= {"reason": reason} if reason is not None else {}
            return old | decided

        try:
            return request_from_record(self._update("requests", request_id, change))
        except NotFoundError:
            raise no_request(request_id) from None

    # -- keys

    def add_key(
        self, key_hash: str, hint: str, email: str, note: str, request_id: str | None = None
    ) -> ApiKey:
        record = {
            "created_at": timestamp(self.clock()),
            "email": email,
            "hint": hint,
            "note": note,
            "request_id": request_id,
            "revoked_at": None,
            "status": "active",
        }
        for _ in range(5):
            key_id = new_id(KEY_ID)
            # The id entry first: it claims the id. The hash entry then makes the key work.
            if self.client.set(
                STORES["keys"], f"ids/{key_id}", self._encode({"hash": key_hash}), only_if_new=True
            ):
                break
        else:
            raise StateError("could not draw an unused key id")
        record["id"] = key_id
        if not self.client.set(
            STORES["keys"], f"keys/{key_hash}", self._encode(record), only_if_new=True
        ):
            self.client.delete(STORES["keys"], f"ids/{key_id}")
            raise StateError("a key with this hash exists already")
        if self._added:
            self._added[-1].append((key_id, key_hash))
        return key_from_record(record)

    def key_by_hash(self, key_hash: str) -> ApiKey | None:
        found = self._json("keys", f"keys/{key_hash}")
        return None if found is None else key_from_record(found[0])

    def _hash_of(self, key_id: str) -> str:
        found = self._json("keys", f"ids/{key_id}")
        if found is None:
            raise no_key(key_id)
        key_hash: str = found[0]["hash"]
        return key_hash

    def get_key(self, key_id: str) -> ApiKey:
        key = self.key_by_hash(self._hash_of(key_id))
        if key is None:
            raise no_key(key_id)
        return key

    def list_keys(self) -> list[ApiKey]:
        ids = [k.removeprefix("ids/") for k in self.client.keys(STORES["keys"], "ids/")]
        keys = [self.get_key(key_id) for key_id in ids]
        return sorted(keys, key=lambda k: (k.created_at, k.id))

    def revoke_key(self, key_id: str) -> ApiKey:
        def change(old: Record) -> Record:
            if old["status"] != "active":
                raise already_revoked(key_id)
            return old | {"status": "revoked", "revoked_at": timestamp(self.clock())}

        return key_from_record(self._update("keys", f"keys/{self._hash_of(key_id)}", change))

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """Group writes; on failure, delete the keys added in the block (they never worked)."""
        self._added.append([])
        try:
            yield
        except BaseException:
            for key_id, key_hash in self._added.pop():
                with contextlib.suppress(StateError):
                    self.client.delete(STORES["keys"], f"keys/{key_hash}")
                    self.client.delete(STORES["keys"], f"ids/{key_id}")
            raise
        added = self._added.pop()
        if self._added:
            self._added[-1].extend(added)

    # -- quota

    def used(self, key_id: str, now: dt.datetime | None = None) -> int:
        """Return how many requests the gate counted for `key_id` on a Berlin day."""
        day = quota_day(now or self.clock()).isoformat()
        blob = self.client.get(STORES["quota"], f"{day}/{key_id}")
        return 0 if blob is None else int(blob.data)
