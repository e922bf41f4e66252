"""Files of the build directory as answers.

Confined to it, with ETag, 304 and streaming, compressed for clients that accept it
(`compress.py`).

Both the API routes (their backing files) and the static site go through `FileServer.file`.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import BinaryIO

from cachetools import FIFOCache

from generator.api import http
from generator.api.messages import fill
from generator.gate import compress
from generator.gate.responses import Headers, Manners, Response, etag_matches, header

STREAM_ABOVE = 1 << 20  # bytes; smaller files are read in one go
CHUNK = 1 << 16
ETAG_CACHE_SIZE = 8192

_NO_SUCH_FILE = frozenset(
    {errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP, errno.ENXIO}
)


def no_such_file(exc: OSError) -> bool:
    """Whether an OS error says the file is not there (a 404).

    Every other error (EMFILE, ENFILE, EACCES, EIO, ...) is the server's trouble, not the
    client's: it propagates, and the gate answers 503 (`app.Gate.handle`), never a 404.
    """
    return exc.errno in _NO_SUCH_FILE


class FileServer:
    """Answers files under `root`; never a file outside it (symlinks included)."""

    def __init__(self, root: Path, manners: Manners):
        self.root = Path(root).resolve()
        self._root = str(self.root)
        self.manners = manners
        # Keyed by the file's identity (path, inode, time of change, size): a changed file
        # has another key, so no entry is ever stale. The oldest go first.
        self._etags: FIFOCache[tuple[str, int, int, int], str] = FIFOCache(ETAG_CACHE_SIZE)
        self._compressed = compress.Cache()

    def inside(self, rel: str) -> Path | None:
        """Return the path of `rel` in the build directory, or None if it would leave it."""
        path = os.path.join(self._root, rel)
        real = _real_path(path)
        if real != self._root and not real.startswith(self._root + os.sep):
            return None
        return Path(path)

    def _mode(self, rel: str) -> int | None:
        """Return the mode of `rel` in the build, None where it is absent; raise other errors."""
        path = self.inside(rel)
        if path is None:
            return None
        try:
            return os.stat(path).st_mode
        except OSError as exc:
            if no_such_file(exc):
                return None
            raise

    def is_file(self, rel: str) -> bool:
        """Whether `rel` is a regular file of the build; raises for errors other than absence."""
        mode = self._mode(rel)
        return mode is not None and stat.S_ISREG(mode)

    def is_dir(self, rel: str) -> bool:
        """Whether `rel` is a directory of the build; raises for errors other than absence."""
        mode = self._mode(rel)
        return mode is not None and stat.S_ISDIR(mode)

    def file(
        self,
        rel: str,
        headers: Mapping[str, str],
        cache: str,
        extra: Headers,
        transform: Callable[[bytes], bytes] | None = None,
    ) -> Response | None:
        """Answer a file of the build with ETag/304 handling; None if there is no such file.

        A file stored gzip-compressed (`http.STORED_GZIP_SUFFIX`) answers its decompressed
        bytes. With `transform`, the answer is `transform(bytes of the file)`, its ETag from
        those bytes (a filtered series).
        """
        path = self.inside(rel)
        if path is None:
            return None
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as exc:
            # Missing, a directory, or a name the file system refuses (too long): no such file.
            # Out of descriptors or unreadable: raised, so the answer is a 503.
            if no_such_file(exc):
                return None
            raise
        # Everything goes through this one descriptor: if a new build is swapped in meanwhile,
        # the ETag and the bytes still belong to the same file.
        fh = os.fdopen(fd, "rb")
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            fh.close()
            return None
        content_type = http.content_type(rel)
        compressible = compress.compressible(content_type)
        encoding = compress.choose(headers.get("accept-encoding", "")) if compressible else None
        stored = rel.endswith(http.STORED_GZIP_SUFFIX)
        if info.st_size > compress.MAX_BYTES and transform is None and not stored:
            encoding = None
        # Read whole: small files, stored compressed ones, filtered series, files to compress.
        small = (
            info.st_size <= STREAM_ABOVE or stored or transform is not None or encoding is not None
        )
        body = http.served_bytes(rel, fh.read()) if small else b""
        cache_key = (str(path), info.st_ino, info.st_mtime_ns, info.st_size)
        if transform is not None:
            body = transform(body)
            etag = _etag(hashlib.sha256(body))
        else:
            etag = self._etags.get(cache_key) or self._remember_etag(
                cache_key, body if small else fh
            )
        if small:
            fh.close()
        if len(body) < compress.MIN_BYTES:
            encoding = None
        out = [*self.manners.base(content_type, cache), *extra]
        if compressible:
            out.append(header("vary", "Accept-Encoding"))
        if encoding is not None:
            etag = compress.tagged(etag, encoding)
            out.append(header("content-encoding", encoding))
        out.append(header("etag", etag))
        if rel.endswith(http.DOWNLOAD_SUFFIXES):
            disposition = fill(http.CONTENT_DISPOSITION, {"filename": Path(rel).name})
            out.append(header("content-disposition", disposition))
        if etag_matches(headers.get("if-none-match", ""), etag):
            if not small:
                fh.close()
            return Response(304, out)
        if not small:
            return Response(200, out, file=fh, length=info.st_size)
        if encoding is not None:
            if transform is None:
                body = self._compressed.get(cache_key, encoding, body)
            else:
                body = compress.encode(body, encoding)
        return Response(200, out, body)

    def _remember_etag(
        self, cache_key: tuple[str, int, int, int], content: bytes | BinaryIO
    ) -> str:
        digest = hashlib.sha256()
        if isinstance(content, bytes):
            digest.update(content)
        else:
            for chunk in iter(lambda: content.read(CHUNK), b""):
                digest.update(chunk)
            content.seek(0)
        etag = _etag(digest)
        self._etags[cache_key] = etag
        return etag


def _etag(digest: hashlib._Hash) -> str:
    return f'"{digest.hexdigest()[:32]}"'


_FD_LINKS = "/proc/self/fd"
_FAST_REAL_PATH = hasattr(os, "O_PATH") and os.path.isdir(_FD_LINKS)


def _real_path(path: str) -> str:
    """`os.path.realpath`, in three system calls where Linux allows it.

    realpath asks for every component of the path in Python (ten `lstat` calls for a lookup,
    most of a static answer's time); an `O_PATH` descriptor names the file the kernel
    resolved. A path that does not resolve takes the slow way (its answer is a 404 anyway).
    """
    if _FAST_REAL_PATH:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return os.path.realpath(path)
        try:
            return os.readlink(f"{_FD_LINKS}/{fd}")
        finally:
            os.close(fd)
    return os.path.realpath(path)
