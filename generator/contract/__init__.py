"""The source-data contract, declared: tables, columns, types, constraints.

- `tables`: the declarations (the single definition of the contract);
- `model`, `constraints`, `table_rules`, `rules`: what a declaration is made of;
- `check`: the one generic checker that enforces any declaration;
- `read`, `csv_scan`: reading files, and naming the byte, row and column of a broken one;
- `docs`: `docs/data-contract.md`, generated (`python -m generator.contract.docs`).
"""
