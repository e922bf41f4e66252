"""The click commands `trinkwasser serve` and `trinkwasser keys ...`.

Thin: parse options, call the gate library, print. The server and SQLite are imported inside
the commands so `trinkwasser --help` stays fast.
"""

from __future__ import annotations

import csv
import datetime as dt
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from generator.api import routes
from generator.cli_options import config_option, handle_errors, quiet_option, verbose_option
from generator.errors import terminal_safe

if TYPE_CHECKING:
    from generator.api.settings import GateSettings
    from generator.config import Config
    from generator.gate.keys import IssuedKey
    from generator.gate.model import AccessRequest, OperatorState

F = TypeVar("F", bound=Callable[..., object])

STATUS_CHOICES = ("pending", "approved", "rejected", "all")


def _state_option(func: F) -> F:
    return click.option(
        "--state",
        "state_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("state"),
        show_default=True,
        help="Directory of the gate's state (keys, quota counters, access requests).",
    )(func)


_SOURCE = "trinkwasser.keys_source"


def _source_option(func: F) -> F:
    """`--from local|netlify`: which state the keys commands work on (read by `_open`)."""

    def remember(ctx: click.Context, _param: click.Parameter, value: str) -> str:
        ctx.meta[_SOURCE] = value
        return value

    return click.option(
        "--from",
        type=click.Choice(["local", "netlify"]),
        default="local",
        show_default=True,
        expose_value=False,
        callback=remember,
        help="local: the --state directory; netlify: the production gate's Netlify Blobs "
        "(NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN from the environment, see docs/netlify.md).",
    )(func)


def _settings(config_path: Path | None) -> tuple[Config, GateSettings]:
    from generator.api.settings import GateSettings
    from generator.config import load_config

    config = load_config(config_path)
    return config, GateSettings.from_config(config)


def _open(state_dir: Path, config_path: Path | None) -> tuple[Config, GateSettings, OperatorState]:
    from generator.gate.sqlite_state import open_state

    config, settings = _settings(config_path)
    context = click.get_current_context(silent=True)
    if context is not None and context.meta.get(_SOURCE) == "netlify":
        from generator.gate.netlify_blobs import NetlifyBlobsState

        return config, settings, NetlifyBlobsState.from_env()
    return config, settings, open_state(state_dir, settings=settings)


def _local(value: dt.datetime | None) -> str:
    from generator.gate.model import BERLIN

    return "-" if value is None else value.astimezone(BERLIN).strftime("%Y-%m-%d %H:%M")


def first_plz(build_dir: Path) -> str | None:
    """Return the first PLZ of the build's export, for a lookup that answers with data."""
    try:
        with (build_dir / routes.file_path("export", format="csv")).open(encoding="utf-8") as fh:
            row = next(csv.DictReader(fh), None)
    except OSError:
        return None
    return row["plz"] if row else None


# ---------------------------------------------------------------------------- serve


