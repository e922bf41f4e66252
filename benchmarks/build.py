"""Benchmark the build at national scale and print the figures docs/performance.md records.

    python benchmarks/build.py                 # Germany-scale dataset (generated once, cached)
    python benchmarks/build.py --scale small   # a quick run

The dataset comes from `trinkwasser demo-data`, which needs the `demo` extra
(`pip install -e '.[demo]'`; `scripts/test.sh` installs it).

Every ratio compares figures measured in this one run on this machine, each command
started on a quiet disk (`settle`), the full build and `cp -a` on a file system that
removed no tree in the minutes before (`FORGET_S`):
build / `cp -a` of the finished tree, no-change rebuild / full build, and the rebuild after
one supplier's new publication (its measurements appended, `one_supplier_changed`) / full
build. Each figure is printed
with its target (docs/performance.md) and whether it was met.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import shutil
import subprocess
import sys
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).parent
AS_OF = "2026-11-23"
TRINKWASSER = [sys.executable, "-m", "generator"]
STAGES = re.compile(
    r"Time: load ([\d.]+) s, derive ([\d.]+) s, render the API ([\d.]+) s and the site "
    r"([\d.]+) s, write ([\d.]+) s"
)
"""The line `trinkwasser build` ends with (generator/build.py)."""
BESIDE = ((".", ".staging"), ("", "-gate"), ("", "-state"))
"""What a build keeps beside its tree `build` (generator/output/tree.py, generator/build.py)."""


REPO = HERE.parent.resolve()
"""The generator measured is the one beside this script. `python -m` imports from the
current directory first: run from another checkout, the builds would run its code, and an
edit there between two builds changes the code digest, so the second build renders
everything again (a no-change rebuild that took as long as the full build)."""


def child_env(repo: Path) -> dict[str, str]:
    """Return the environment of a command run with the generator of checkout `repo`.

    The builds run as an installed package does: with its bytecode cached. Where the
    environment turns the cache off, every run compiles the modules of polars, jinja2,
    click and the generator again (a third of a second, a tenth of a daily update).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(repo), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def settle(limit_s: float = 180.0) -> None:
    """Wait until the disk has written what earlier steps left in the page cache.

    Each timed command starts on a quiet disk: otherwise the kernel may still be writing
    back the previous step's gigabytes (or discarding a removed tree's blocks) while the
    next one runs, and a step's time would depend on the one before it.
    """
    os.sync()
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline and _unwritten_kib() > 65_536:
        time.sleep(0.5)


UPDATES = 3
"""How often the rebuild after one supplier's publication is timed: its figure is the median."""

FORGET_S = 360
"""How long after removing a tree the benchmark waits before it times making one.

ext4 without a journal does not give a removed file's inode to a new file for 60 s, and
for 300 s more while the block of the inode table that holds it is unwritten (making new
files beside it keeps it so); it checks each such inode one by one for every file it
makes (`recently_deleted` in the kernel's fs/ext4/ialloc.c). Right after a tree of 90,000
files was removed, two thirds of `cp -a`'s time went to those checks (`perf`), and it
took 39 to 51 s against 8 to 20 s a minute or more after one: the step timed would pay
for the removal before it."""


def remove_trees(paths: list[Path], wait_s: float) -> None:
    """Remove these trees, then wait until the file system has forgotten their inodes."""
    removed = [path for path in paths if path.exists()]
    for path in removed:
        shutil.rmtree(path, ignore_errors=True)
    if removed and wait_s > 0:
        print(f"waiting {wait_s:.0f} s: new files do not take a removed file's inode before")
        os.sync()
        time.sleep(wait_s)


def _unwritten_kib() -> int:
    """Return the page cache's dirty and in-writeback KiB (0 where /proc does not say)."""
    try:
        lines = Path("/proc/meminfo").read_text().splitlines()
    except OSError:
        return 0
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    return sum(int(fields.get(k, "0 kB").split()[0]) for k in ("Dirty", "Writeback"))


