"""The usual alternative to the precomputed tree, for benchmarks/serve.py: FastAPI on SQLite.

What a team would build without precomputation: the source tables in SQLite with indexes,
and a FastAPI app that answers lookup, zone and measurements with queries per request, behind
the same key check and quota upsert as the gate (it uses `generator.gate`'s SQLite state).

    python benchmarks/reference.py load --data DIR --db FILE       # the tables into SQLite
    python benchmarks/reference.py serve --db FILE --state DIR --port N

Loading reads the national source tables with the project's loader (the values parsed and
converted to the register's units, as any import would); everything the gate's files hold
precomputed (the latest value per parameter, its limit and class, the lists of documents,
the JSON) is computed here at request time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sqlite3
import sys
from pathlib import Path
from typing import Any

# At the top: FastAPI reads the endpoints' annotations (strings here) from module globals.
from fastapi import FastAPI, Header, HTTPException, Query, Response

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

SCHEMA = """
CREATE TABLE suppliers (supplier_id INTEGER PRIMARY KEY, name TEXT, city TEXT, website TEXT);
CREATE TABLE zones (zone_id INTEGER PRIMARY KEY, supplier_id INTEGER, name TEXT,
                    water_source TEXT, population INTEGER);
CREATE TABLE plz_zones (plz TEXT, zone_id INTEGER, area_share REAL, confidence REAL);
CREATE TABLE documents (document_id TEXT PRIMARY KEY, supplier_id INTEGER, title TEXT,
                        url TEXT, edition_date TEXT, retrieved_date TEXT);
CREATE TABLE parameters (code TEXT PRIMARY KEY, name_de TEXT, name_en TEXT, unit TEXT,
                         "group" TEXT);
CREATE TABLE limits (code TEXT, value REAL, unit TEXT, valid_from TEXT, valid_until TEXT);
CREATE TABLE measurements (zone_id INTEGER, parameter TEXT, sampled_at TEXT, value_text TEXT,
                           unit TEXT, value REAL, qualifier TEXT, reporting_limit REAL,
                           value_std REAL, document_id TEXT, sample_point TEXT);
