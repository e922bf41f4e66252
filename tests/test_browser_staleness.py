"""The stale zone and the link that no longer answers, as a reader sees them in Chromium.

A build of the golden input a year on, with one document's link marked gone (as
`trinkwasser fetch` marks it), served by the real gate.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from generator.site import urls
from tests.browser_harness import no_console_errors
from tests.helpers import GOLDEN_INPUT

pytestmark = pytest.mark.browser
pytest_plugins = ["tests.browser_harness"]


@pytest.fixture(scope="module")
def sample_build(tmp_path_factory) -> Path:
    """Replace the bundled sample for this module's `server`."""
    data = tmp_path_factory.mktemp("stale") / "data"
    shutil.copytree(GOLDEN_INPUT, data)
    docs = data / "documents.csv"
    lines = docs.read_text(encoding="utf-8").splitlines()
    lines[0] += ",link_gone_since"
    lines[1:] = [
        line + (",2027-05-02" if line.startswith("zs-2026,") else ",") for line in lines[1:]
    ]
    docs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = data.parent / "build"
    build(data, out, dt.date(2027, 6, 10), Config(), force=True)
    return out


def test_a_stale_zone_and_a_gone_link_are_shown(page, watch, server):
    base, _ = server
    page.goto(base + urls.url("zone", zone_id=21))
    notice = page.get_by_role("note").filter(has_text="Die neueste Veröffentlichung")
    assert notice.is_visible()
    assert notice.inner_text().startswith("Die neueste Veröffentlichung ist vom 15.05.2026.")
    gone = page.locator(".sources-box .link-gone").first
    assert gone.is_visible()
    assert gone.inner_text() == "Der Link antwortet seit dem 02.05.2027 nicht mehr."
    # the original link and the retrieval date stay
    source = page.locator(".sources-box a[href='https://seeland.example/werte.html']").first
    assert source.is_visible()
    assert "abgerufen 20.05.2026" in page.locator(".sources-box").inner_text()

    page.goto(base + urls.url("zone", zone_id=11))  # newest publication 30.06.2026: not stale
    assert page.get_by_text("Die neueste Veröffentlichung").count() == 0

    page.goto(base + urls.url("supplier", supplier_id=2))
    row = page.locator("tr", has=page.locator("a[href='https://seeland.example/werte.html']"))
    assert "Der Link antwortet seit dem 02.05.2027 nicht mehr." in row.inner_text()
    no_console_errors(watch)