def beside(folder: Path) -> list[tuple[Path, str]]:
    """Return the tree of a folder of trees and what lies beside it, and how each is copied.

    The trees (the published one and the staging tree) as hard links, the rest as copies.
    """
    paths = [(folder / "build", "link")]
    for prefix, suffix in BESIDE:
        path = folder / f"{prefix}build{suffix}"
        paths.append((path, "link" if suffix == ".staging" else "copy"))
    return paths


def restored(snap: Path, folder: Path) -> Path:
    """Put the trees of `snap` (as `beside` names them) into `folder`; return its tree.

    An update of the copy unlinks the files it replaces and never writes into one (the
    writer's staging tree may share its inodes with the published tree), so the snapshot
    stays as it was.
    """
    folder.mkdir(parents=True)
    for (source, how), (target, _) in zip(beside(snap), beside(folder), strict=True):
        if source.exists():
            flags = "-al" if how == "link" else "-a"
            subprocess.run(["cp", flags, str(source), str(target)], check=True)
    return folder / "build"


def measured(cmd: list[str], repo: Path = REPO, **kwargs) -> dict:
    """Run a command; return wall and CPU seconds and peak resident memory of the child.

    It starts once the disk is quiet (`settle`), in checkout `repo` with its generator.
    """
    settle()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=child_env(repo), cwd=repo, **kwargs)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"command failed: {' '.join(map(str, cmd))}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mib": usage.ru_maxrss / 1024,  # ru_maxrss is in KiB on Linux
    }


def snapshot(repo: Path, data: Path, folder: Path) -> dict:
    """Build `data` in full into `folder`, then once more with `--force`.

    So a staging tree lies beside the tree, as after any rebuild. Return the full build's
    `measured` figures.
    """
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    cmd = [*build_command(data, folder / "build"), "--quiet"]
    full = measured(cmd, repo=repo)
    measured([*cmd, "--force"], repo=repo)
    return full


def update(repo: Path, data: Path, out: Path, log: Path) -> dict:
    """Time the update of tree `out` from `data`; the build's own stage times with it."""
    cmd = build_command(data, out)
    with log.open("w") as fh:
        timed = measured(cmd, repo=repo, stdout=subprocess.DEVNULL, stderr=fh)
    text = log.read_text(encoding="utf-8")
    # An update that took nothing from the snapshot (other code, say) rendered everything.
    planned = [line for line in text.splitlines() if line.startswith("Rendering the files of")]
    if not planned:
        sys.exit(f"the update rendered every file; see {log}")
    return timed | stages_of(log, text) | {"planned": planned[0]}


def tree_figures(root: Path) -> dict:
    """Files, bytes, the largest file, and the files per top folder of a tree."""
    files = size = 0
    largest = (0, "")
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            path = os.path.join(dirpath, name)
            bytes_ = os.lstat(path).st_size
            files += 1
            size += bytes_
            largest = max(largest, (bytes_, os.path.relpath(path, root)))
    return {"files": files, "bytes": size, "largest": largest}


def _gzip_size(path: str) -> int:
    with open(path, "rb") as fh:
        return len(zlib.compress(fh.read(), 6)) + 18  # + the gzip header and trailer


def gzip_size(root: Path) -> int:
    """Bytes of the tree with every file gzipped at level 6 (what a CDN transfers, about)."""
    paths = [os.path.join(d, n) for d, _dirs, names in os.walk(root) for n in names]
    with ProcessPoolExecutor() as pool:
        return sum(pool.map(_gzip_size, paths, chunksize=256))


