"""`keys approve`, `keys reject --notify` and `keys resend` send their e-mails over SMTP.

A real SMTP server (aiosmtpd) on loopback receives them; the tests read the messages as a
mail client would: recipient, subject, the key exactly once, the operator's contact, German
text in UTF-8. A failed send leaves the key issued, says so, and `keys resend` retries.
"""

from __future__ import annotations

import email
import email.policy
import re
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from click.testing import CliRunner

from generator.cli import cli
from generator.config import load_config
from generator.errors import ConfigError
from generator.gate import keys as key_tools
from generator.gate.sqlite_state import open_state

KEY = re.compile(r"twd_[0-9A-Za-z]{32}")
PASSWORD = "geheim-und-lang"


@dataclass
class Inbox:
    port: int
    messages: list[tuple[str, list[str], email.message.EmailMessage]] = field(default_factory=list)
    logins: list[tuple[str, str]] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), parsed))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    box = Inbox(_free_port())

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.password == PASSWORD.encode()
        if ok:
            box.logins.append((auth_data.login.decode(), mechanism))
        return AuthResult(success=ok)

    controller = Controller(
        box,
        hostname="127.0.0.1",
        port=box.port,
        authenticator=authenticate,
        auth_require_tls=False,
    )
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TWD_SMTP_PASSWORD", PASSWORD)
    return tmp_path