def _check_port(host: str, port: int) -> None:
    """Fail early, with a hint, when the address is taken (uvicorn would only log it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # The same option uvicorn sets, so a port in TIME_WAIT does not count as taken.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise click.ClickException(
                f"cannot listen on {host}:{port} ({exc.strerror}); "
                "is another server running? Choose another port with --port"
            ) from None


@click.command()
@click.option(
    "--build-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("build"),
    show_default=True,
    help="The built tree to serve (from `trinkwasser build`).",
)
@_state_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port."
)
@click.option(
    "--demo-key",
    is_flag=True,
    help="Issue (or reuse) a local demo key and print it with a ready curl command; the "
    "API reference (/api/) then shows it in its examples.",
)
@click.option("--access-log/--no-access-log", default=True, help="Log every request.")
@click.option(
    "--timeout-request",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Seconds a connection has to send a whole request (head and body), from opening "
    "or from the first byte of its next request; slower or silent ones are closed.",
)
@click.option(
    "--timeout-write",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Seconds a connection may accept no byte of its answer (a client that does not "
    "read); then it is aborted.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    default=None,
    help="Open connections above which requests get 503 with Retry-After and are closed "
    "(default: the open-file limit minus 64).",
)
@click.option(
    "--timeout-keep-alive",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Seconds an idle connection is kept open after an answer.",
)
@config_option
@handle_errors
def serve(
    build_dir: Path,
    state_dir: Path,
    host: str,
    port: int,
    demo_key: bool,
    access_log: bool,
    timeout_request: float,
    timeout_write: float,
    max_connections: int | None,
    timeout_keep_alive: int,
    config_path: Path | None,
) -> None:
    """Serve the built site and API on HTTP, through the gate (keys, quota, validation).

    uvicorn with httptools and uvloop; answers are compressed (Brotli or gzip) for clients
    that accept it. See docs/gate.md for the timeouts and the file descriptors it needs.
    """
    import uvicorn

    from generator.gate import server
    from generator.gate.app import create_app
    from generator.gate.keys import EXAMPLE_PLZ, curl_line, ensure_demo_key
    from generator.gate.sqlite_state import open_state

    if not (build_dir / "v1").is_dir():
        raise click.ClickException(
            f"{build_dir} holds no built API tree; run `trinkwasser build --out {build_dir}` first"
        )
    _check_port(host, port)
    _, settings = _settings(config_path)
    state = open_state(state_dir, settings=settings)
    key, created = (
        ensure_demo_key(state, state_dir, settings.key_prefix) if demo_key else ("", False)
    )
    # The API reference (/api/) shows the demo key in its examples instead of the example key.
    app = create_app(build_dir, state, settings, key or None)
    base = f"http://{host}:{port}" if ":" not in host else f"http://[{host}]:{port}"
    click.echo(f"Serving {build_dir} on {base} (state in {state_dir}); Ctrl+C stops.")
    if demo_key:
        plz = first_plz(build_dir) or EXAMPLE_PLZ
        click.echo(f"{'New' if created else 'Existing'} local demo key: {key}")
        click.echo("Try it:")
        click.echo(f"  {curl_line(base, key, plz)}")
    soft, _ = server.raise_open_file_limit()
    if max_connections is None and soft > 0:
        max_connections = server.connection_bound(soft)
    limits = server.Limits(
        request=timeout_request,
        keep_alive=timeout_keep_alive,
        write=timeout_write,
        max_connections=max_connections,
    )
    if soft > 0:
        click.echo(
            f"Open files allowed: {soft}; requests beyond {max_connections} open connections "
            f"get 503. A connection sends its request within {timeout_request:g} s and "
            f"accepts its answer without a pause of {timeout_write:g} s, or is closed."
        )
    sys.stdout.flush()
    uvicorn.run(
        app,
        host=host,
        port=port,
        loop=server.event_loop(),
        http=server.protocol_class(limits, app.overloaded),
        timeout_keep_alive=limits.keep_alive,
        log_level="info",
        access_log=access_log,
        server_header=False,
        proxy_headers=False,
        lifespan="on",
    )


# ---------------------------------------------------------------------------- keys


@click.group()
@verbose_option
def keys() -> None:
    """Review access requests and manage API keys (in the --state directory)."""


@keys.command("requests")
@click.option(
    "--status",
    type=click.Choice(STATUS_CHOICES),
    default="pending",
    show_default=True,
    help="Which requests to list.",
)
@_source_option
@_state_option
@config_option
@handle_errors
def list_requests(status: str, state_dir: Path, config_path: Path | None) -> None:
    """List access requests (pending ones by default)."""
    _, _, state = _open(state_dir, config_path)
    requests = state.list_requests(None if status == "all" else status)
    if not requests:
        click.echo(f"No {'' if status == 'all' else status + ' '}access requests.")
        return
    for r in requests:
        # E-mail and purpose come from anyone on the internet: escaped for the terminal.
        click.echo(terminal_safe(f"{r.id}  {_local(r.created_at)}  {r.status:<8}  {r.email}"))
        click.echo(terminal_safe(f"    Zweck: {r.zweck}"))
        if r.status == "approved":
            click.echo(f"    Approved {_local(r.decided_at)}, key {r.key_id}")
        elif r.status == "rejected":
            click.echo(terminal_safe(f"    Rejected {_local(r.decided_at)}: {r.reason}"))


def _deliver(to: str, subject: str, body: str, config: Config) -> str | None:
    """Send an e-mail when `[smtp]` is configured; return why it failed, or None.

    Whatever stops the send (the server, the deadline, an address the message cannot
    hold) is a failure to report, never a traceback: a key issued before it must be shown.
    """
    from generator.gate import mail

    assert config.smtp is not None
    try:
        mail.send(mail.message(to, subject, body, config, config.smtp), config.smtp)
    except mail.MailError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - the caller prints the key instead
        return f"{type(exc).__name__}: {exc}"
    return None


def _send_key(issued: IssuedKey, config: Config, settings: GateSettings) -> None:
    """Send the new key by e-mail, or print it with the e-mail to send by hand."""
    from generator.gate import keys as key_tools

    email, key_id = issued.api_key.email, issued.api_key.id
    if config.smtp is None:
        click.echo(f"The key (shown only now, only its hash is stored): {issued.key}")
        click.echo("\nE-mail to send:\n" + "-" * 72)
        click.echo(terminal_safe(key_tools.approval_email(issued, config, settings).rstrip()))
        click.echo("-" * 72)
        return
    body = key_tools.approval_body(issued, config, settings)
    failure = _deliver(email, key_tools.APPROVAL_SUBJECT, body, config)
    if failure is None:
        click.echo(
            terminal_safe(
                f"Sent the key to {email} (via {config.smtp.host}); it is shown nowhere else."
            )
        )
        return
    click.echo(f"The key (shown only now, only its hash is stored): {issued.key}")
    click.echo("\nE-mail to send by hand:\n" + "-" * 72)
    click.echo(terminal_safe(key_tools.approval_email(issued, config, settings).rstrip()))
    click.echo("-" * 72)
    raise click.ClickException(
        terminal_safe(f"sending the e-mail failed: {failure}.")
        + f" The key {key_id} is issued all the same: "
        f"send the e-mail above by hand, or retry with `trinkwasser keys resend {key_id}` "
        "(a new key is issued and sent, this one revoked)"
    )


@keys.command()
@click.argument("request_id")
@_source_option
@_state_option
@config_option
@handle_errors
def approve(request_id: str, state_dir: Path, config_path: Path | None) -> None:
    """Approve a pending request: issue its key and send it by e-mail.

    The request's address is checked first: a key is issued only for exactly one address.
    With [smtp] in the configuration the key is sent, the whole send bounded by the [smtp]
    timeout; without, or when the send does not complete, the key is shown once with the
    e-mail to send by hand.
    """
    from generator.gate import keys as key_tools

    config, settings, state = _open(state_dir, config_path)
    issued = key_tools.approve(state, state, request_id, settings.key_prefix)
    click.echo(
        terminal_safe(f"Approved {request_id}; key {issued.api_key.id} for {issued.api_key.email}.")
    )
    _send_key(issued, config, settings)


@keys.command()
@click.argument("request_id")
@click.option("--reason", required=True, help="Why the request is rejected (kept on record).")
@click.option(
    "--notify",
    is_flag=True,
    help="Tell the requester, reason included: by e-mail with [smtp], else print the e-mail.",
)
@_source_option
@_state_option
@config_option
@handle_errors
def reject(
    request_id: str, reason: str, notify: bool, state_dir: Path, config_path: Path | None
) -> None:
    """Reject a pending request."""
    from generator.gate import keys as key_tools

    config, _, state = _open(state_dir, config_path)
    request = key_tools.reject(state, request_id, reason)
    click.echo(terminal_safe(f"Rejected {request.id} ({request.email})."))
    if notify:
        _send_rejection(request, config)


def _send_rejection(request: AccessRequest, config: Config) -> None:
    from generator.gate import keys as key_tools

    if config.smtp is None:
        click.echo("\nE-mail to send:\n" + "-" * 72)
        click.echo(terminal_safe(key_tools.rejection_email(request, config).rstrip()))
        click.echo("-" * 72)
        return
    body = key_tools.rejection_body(request, config)
    failure = _deliver(request.email, key_tools.REJECTION_SUBJECT, body, config)
    if failure is None:
        click.echo(terminal_safe(f"Sent the rejection to {request.email}."))
        return
    raise click.ClickException(
        f"sending the e-mail failed: {failure}. The request stays rejected; retry with "
        f"`trinkwasser keys resend {request.id}`"
    )


@keys.command()
@click.argument("key_or_request_id")
@_source_option
@_state_option
@config_option
@handle_errors
def resend(key_or_request_id: str, state_dir: Path, config_path: Path | None) -> None:
    """Send an e-mail again after a failed send.

    A key id (or an approved request's id): only the key's hash is stored, so a new key is
    issued for the same address and sent, and the old one revoked. A rejected request's id:
    the rejection is sent again.
    """
    from generator.gate import keys as key_tools

    config, settings, state = _open(state_dir, config_path)
    key_id = key_or_request_id
    if key_or_request_id.startswith("req_"):
        request = state.get_request(key_or_request_id)
        if request.status == "rejected":
            _send_rejection(request, config)
            return
        if request.status != "approved" or request.key_id is None:
            raise click.ClickException(f"access request {request.id} is {request.status}")
        key_id = request.key_id
    issued, revoked = key_tools.replace(state, state, key_id, settings.key_prefix)
    click.echo(
        terminal_safe(
            f"Revoked {revoked.id} ({revoked.hint}); new key {issued.api_key.id} for "
            f"{issued.api_key.email}."
        )
    )
    _send_key(issued, config, settings)


def _check_email(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    from generator.gate.validation import check_string

    # The same check as an access request's address gets from the gate.
    email = routes.route("access_request").param("email")
    if check_string(email, value, (email.name,)) is not None:
        raise click.BadParameter(f"{value!r} is not an e-mail address (expected name@domain)")
    return value


@keys.command()
@click.option("--email", required=True, callback=_check_email, help="Whom the key is for.")
@click.option("--note", default="", help="What the key is for (shown in `keys list`).")
@quiet_option("Print only the key (for scripts).")
@_source_option
@_state_option
@config_option
@handle_errors
def issue(email: str, note: str, quiet: bool, state_dir: Path, config_path: Path | None) -> None:
    """Issue a key directly, without an access request (e.g. for the operator's own systems)."""
    from generator.gate import keys as key_tools

    _, settings, state = _open(state_dir, config_path)
    issued = key_tools.issue(state, email, settings.key_prefix, note)
    if quiet:
        click.echo(issued.key)
        return
    click.echo(f"Issued key {issued.api_key.id} for {email}.")
    click.echo(f"The key (shown only now, only its hash is stored): {issued.key}")


@keys.command()
@click.argument("key_id")
@_source_option
@_state_option
@config_option
@handle_errors
def revoke(key_id: str, state_dir: Path, config_path: Path | None) -> None:
    """Revoke a key: from now on it gets 403."""
    _, _, state = _open(state_dir, config_path)
    key = state.revoke_key(key_id)
    click.echo(terminal_safe(f"Revoked {key.id} ({key.hint}, {key.email})."))


@keys.command("list")
@_source_option
@_state_option
@config_option
@handle_errors
def list_keys(state_dir: Path, config_path: Path | None) -> None:
    """List keys with their status and today's usage."""
    _, settings, state = _open(state_dir, config_path)
    api_keys = state.list_keys()
    if not api_keys:
        click.echo("No keys yet.")
        return
    for k in api_keys:
        used = state.used(k.id)
        click.echo(
            terminal_safe(
                f"{k.id}  {k.hint:<10}  {k.status:<7}  {_local(k.created_at)}  "
                f"today {used}/{settings.daily_quota}  {k.email}"
                + (f"  ({k.note})" if k.note else "")
            )
        )