def people_files(root: Path) -> list[tuple[str, str]]:
    """Measure the pages whose weight grows with the country.

    The map's views (and the largest view of a Land), the index the search loads on first
    use (raw / gzip level 6), the nitrate page with its national distribution, beside the
    largest PLZ page. The zones' comparisons (`generator.compare`) are computed in derive
    and timed with it, in the full build and the daily update alike.
    """
    paths = [
        "karte/index.html",
        "karte/nitrat/index.html",
        "karte/haerte/index.html",
        "suchindex.json",
        "orte/index.html",
    ]
    # The largest view of a Land, and a parameter page with its national distribution.
    land_views = list((root / "karte" / "land").glob("*/index.html"))
    if land_views:
        paths.append(str(max(land_views, key=lambda p: p.stat().st_size).relative_to(root)))
    paths.append("parameter/nitrat/index.html")
    plz_pages = list((root / "plz").glob("*/index.html"))
    if plz_pages:
        paths.append(str(max(plz_pages, key=lambda p: p.stat().st_size).relative_to(root)))
    rows = []
    for rel in paths:
        path = root / rel
        if path.is_file():
            raw = path.stat().st_size
            rows.append(
                (rel, f"{raw / 1e3:,.0f} kB raw, {_gzip_size(str(path)) / 1e3:,.0f} kB gzip")
            )
    return rows


def one_supplier_changed(data: Path, changed: Path) -> tuple[int, int, int]:
    """Copy the dataset to `changed` as it reads after one supplier's new publication.

    Return (supplier, zones, rows appended); see `suppliers_changed`.
    """
    suppliers, zones, rows = suppliers_changed(data, changed, 1)
    return suppliers[0], zones[0], rows


