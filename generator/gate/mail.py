"""Sending the operator's e-mails (a new key, a rejection) over SMTP, standard library only.

The settings are `[smtp]` of `trinkwasser.toml` (`generator.config.SmtpConfig`); the
password is read from the environment variable it names, at the moment of sending, and is
never written anywhere. STARTTLS (port 587) and TLS from the first byte (port 465) check the
server's certificate; `none` is for a relay on the same host only. Every failure becomes a
`MailError` that says what went wrong; the caller decides what it means (a key stays issued).
`timeout` bounds the whole send, from the connection to the last reply, however slowly the
server answers.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import smtplib
import socket
import ssl
import threading
from collections.abc import Mapping
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from generator.config import Config, SmtpConfig
from generator.errors import TrinkwasserError


class MailError(TrinkwasserError):
    """An e-mail could not be sent."""


def message(to: str, subject: str, body: str, config: Config, smtp: SmtpConfig) -> EmailMessage:
    """Make a UTF-8 plain-text e-mail from the operator (replies go to its contact)."""
    msg = EmailMessage()
    user, _, domain = smtp.sender.rpartition("@")
    msg["From"] = Address(config.operator, user, domain)
    msg["To"] = to
    msg["Reply-To"] = config.contact
    msg["Subject"] = subject
    msg["Date"] = format_datetime(dt.datetime.now(dt.UTC))
    msg["Message-ID"] = make_msgid(domain=domain)
    msg.set_content(body, charset="utf-8")
    return msg


class _Deadline:
    """One deadline for a whole send: when it passes, the connection is shut down.

    smtplib's timeout bounds each read and write alone, so a server that drips one line a
    second never lets it pass. A timer shuts the socket down instead (through a duplicate
    of its descriptor, which still reaches the connection once TLS has wrapped it), and the
    blocked read returns at once.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.expired = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock.dup())
            if self.expired:
                _shut(self._sockets[-1])

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            for sock in self._sockets:
                sock.close()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed
        sock.shutdown(socket.SHUT_RDWR)


class _Client(smtplib.SMTP):
    """SMTP whose connection the deadline can shut down."""

    def __init__(self, deadline: _Deadline, timeout: float):
        self._deadline = deadline
        super().__init__(timeout=timeout)

    def _get_socket(self, host: str, port: int, timeout: float) -> socket.socket:
        sock = socket.create_connection((host, port), timeout, self.source_address)
        self._deadline.watch(sock)
        return sock


class _TlsClient(smtplib.SMTP_SSL):
    """SMTP over TLS from the first byte, whose connection the deadline can shut down."""

    def __init__(self, deadline: _Deadline, timeout: float, context: ssl.SSLContext):
        self._deadline = deadline
        super().__init__(timeout=timeout, context=context)

    def _get_socket(self, host: str, port: int, timeout: float) -> socket.socket:
        sock = socket.create_connection((host, port), timeout, self.source_address)
        self._deadline.watch(sock)  # before the handshake, which a server can drip too
        return self.context.wrap_socket(sock, server_hostname=host)


def send(msg: EmailMessage, smtp: SmtpConfig, environ: Mapping[str, str] = os.environ) -> None:
    """Send `msg` within `smtp.timeout` seconds in all; raise MailError when it was not accepted."""
    password = environ.get(smtp.password_env, "")
    if smtp.user and not password:
        raise MailError(
            f"no password for {smtp.user}: set the environment variable {smtp.password_env}"
        )
    context = ssl.create_default_context()
    with _Deadline(smtp.timeout) as deadline:
        try:
            client: smtplib.SMTP
            if smtp.security == "tls":
                client = _TlsClient(deadline, smtp.timeout, context)
            else:
                client = _Client(deadline, smtp.timeout)
            client.connect(smtp.host, smtp.port)
            with client:
                client.ehlo()
                if smtp.security == "starttls":
                    client.starttls(context=context)
                    client.ehlo()
                if smtp.user:
                    client.login(smtp.user, password)
                refused = client.send_message(msg)
        except (smtplib.SMTPException, OSError) as exc:
            if deadline.expired:
                raise MailError(
                    f"{smtp.host}:{smtp.port} did not complete the send within "
                    f"{smtp.timeout:g} s (the [smtp] timeout, for the whole send)"
                ) from None
            if isinstance(exc, smtplib.SMTPNotSupportedError):
                raise MailError(f"{smtp.host}:{smtp.port}: {exc}") from None
            if isinstance(exc, smtplib.SMTPException):
                raise MailError(f"{smtp.host}:{smtp.port} refused the e-mail: {exc}") from None
            # refused, unreachable, timed out, TLS failed
            raise MailError(f"cannot reach {smtp.host}:{smtp.port}: {exc}") from None
    if refused:
        raise MailError(f"{smtp.host}:{smtp.port} refused the recipient(s) {sorted(refused)}")
