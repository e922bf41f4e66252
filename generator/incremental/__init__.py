"""What a build keeps for the next, and how the next build decides what it may reuse.

Imported only by the driver (`generator.build`) and the CLI (a test checks it): `plan`
(which zones, PLZ and suppliers to render again), `reuse` (the derived rows of unchanged
zones), `source_prints` and `hashes` (fingerprints of each zone's own data), `code_digest`
(what every file depends on besides the data) and `allocator` (polars' memory policy,
chosen per command). Where each kept file lives is declared in `generator.output.state`.
"""
