"""What the drinking-water ordinance (TrinkwV 2023) says about published values.

The rules of the derive stage, each module checkable against the ordinance's text:
`evidence` (what each published value proves, and a sample point's state from all its
values), `classify` (values against the value in force and the next one), `sums` (the
ordinance's sums computed from their members, and the nitrate rule; their German notes in
`sum_notes`), `current` (the value that stands for a zone and parameter: the worst sample
point), `summary` (a zone's checks and its verdict) and `staleness` (when a publication is
too old to stand for today).
"""
