"""Fixtures of the edge tests: the emulator, shared with the conformance suite's "edge" gate."""

from tests.edge.emulator import edge, edge_server  # noqa: F401  (fixtures)