def suppliers_changed(data: Path, changed: Path, count: int) -> tuple[list, list[int], int]:
    """Copy the dataset to `changed` as it reads after `count` suppliers' new publications.

    Each supplier's: a new document, and for each of its zones the newest sample of every
    parameter measured again three days before the build date (the same texts, so the new
    rows are current values), appended after the rows there were. The other tables are
    hard links. Return the suppliers, how many zones each has, and the rows appended.

    The suppliers, ordered by their number of zones and then by id, are taken from the
    median one on (the last `count` when fewer follow it): typical updates, not the
    smallest.
    """
    import polars as pl

    suffix = ".parquet" if (data / "measurements.parquet").exists() else ".csv"

    def read(name: str) -> pl.DataFrame:
        path = data / f"{name}{suffix}"
        if suffix == ".parquet":
            return pl.read_parquet(path)
        return pl.read_csv(path, infer_schema=False)  # as text, written back as it was

    def write(frame: pl.DataFrame, name: str) -> None:
        path = changed / f"{name}{suffix}"
        if suffix == ".parquet":
            frame.write_parquet(path)
        else:
            frame.write_csv(path)

    shutil.rmtree(changed, ignore_errors=True)
    changed.mkdir(parents=True)
    for path in data.iterdir():
        if path.stem not in ("measurements", "documents"):
            os.link(path, changed / path.name)
    zones = read("zones")
    sizes = zones.group_by("supplier_id").len().sort("len", "supplier_id")
    if not 1 <= count <= sizes.height:
        raise ValueError(f"{count} suppliers asked for, the dataset has {sizes.height}")
    first = min(sizes.height // 2, sizes.height - count)
    suppliers = sizes["supplier_id"].slice(first, count).to_list()
    day = dt.date.fromisoformat(AS_OF)
    docs = read("documents")
    m = read("measurements")
    new_docs, appended, counts = [], [], []
    for supplier in suppliers:
        ids = zones.filter(pl.col("supplier_id") == supplier)["zone_id"].implode()
        counts.append(ids.list.len()[0])
        doc = f"benchmark-{supplier}-{AS_OF}"
        new_doc = pl.DataFrame(
            {
                "document_id": [doc],
                "supplier_id": [supplier],
                "title": ["Trinkwasseranalyse (neu)"],
                "url": [f"https://example.org/{doc}.pdf"],
                "edition_date": [day - dt.timedelta(days=1)],
                "retrieved_date": [day],
            },
        )
        new_docs.append(new_doc.cast({c: docs.schema[c] for c in new_doc.columns}))  # CSV: text
        mine = m.filter(pl.col("zone_id").is_in(ids))
        newest = mine.filter(
            pl.col("sampled_at") == pl.col("sampled_at").max().over("zone_id", "parameter")
        ).unique(["zone_id", "parameter", "sample_point"], keep="first", maintain_order=True)
        appended.append(
            newest.with_columns(
                pl.lit(day - dt.timedelta(days=3)).alias("sampled_at"),
                pl.lit(doc).alias("document_id"),
            ).cast(m.schema)
        )
    write(pl.concat([docs, *new_docs], how="diagonal"), "documents")
    write(pl.concat([m, *appended]), "measurements")
    return suppliers, counts, sum(a.height for a in appended)


def stages_of(log: Path, text: str | None = None) -> dict[str, float]:
    """Return the stage times of a build, from the line `trinkwasser build` ends with.

    `text`: the log's text, when the caller has read it.
    """
    found = STAGES.search(log.read_text(encoding="utf-8") if text is None else text)
    if found is None:
        sys.exit(f"no stage times in {log}")
    names = ("load", "derive", "api", "site", "write")
    return dict(zip(names, map(float, found.groups()), strict=True))


def target(ok: bool, text: str) -> str:
    return f"{text}  {'met' if ok else 'MISSED'}"


def dataset(work: Path, scale: str) -> Path:
    """Return the benchmark's dataset in `work`, generated once (`trinkwasser demo-data`)."""
    data = work / f"data-{scale}"
    if not (data / "measurements.parquet").exists() and not (data / "measurements.csv").exists():
        shutil.rmtree(data, ignore_errors=True)
        gen = measured([*TRINKWASSER, "demo-data", "--out", str(data), "--scale", scale])
        print(f"dataset generated in {gen['wall']:.1f} s (peak {gen['peak_mib']:.0f} MiB)")
    return data


def build_command(data: Path, out: Path) -> list[str]:
    """Return the command that builds `data` into `out` as of the benchmark's date."""
    return [*TRINKWASSER, "build", "--data", str(data), "--out", str(out), "--as-of", AS_OF]


def arguments(doc: str, work: str) -> argparse.ArgumentParser:
    """Return a parser with the options the build benchmarks share: --scale and --work."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--scale", choices=["small", "germany"], default="germany")
    parser.add_argument("--work", type=Path, default=HERE / ".work", help=work)
    return parser


def main() -> None:
    parser = arguments(__doc__, "Scratch directory (dataset cache and output trees).")
    parser.add_argument("--no-gzip", action="store_true", help="Skip the gzip size (slow).")
    parser.add_argument(
        "--forget",
        type=float,
        metavar="SECONDS",
        help=f"Wait after removing the previous run's trees (default {FORGET_S:.0f} for "
        "germany, 0 for small; see FORGET_S).",
    )
    args = parser.parse_args()
    args.work = args.work.resolve()  # the commands run in REPO

    data = dataset(args.work, args.scale)
    out, copy = args.work / "build", args.work / "build-copy"
    # The full build starts from nothing: no tree, no state, no staging tree kept beside.
    forget = args.forget if args.forget is not None else FORGET_S * (args.scale == "germany")
    # And the copies of a run that stopped before it removed them (`updates`).
    trees = [out, copy, args.work / "updates", *(args.work / f"{p}build{s}" for p, s in BESIDE)]
    remove_trees(trees, forget)

    build_cmd = build_command(data, out)
    log = args.work / "build.log"
    with log.open("w") as fh:
        full = measured(build_cmd, stderr=fh)
    stages = stages_of(log)
    tree = tree_figures(out)
    cp = measured(["cp", "-a", str(out), str(copy)])
    unchanged = measured([*build_cmd, "--quiet"])
    forced = measured([*build_cmd, "--quiet", "--force"])
    changed_data = args.work / f"data-{args.scale}-one-supplier"
    supplier, supplier_zones, appended = one_supplier_changed(data, changed_data)
    # The same update UPDATES times, each on the tree as the forced rebuild left it: one
    # update of two seconds varies by a fifth from run to run, the median much less.
    again = args.work / "updates"
    for i in range(1, UPDATES):
        restored(args.work, again / str(i))
    updates = []
    for i in range(UPDATES):
        updated = out if i == 0 else again / str(i) / "build"
        log_of = args.work / f"one-supplier-{i + 1}.log"
        with log_of.open("w") as fh:
            updates.append(
                measured(build_command(changed_data, updated), stderr=fh) | {"log": log_of}
            )
    one_supplier = sorted(updates, key=lambda u: u["wall"])[UPDATES // 2]
    rebuild = stages_of(one_supplier["log"])
    # Removed once nothing is timed any more: the rebuilds above would pay for its inodes.
    shutil.rmtree(copy, ignore_errors=True)
    shutil.rmtree(again, ignore_errors=True)
    zipped = None if args.no_gzip else gzip_size(out)

    people = people_files(out)
    update_walls = ", ".join(f"{u['wall']:.2f}" for u in updates)
    gib = tree["bytes"] / 2**30
    largest_mb = tree["largest"][0] / 1e6
    ratio = full["wall"] / cp["wall"]
    no_change = unchanged["wall"] / full["wall"]
    rows = [
        ("scale", args.scale),
        ("files", target(tree["files"] <= 100_000, f"{tree['files']:,} (target <= 100,000)")),
        ("bytes", target(gib <= 6, f"{tree['bytes']:,} = {gib:.2f} GiB (target <= 6 GiB)")),
        (
            "largest file",
            target(
                largest_mb <= 10, f"{largest_mb:.2f} MB, {tree['largest'][1]} (target <= 10 MB)"
            ),
        ),
        (
            "tree gzipped (level 6)",
            "skipped" if zipped is None else f"{zipped:,} = {zipped / 2**30:.2f} GiB",
        ),
        ("full build wall s", f"{full['wall']:.1f}"),
        ("full build CPU s", f"{full['cpu']:.1f}"),
        ("  load and check s", f"{stages['load']:.1f}"),
        ("  derive s", f"{stages['derive']:.1f}"),
        ("  render the API s", f"{stages['api']:.1f}"),
        ("  render the site s", f"{stages['site']:.1f}"),
        ("  write (hash, link or write, swap) s", f"{stages['write']:.1f}"),
        (
            "full build peak memory",
            target(full["peak_mib"] <= 2048, f"{full['peak_mib']:,.0f} MiB (target <= 2,048 MiB)"),
        ),
        ("cp -a of the tree wall s", f"{cp['wall']:.1f}"),
        ("build / cp -a", target(ratio <= 2, f"{ratio:.2f}x (target <= 2x)")),
        ("no-change rebuild wall s", f"{unchanged['wall']:.2f}"),
        (
            "no-change rebuild / full",
            target(no_change <= 0.05, f"{no_change:.3f}x (target <= 0.05x)"),
        ),
        ("forced rebuild, nothing changed, wall s", f"{forced['wall']:.1f}"),
        ("forced rebuild / full", f"{forced['wall'] / full['wall']:.2f}x"),
        (
            "one supplier changed",
            f"supplier {supplier}: {supplier_zones} zones, {appended:,} measurements appended, "
            f"new document; rebuild {one_supplier['wall']:.2f} s wall (the median of "
            f"{update_walls} s), peak of that update {one_supplier['peak_mib']:,.0f} MiB",
        ),
        (
            "  rebuild: load / derive / API / site / write s",
            " / ".join(f"{rebuild[k]:.1f}" for k in ("load", "derive", "api", "site", "write")),
        ),
        (
            "one supplier changed / full",
            target(
                one_supplier["wall"] / full["wall"] <= 0.05,
                f"{one_supplier['wall'] / full['wall']:.3f}x (target <= 0.05x)",
            ),
        ),
        *((f"page {rel}", size) for rel, size in people),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