def _configure(workdir, port: int, **smtp: str) -> None:
    settings = {
        "host": "127.0.0.1",
        "port": port,
        "sender": "schluessel@trinkwasser.example",
        "security": "none",
        "user": "schluessel",
        "password_env": "TWD_SMTP_PASSWORD",
        "timeout": 5,
        **smtp,
    }
    lines = [
        "[site]",
        'operator = "Wasserdaten Süd e. V."',
        'contact = "hilfe@trinkwasser.example"',
    ]
    lines.append("[smtp]")
    for key, value in settings.items():
        lines.append(f"{key} = {value!r}".replace("'", '"'))
    (workdir / "trinkwasser.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def keys(*args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["keys", *args, "--state", "state"])
    assert result.exit_code == code, result.output
    return result.output


def submit(workdir, address="ada@example.org"):
    return open_state(workdir / "state").submit_request(address, "Eine App für Musterstadt")


def _text(msg: email.message.EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part.get_content_charset() == "utf-8"
    return part.get_content().replace("\r\n", "\n")  # as sent: CRLF line ends


def test_approve_sends_the_key_by_email(workdir, inbox):
    _configure(workdir, inbox.port)
    request = submit(workdir)
    out = keys("approve", request.id)
    assert "Sent the key to ada@example.org" in out
    assert not KEY.search(out)  # the key went by e-mail and is shown nowhere else

    [(sender, recipients, msg)] = inbox.messages
    assert sender == "schluessel@trinkwasser.example"
    assert recipients == ["ada@example.org"]
    assert msg["To"] == "ada@example.org"
    assert msg["Subject"] == "Ihr API-Schlüssel für Trinkwasserdaten"
    assert msg["From"].addresses[0].display_name == "Wasserdaten Süd e. V."
    assert msg["Reply-To"] == "hilfe@trinkwasser.example"
    assert [login for login, _ in inbox.logins] == ["schluessel"]  # with the password
    text = _text(msg)
    [key] = KEY.findall(text)  # exactly once
    assert "hilfe@trinkwasser.example" in text
    assert "Viele Grüße\nWasserdaten Süd e. V." in text
    assert f"(Anfrage {request.id})" in text
    assert "X-Api-Key: IHR_SCHLUESSEL" in text
    # the key in the e-mail is the issued one
    stored = open_state(workdir / "state").key_by_hash(key_tools.hash_key(key))
    assert stored is not None and stored.active and stored.email == "ada@example.org"


def test_a_failed_send_leaves_the_key_issued_and_resend_retries(workdir, inbox):
    closed = _free_port()
    _configure(workdir, closed)
    request = submit(workdir)
    out = keys("approve", request.id, code=1)
    assert f"cannot reach 127.0.0.1:{closed}" in out
    state = open_state(workdir / "state")
    [issued] = state.list_keys()
    assert issued.active and state.get_request(request.id).status == "approved"
    assert f"The key {issued.id} is issued all the same" in out
    assert f"trinkwasser keys resend {issued.id}" in out
    [shown] = set(KEY.findall(out))  # printed with the e-mail, to send by hand if need be
    assert "An: ada@example.org" in out

    _configure(workdir, inbox.port)
    out = keys("resend", request.id)  # the request's id finds its key
    assert f"Revoked {issued.id}" in out and "Sent the key to ada@example.org" in out
    [(_, recipients, msg)] = inbox.messages
    [key] = KEY.findall(_text(msg))
    assert recipients == ["ada@example.org"] and key != shown
    state = open_state(workdir / "state")
    assert not state.key_by_hash(key_tools.hash_key(shown)).active
    assert state.key_by_hash(key_tools.hash_key(key)).active


def test_starttls_that_the_server_does_not_offer_is_a_failed_send(workdir, inbox):
    _configure(workdir, inbox.port, security="starttls")
    request = submit(workdir)
    out = keys("approve", request.id, code=1)
    assert "STARTTLS" in out and "sending the e-mail failed" in out
    assert inbox.messages == []
    assert len(open_state(workdir / "state").list_keys()) == 1


def test_a_missing_password_is_named_and_the_key_stays(workdir, inbox, monkeypatch):
    monkeypatch.delenv("TWD_SMTP_PASSWORD")
    _configure(workdir, inbox.port)
    request = submit(workdir)
    out = keys("approve", request.id, code=1)
    assert "set the environment variable TWD_SMTP_PASSWORD" in out
    assert len(open_state(workdir / "state").list_keys()) == 1


def test_reject_notify_sends_a_short_rejection(workdir, inbox):
    _configure(workdir, inbox.port)
    request = submit(workdir, "bob@example.org")
    out = keys("reject", request.id, "--reason", "Zweck nicht erkennbar", "--notify")
    assert "Sent the rejection to bob@example.org." in out
    [(_, recipients, msg)] = inbox.messages
    assert recipients == ["bob@example.org"]
    assert msg["Subject"] == "Ihre Anfrage eines API-Schlüssels für Trinkwasserdaten"
    text = _text(msg)
    assert "Begründung: Zweck nicht erkennbar" in text and request.id in text
    assert "hilfe@trinkwasser.example" in text and not KEY.search(text)
    # sending it again works as well
    keys("resend", request.id)
    assert len(inbox.messages) == 2
    # without --notify nothing is sent
    other = submit(workdir, "eve@example.org")
    keys("reject", other.id, "--reason", "Test")
    assert len(inbox.messages) == 2


def test_without_smtp_the_emails_are_printed_as_before(workdir):
    request = submit(workdir)
    out = keys("approve", request.id)
    key = KEY.search(out).group()
    mail = out.split("E-mail to send:")[1]
    assert "An: ada@example.org" in mail
    assert "Betreff: Ihr API-Schlüssel für Trinkwasserdaten" in mail
    assert mail.count(key) == 1
    other = submit(workdir, "bob@example.org")
    out = keys("reject", other.id, "--reason", "kein Zweck", "--notify")
    assert "An: bob@example.org" in out and "Begründung: kein Zweck" in out


def test_the_password_never_goes_in_the_file(workdir):
    (workdir / "trinkwasser.toml").write_text(
        '[smtp]\nhost = "mail.example"\nsender = "a@b.example"\npassword = "x"\n'
        'security = "ssl"\nport = 0\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as error:
        load_config(workdir / "trinkwasser.toml")
    text = str(error.value)
    assert "smtp.password: never in the file" in text
    assert "smtp.security: must be one of starttls, tls, none" in text
    assert "smtp.port: must be a port number" in text


# ---------------------------------------------------------------------------- one recipient


@pytest.mark.parametrize(
    "address",
    [
        "a@example.org,=?utf-8?b?YkBleGFtcGxlLm9yZw==?=",
        "=?utf-8?q?a=0D=0ABcc=3A_b=40x.de?=@example.org",
        "a@example.org\r\nBcc: b@example.org",
        "Ada <a@example.org>, b@example.org",
    ],
)
def test_approve_refuses_an_address_that_is_not_exactly_one(workdir, inbox, address):
    # Stored as it came (an older gate, a hand-written request): checked again before any
    # key is made, so no key exists that nobody was shown.
    _configure(workdir, inbox.port)
    request = submit(workdir, address)
    out = keys("approve", request.id, code=1)
    assert "which is not exactly one e-mail address (name@domain); no key was issued" in out
    assert "\r" not in out and "\x1b" not in out
    state = open_state(workdir / "state")
    assert state.list_keys() == [] and state.get_request(request.id).status == "pending"
    assert inbox.messages == []
    keys("reject", request.id, "--reason", "keine gültige Adresse")  # the way out


class Dripping:
    """An SMTP server that sends its greeting one continuation line a second, for minutes."""

    LINES = 180

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.sent = 0
        self.hung_up = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        with conn:
            try:
                for _ in range(self.LINES):
                    conn.sendall(b"220-bitte warten\r\n")
                    self.sent += 1
                    if self.hung_up.wait(1.0):
                        return
                    if _closed(conn):
                        self.hung_up.set()
                        return
                conn.sendall(b"220 nun aber\r\n")
            except OSError:
                self.hung_up.set()

    def close(self) -> None:
        self.server.close()


def _closed(conn: socket.socket) -> bool:
    """Whether the client hung up (an orderly EOF or a reset), without blocking."""
    conn.setblocking(False)
    try:
        return conn.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        conn.setblocking(True)


def test_one_deadline_for_the_whole_send_and_the_key_is_shown(workdir):
    # Every line comes within the per-read timeout, so only a deadline for the whole send
    # ends it; the key, issued before the send, is then printed for sending by hand.
    server = Dripping()
    try:
        _configure(workdir, server.port, timeout=3)
        request = submit(workdir)
        out = keys("approve", request.id, code=1)
        assert server.hung_up.wait(30), "approve never hung up on the dripping server"
        assert server.sent < Dripping.LINES
    finally:
        server.close()
    assert f"127.0.0.1:{server.port} did not complete the send within 3 s" in out
    [shown] = set(KEY.findall(out))
    state = open_state(workdir / "state")
    [issued] = state.list_keys()
    assert state.key_by_hash(key_tools.hash_key(shown)).id == issued.id
    assert f"The key {issued.id} is issued all the same" in out


def test_a_stored_address_with_escapes_never_reaches_the_terminal_raw(workdir, inbox):
    # A key stored before addresses were checked: resend refuses it, revoke names it, and
    # neither passes the escape sequence on to the operator's terminal.
    _configure(workdir, inbox.port)
    state = open_state(workdir / "state")
    hostile = "a@example.org\x1b[2J\x1b]0;owned\x07"
    issued = key_tools.issue(state, hostile, "twd_", "alt")
    out = keys("resend", issued.api_key.id, code=1)
    assert "not exactly one e-mail address" in out and "\x1b" not in out
    out = keys("revoke", issued.api_key.id)
    assert "a@example.org\\x1b[2J" in out and "\x1b" not in out
    assert inbox.messages == []
