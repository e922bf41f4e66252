"""Trinkwasserdaten: a static open-data site generator for drinking-water data in Germany."""

__version__ = "1.0.0b1"
"""The one version of the package, its API (OpenAPI `info.version`), the site and the catalogue.

hatchling reads it from here (pyproject.toml), so `pip`, `trinkwasser --version` and the built
tree never disagree. A PEP 440 spelling: the wheel's metadata would normalise any other.
"""
