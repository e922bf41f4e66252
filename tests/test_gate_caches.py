"""The gate's caches: compressed answers by their bytes, least recently used out first."""

from __future__ import annotations

from pathlib import Path

from generator.gate import compress, files
from generator.gate.responses import Manners


def test_compressed_answers_are_kept_within_their_budget_least_recently_used_out() -> None:
    one = b"a" * 5000 + b"b" * 5000  # compresses to a few dozen bytes
    size = len(compress.encode(one, "gzip"))
    cache = compress.Cache(budget=size * 8)
    for n in range(8):
        cache.get(("file", n), "gzip", one)
    assert cache.size == size * 8
    cache.get(("file", 0), "gzip", one)  # used again: now the most recent
    cache.get(("file", 8), "gzip", one)  # one too many: the least recently used goes
    assert cache.size == size * 8
    kept = set(cache._items)
    assert (("file", 0), "gzip") in kept
    assert (("file", 1), "gzip") not in kept and (("file", 8), "gzip") in kept


def test_an_answer_larger_than_an_eighth_of_the_budget_is_not_kept() -> None:
    cache = compress.Cache(budget=64)
    data = bytes(range(256)) * 4  # does not compress below 64 bytes
    assert cache.get("big", "gzip", data) == compress.encode(data, "gzip")
    assert cache.size == 0


def test_the_etags_kept_are_bounded(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(files, "ETAG_CACHE_SIZE", 3)
    server = files.FileServer(tmp_path, Manners.__new__(Manners))
    for n in range(5):
        server._remember_etag(("f", n, 0, 0), b"x%d" % n)
    assert sorted(key[1] for key in server._etags) == [2, 3, 4]  # the oldest went first
