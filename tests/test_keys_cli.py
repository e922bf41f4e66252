"""`trinkwasser keys ...`: the operator's workflow, its output and its errors."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.gate import keys as key_tools
from generator.gate.sqlite_state import open_state

KEY = re.compile(r"twd_[0-9A-Za-z]{32}")


@pytest.fixture
def state_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no trinkwasser.toml here: built-in defaults
    return tmp_path / "state"


def run(*args: str, code: int = 0):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    return result


def keys(state_dir, *args: str, code: int = 0):
    return run("keys", *args, "--state", str(state_dir), code=code)


def submit(state_dir, email="ada@example.org", zweck="Eine App für die Stadt Musterstadt"):
    return open_state(state_dir).submit_request(email, zweck)


def test_request_approve_shows_the_key_once_with_an_email(state_dir):
    request = submit(state_dir)
    listed = keys(state_dir, "requests").output
    assert request.id in listed and "ada@example.org" in listed and "pending" in listed
    assert "Eine App für die Stadt Musterstadt" in listed

    out = keys(state_dir, "approve", request.id).output
    [key] = set(KEY.findall(out))
    assert "An: ada@example.org" in out
    # the ready-to-send text carries the key once, and a curl line to put it in
    assert out.split("E-mail to send:")[1].count(key) == 1
    assert "X-Api-Key: IHR_SCHLUESSEL" in out
    assert request.id in out
    stored = open_state(state_dir).key_by_hash(key_tools.hash_key(key))
    assert stored.email == "ada@example.org" and stored.active

    assert keys(state_dir, "requests").output.strip() == "No pending access requests."
    approved = keys(state_dir, "requests", "--status", "approved").output
    assert request.id in approved and stored.id in approved
    # The key itself appears nowhere after this: not in listings, not in the database.
    assert key not in keys(state_dir, "list").output
    assert key.encode() not in (state_dir / "gate.sqlite3").read_bytes()


def test_approving_twice_is_an_error(state_dir):
    request = submit(state_dir)
    keys(state_dir, "approve", request.id)
    again = keys(state_dir, "approve", request.id, code=1)
    assert again.output.startswith("Error: access request")
    assert "already approved" in again.output
    assert len(open_state(state_dir).list_keys()) == 1


def test_reject_needs_a_reason_and_a_pending_request(state_dir):
    request = submit(state_dir)
    missing = keys(state_dir, "reject", request.id, code=2)
    assert "--reason" in missing.output
    out = keys(state_dir, "reject", request.id, "--reason", "kein Zweck erkennbar").output
    assert out.strip() == f"Rejected {request.id} (ada@example.org)."
    listed = keys(state_dir, "requests", "--status", "rejected").output
    assert "kein Zweck erkennbar" in listed
    assert "already rejected" in keys(state_dir, "approve", request.id, code=1).output


def test_unknown_request_is_an_error(state_dir):
    out = keys(state_dir, "approve", "req_doesnotexist00", code=1).output
    assert out.strip() == "Error: no access request with id 'req_doesnotexist00'"


def test_issue_quiet_prints_only_the_key(state_dir):
    out = keys(state_dir, "issue", "--email", "ops@example.org", "--note", "Monitoring", "-q")
    assert KEY.fullmatch(out.output.strip())
    listed = keys(state_dir, "list").output
    assert "ops@example.org" in listed and "(Monitoring)" in listed and "active" in listed
    assert "today 0/1000" in listed


def test_issue_refuses_a_non_address(state_dir):
    out = keys(state_dir, "issue", "--email", "not-an-address", code=2).output
    assert "is not an e-mail address" in out


def test_revoke_then_revoke_again_and_unknown(state_dir):
    key = keys(state_dir, "issue", "--email", "ops@example.org", "--quiet").output.strip()
    key_id = open_state(state_dir).key_by_hash(key_tools.hash_key(key)).id
    out = keys(state_dir, "revoke", key_id).output
    assert out.startswith(f"Revoked {key_id}")
    assert "revoked" in keys(state_dir, "list").output
    assert "already revoked" in keys(state_dir, "revoke", key_id, code=1).output
    unknown = keys(state_dir, "revoke", "key_nope", code=1).output
    assert unknown.startswith("Error: no key with id 'key_nope'")


def test_list_shows_todays_usage(state_dir):
    key = keys(state_dir, "issue", "--email", "ops@example.org", "-q").output.strip()
    state = open_state(state_dir)
    key_id = state.key_by_hash(key_tools.hash_key(key)).id
    for _ in range(3):
        state.consume(key_id)
    assert "today 3/1000" in keys(state_dir, "list").output


def test_empty_state_lists_nothing(state_dir):
    assert keys(state_dir, "list").output.strip() == "No keys yet."
    assert keys(state_dir, "requests", "--status", "all").output.strip() == "No access requests."


def test_default_state_directory_is_state(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("keys", "issue", "--email", "ops@example.org", "-q")
    assert (tmp_path / "state" / "gate.sqlite3").is_file()


def test_every_keys_command_has_help_and_a_state_option():
    for command in ("requests", "approve", "reject", "issue", "revoke", "list"):
        out = run("keys", command, "--help").output
        assert "--state DIRECTORY" in out, command
    assert "--state DIRECTORY" in run("serve", "--help").output


def test_config_changes_the_key_prefix(state_dir, tmp_path):
    (tmp_path / "trinkwasser.toml").write_text('[site]\nkey_prefix = "abc_"\n')
    out = keys(state_dir, "issue", "--email", "ops@example.org", "-q").output.strip()
    assert re.fullmatch(r"abc_[0-9A-Za-z]{32}", out)