"""
INDEXES = """
CREATE INDEX plz_zones_plz ON plz_zones (plz);
CREATE INDEX plz_zones_zone ON plz_zones (zone_id);
CREATE INDEX measurements_zone ON measurements (zone_id, parameter, sampled_at);
CREATE INDEX limits_code ON limits (code, valid_from);
"""
ATTRIBUTION = "© OpenStreetMap contributors (ODbL)"


def load_database(data_dir: Path, db: Path) -> None:
    """Read the source tables and write them into a new SQLite database with indexes."""
    import polars as pl

    from generator import derive, load

    data = derive.with_values(load.load(data_dir))
    tmp = db.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp)
    conn.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
    tables: dict[str, pl.DataFrame] = {
        "suppliers": data.suppliers.select("supplier_id", "name", "city", "website"),
        "zones": data.zones.select("zone_id", "supplier_id", "name", "water_source", "population"),
        "plz_zones": data.plz_zones.select("plz", "zone_id", "area_share", "confidence"),
        "documents": data.documents.select(
            "document_id", "supplier_id", "title", "url", "edition_date", "retrieved_date"
        ),
        "parameters": data.parameters.select("code", "name_de", "name_en", "unit", "group"),
        "limits": data.limits.select("code", "value", "unit", "valid_from", "valid_until"),
        "measurements": data.measurements.select(
            "zone_id",
            "parameter",
            "sampled_at",
            "value_text",
            "unit",
            "value",
            "qualifier",
            "reporting_limit",
            # The value in the register's unit: the loader calls it `normalized_value`.
            pl.col("normalized_value").alias("value_std"),
            "document_id",
            "sample_point",
        ),  # fmt: skip
    }
    for name, frame in tables.items():
        frame = frame.with_columns(pl.col(pl.Date).dt.to_string("%Y-%m-%d"))
        marks = ",".join("?" * frame.width)
        for part in frame.iter_slices(200_000):
            conn.executemany(f"INSERT INTO {name} VALUES ({marks})", part.iter_rows())
    conn.executescript(INDEXES + "ANALYZE;")
    conn.commit()
    conn.close()
    tmp.replace(db)


# ---------------------------------------------------------------------------- the app


def create_app(db: Path, state_dir: Path, as_of: dt.date) -> Any:
    from generator.gate import keys as key_tools
    from generator.gate.sqlite_state import open_state

    app = FastAPI()
    conn = sqlite3.connect(db, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    state = open_state(state_dir)
    settings = state.settings
    today = as_of.isoformat()

    def check_key(key: str | None, response: Response) -> None:
        """Check the key and upsert the quota as the gate does (gate.keys, SqliteState.consume)."""
        if not key:
            raise HTTPException(401, "Missing API key")
        api_key = key_tools.authenticate(state, key.strip(), settings.max_key_length)
        if api_key is None or not api_key.active:
            raise HTTPException(403, "Invalid API key.")
        usage = state.consume(api_key.id)
        response.headers["x-ratelimit-limit"] = str(usage.limit)
        response.headers["x-ratelimit-remaining"] = str(usage.remaining)
        response.headers["x-ratelimit-reset"] = str(int(usage.reset_at.timestamp()))
        if not usage.allowed:
            raise HTTPException(429, "Daily quota used up")

    @app.get("/v1/lookup")
    async def lookup(
        response: Response,
        plz: str = Query(min_length=5, max_length=5, pattern=r"^\d{5}$"),
        x_api_key: str | None = Header(None),
    ) -> dict[str, Any]:
        check_key(x_api_key, response)
        rows = conn.execute(
            "SELECT pz.zone_id, z.name AS zone_name, z.supplier_id, s.name AS supplier_name,"
            " pz.area_share, pz.confidence FROM plz_zones pz"
            " JOIN zones z ON z.zone_id = pz.zone_id"
            " JOIN suppliers s ON s.supplier_id = z.supplier_id"
            " WHERE pz.plz = ? ORDER BY pz.area_share DESC, pz.zone_id",
            (plz,),
        ).fetchall()
        if not rows:
            raise HTTPException(404, f"No supply zone is known for PLZ {plz}")
        zones = [
            {
                **dict(r),
                "zone_url": f"/v1/zones/{r['zone_id']}",
                "supplier_url": f"/v1/suppliers/{r['supplier_id']}",
            }
            for r in rows
        ]
        material = sum(1 for z in zones if z["area_share"] >= 0.1)
        return {
            "plz": plz,
            "zones": zones,
            "ambiguous": material > 1,
            "attribution": ATTRIBUTION,
        }

    def documents(ids: set[str]) -> list[dict[str, Any]]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        found = conn.execute(
            "SELECT document_id, title, url, edition_date, retrieved_date FROM documents"
            f" WHERE document_id IN ({marks}) ORDER BY document_id",
            sorted(ids),
        ).fetchall()
        return [dict(r) for r in found]

    @app.get("/v1/zones/{zone_id}")
    async def zone(
        zone_id: int, response: Response, x_api_key: str | None = Header(None)
    ) -> dict[str, Any]:
        check_key(x_api_key, response)
        found = conn.execute(
            "SELECT z.*, s.name AS supplier_name FROM zones z"
            " JOIN suppliers s ON s.supplier_id = z.supplier_id WHERE z.zone_id = ?",
            (zone_id,),
        ).fetchone()
        if found is None:
            raise HTTPException(404, f"No zone with id {zone_id}")
        plz = [r[0] for r in conn.execute(
            "SELECT plz FROM plz_zones WHERE zone_id = ? ORDER BY plz", (zone_id,)
        )]  # fmt: skip
        # The latest sample per parameter up to the reference date, with its limit.
        latest = conn.execute(
            'SELECT m.*, p.name_de, p.name_en, p."group", p.unit AS register_unit,'
            " (SELECT l.value FROM limits l WHERE l.code = m.parameter AND l.valid_from <= ?"
            "  AND (l.valid_until IS NULL OR l.valid_until > ?)"
            "  ORDER BY l.valid_from DESC LIMIT 1) AS limit_value"
            " FROM measurements m JOIN parameters p ON p.code = m.parameter"
            " WHERE m.zone_id = ? AND m.sampled_at = (SELECT MAX(sampled_at) FROM measurements"
            "  WHERE zone_id = m.zone_id AND parameter = m.parameter AND sampled_at <= ?)"
            " ORDER BY m.parameter, m.sample_point",
            (today, today, zone_id, today),
        ).fetchall()
        current = []
        seen: set[str] = set()
        for r in latest:
            if r["parameter"] in seen:
                continue
            seen.add(r["parameter"])
            value, limit = r["value_std"], r["limit_value"]
            if limit is None:
                verdict = "no_limit"
            elif r["qualifier"] in ("below_reporting_limit", "not_detected"):
                verdict = "below_reporting_limit"
            elif value is None:
                verdict = "not_assessable"
            else:
                verdict = "exceeds_limit" if value > limit else "below_limit"
            current.append({**dict(r), "state": verdict})
        return {
            **dict(found),
            "plz": plz,
            "current_values": current,
            "documents": documents({r["document_id"] for r in current}),
            "as_of": today,
        }

    @app.get("/v1/zones/{zone_id}/measurements")
    async def measurements(
        zone_id: int,
        response: Response,
        parameter: str | None = None,
        x_api_key: str | None = Header(None),
    ) -> dict[str, Any]:
        check_key(x_api_key, response)
        if conn.execute("SELECT 1 FROM zones WHERE zone_id = ?", (zone_id,)).fetchone() is None:
            raise HTTPException(404, f"No zone with id {zone_id}")
        query = "SELECT * FROM measurements WHERE zone_id = ?"
        args: list[Any] = [zone_id]
        if parameter is not None:
            query += " AND parameter = ?"
            args.append(parameter)
        rows = [
            dict(r)
            for r in conn.execute(query + " ORDER BY parameter, sampled_at, sample_point", args)
        ]
        return {
            "zone_id": zone_id,
            "parameter": parameter,
            "count": len(rows),
            "measurements": rows,
            "documents": documents({r["document_id"] for r in rows}),
        }

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    load_cmd = sub.add_parser("load")
    load_cmd.add_argument("--data", type=Path, required=True)
    load_cmd.add_argument("--db", type=Path, required=True)
    serve_cmd = sub.add_parser("serve")
    serve_cmd.add_argument("--db", type=Path, required=True)
    serve_cmd.add_argument("--state", type=Path, required=True)
    serve_cmd.add_argument("--port", type=int, required=True)
    serve_cmd.add_argument("--as-of", default="2026-11-23")
    args = parser.parse_args()
    if args.command == "load":
        load_database(args.data, args.db)
        return
    import uvicorn

    from generator.gate.server import event_loop

    app = create_app(args.db, args.state, dt.date.fromisoformat(args.as_of))
    # The same server stack as `trinkwasser serve`: one process, uvloop, httptools.
    uvicorn.run(
        app, host="127.0.0.1", port=args.port, loop=event_loop(), http="httptools",
        log_level="warning", access_log=False,
    )  # fmt: skip


if __name__ == "__main__":
    main()
