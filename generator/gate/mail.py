"""Sending the operator's e-mails (a new key, a rejection) over SMTP, standard library only.

The settings are `[smtp]` of `trinkwasser.toml` (`generator.config.SmtpConfig`); the
password is read from the environment variable it names, at the moment of sending, and is
never written anywhere. STARTTLS (port 587) and TLS from the first byte (port 465) check the
server's certificate; `none` is for a relay on the same host only. Every failure becomes a
`MailError` that says what went wrong; the caller decides what it means (a key stays issued).
"""

from __future__ import annotations

import datetime as dt
import os
import smtplib
import ssl
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


def send(msg: EmailMessage, smtp: SmtpConfig, environ: Mapping[str, str] = os.environ) -> None:
    """Send `msg`; raise MailError with the reason when it was not accepted."""
    password = environ.get(smtp.password_env, "")
    if smtp.user and not password:
        raise MailError(
            f"no password for {smtp.user}: set the environment variable {smtp.password_env}"
        )
    context = ssl.create_default_context()
    try:
        client: smtplib.SMTP
        if smtp.security == "tls":
            client = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=smtp.timeout, context=context)
        else:
            client = smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout)
        with client:
            client.ehlo()
            if smtp.security == "starttls":
                client.starttls(context=context)
                client.ehlo()
            if smtp.user:
                client.login(smtp.user, password)
            refused = client.send_message(msg)
    except smtplib.SMTPNotSupportedError as exc:
        raise MailError(f"{smtp.host}:{smtp.port}: {exc}") from None
    except smtplib.SMTPException as exc:
        raise MailError(f"{smtp.host}:{smtp.port} refused the e-mail: {exc}") from None
    except OSError as exc:  # refused, unreachable, timed out, TLS failed
        raise MailError(f"cannot reach {smtp.host}:{smtp.port}: {exc}") from None
    if refused:
        raise MailError(f"{smtp.host}:{smtp.port} refused the recipient(s) {sorted(refused)}")
