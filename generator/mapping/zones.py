"""Zones as one area each: from polygons, or assembled from administrative areas."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
import shapely

from generator.mapping import read
from generator.mapping.areas import dissolve, repair
from generator.mapping.provenance import Record, describe
from generator.mapping.read import MappingInputError
from generator.mapping.report import Report

if TYPE_CHECKING:
    from pathlib import Path

    from generator.mapping.options import MappingOptions


@dataclass
class Zones:
    """One area per zone, sorted by id, with where its boundary comes from."""

    ids: np.ndarray
    geometry: np.ndarray
    source: np.ndarray
    override: np.ndarray


def check_areas(geometry: np.ndarray, labels: list[str], path: Path | str) -> None:
    empty = np.flatnonzero(shapely.area(geometry) <= 0)
    if len(empty):
        raise MappingInputError([f"{path}: {labels[i]} encloses no area" for i in empty])


def read_layers(
    options: MappingOptions,
) -> tuple[read.Layer, read.Layer | None, read.Layer | None]:
    """Read the PLZ, zone and administrative area files side by side.

    GDAL and PROJ release the GIL.
    """
    with ThreadPoolExecutor(3) as pool:
        land = [options.plz_land_field] if options.plz_land_field else []
        plz = pool.submit(
            read.read_layer, options.plz_areas, [options.plz_field], land, options.threads
        )
        zones: Future[read.Layer] | None = None
        admin: Future[read.Layer] | None = None
        if options.zone_areas is not None:
            zones = pool.submit(
                read.read_layer,
                options.zone_areas,
                [options.zone_field],
                ["boundary_source", "confidence"],
                options.threads,
            )
        if options.admin_areas is not None:
            admin = pool.submit(
                read.read_layer, options.admin_areas, [options.admin_field], (), options.threads
            )
        return (
            plz.result(),
            None if zones is None else zones.result(),
            None if admin is None else admin.result(),
        )


def read_zones(
    options: MappingOptions, layer: read.Layer | None, admin: read.Layer | None, report: Report
) -> tuple[Zones, dict[str, Record]]:
    """Check zone polygons and zones assembled from administrative areas; one area per zone."""
    ids: list[np.ndarray] = []
    geoms: list[np.ndarray] = []
    sources: list[np.ndarray] = []
    overrides: list[np.ndarray] = []
    inputs: dict[str, Record] = {}
    files: list[str] = []
    if layer is not None:
        where = [f"{layer.path}: feature #{i + 1}" for i in range(layer.count)]
        zid = read.layer_zone_ids(layer, options.zone_field)
        source = read.boundary_sources(
            layer.properties.get("boundary_source"), where, options.zone_source
        )
        override = read.confidences(layer.properties.get("confidence"), where)
        attrs = _one_per_zone(zid, source, override, where)
        uid, geom = dissolve(zid, repair(layer.geometry, zid, "repaired_zone", report))
        ids.append(uid)
        geoms.append(geom)
        sources.append(attrs["source"])
        overrides.append(attrs["override"])
        inputs["zone_areas"] = describe(layer.path, features=layer.count, crs=layer.crs)
        files.append(str(layer.path))
    if options.zone_admin is not None:
        if admin is None:  # the options are checked before anything is read
            raise MappingInputError(["--zone-admin and --admin-areas go together"])
        lists = read.read_zone_admin(options.zone_admin)
        keys = read.text_keys(admin, options.admin_field)
        key_ids, key_geom = dissolve(
            keys, repair(admin.geometry, keys, "repaired_admin_area", report)
        )
        position = {k: i for i, k in enumerate(key_ids.tolist())}
        missing = [
            f"{options.zone_admin}: row {r}: area_key {k!r} is not among the "
            f"{options.admin_field} values of {options.admin_areas}"
            for k, r in zip(lists["area_key"], lists["row"], strict=True)
            if k not in position
        ]
        if missing:
            raise MappingInputError(missing)
        where = [f"{options.zone_admin}: row {r}" for r in lists["row"].to_list()]
        zid = lists["zone_id"].to_numpy()
        attrs = _one_per_zone(
            zid,
            np.full(len(zid), "municipalities", dtype=object),
            lists["confidence"].to_numpy(),
            where,
        )
        members = key_geom[[position[k] for k in lists["area_key"].to_list()]]
        uid, geom = dissolve(zid, members)
        ids.append(uid)
        geoms.append(geom)
        sources.append(attrs["source"])
        overrides.append(attrs["override"])
        inputs["zone_admin"] = describe(options.zone_admin, rows=lists.height)
        inputs["admin_areas"] = describe(admin.path, features=admin.count, crs=admin.crs)
        files.append(str(admin.path))
    all_ids = np.concatenate(ids)
    unique, counts = np.unique(all_ids, return_counts=True)
    twice = unique[counts > 1]
    if len(twice):
        raise MappingInputError(
            [
                f"zone {z} is given both as an area ({options.zone_areas}) and as a list of "
                f"administrative areas ({options.zone_admin}); keep one"
                for z in twice.tolist()
            ]
        )
    order = np.argsort(all_ids, kind="stable")
    zones = Zones(
        all_ids[order],
        np.concatenate(geoms)[order],
        np.concatenate(sources)[order],
        np.concatenate(overrides)[order],
    )
    check_areas(zones.geometry, [f"zone {z}" for z in zones.ids.tolist()], " and ".join(files))
    return zones, inputs


def _one_per_zone(
    zid: np.ndarray, source: np.ndarray, override: np.ndarray, where: list[str]
) -> dict[str, np.ndarray]:
    """Return each zone's boundary source and override; the features of a zone must agree."""
    frame = pl.DataFrame(
        {
            "zone_id": zid,
            "source": source.astype(str),
            "override": override,
            "i": np.arange(len(zid)),
        }
    )
    per_zone = (
        frame.group_by("zone_id")
        .agg(
            pl.col("source").n_unique().alias("sources"),
            pl.col("override").fill_nan(None).n_unique().alias("overrides"),
            pl.col("source").first(),
            pl.col("override").first(),
            pl.col("i").first(),
        )
        .sort("zone_id")
    )
    bad = per_zone.filter((pl.col("sources") > 1) | (pl.col("overrides") > 1))
    if bad.height:
        raise MappingInputError(
            [
                f"{where[i]}: the features of zone {z} disagree on boundary_source or confidence"
                for z, i in zip(bad["zone_id"], bad["i"], strict=True)
            ]
        )
    return {
        "source": per_zone["source"].to_numpy().astype(object),
        "override": per_zone["override"].to_numpy(),
    }
