"""Polars plumbing without domain: compact text columns, slices, batches, threads.

`compact` (the series' text columns held as Enums), `slices` (frames put together from
slices of others), `batches` (runs of whole zones), `parallel` (batches on a pool of
threads, in order) and `zone_values` (every zone's current values, whole or partly left in
the previous build's files).
"""
