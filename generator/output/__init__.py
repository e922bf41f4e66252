"""The only code that writes: the tree writer, atomic files, encodings, CSV cells.

`tree` (the staged tree, its manifest and the swap), `atomic` (files outside the tree,
written whole or not at all), `state` (every file a build keeps beside its tree, declared
once), `sections` (groups of files kept whole), `encode` (deterministic JSON) and
`csv_cells` (CSV without formulas).
"""
