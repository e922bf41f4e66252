"""Trinkwasserdaten: a static open-data site generator for drinking-water data in Germany."""

__version__ = "0.1.0"
API_VERSION = "1.0.0-beta"
