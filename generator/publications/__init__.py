"""Real supplier publications in: from a published table to rows of the data contract.

Modules, in the order a table passes through them:

- `names`: read a published name (`Nitrat (NO3-) [mg/l] Mittelwert`) into the name and the
  markers around it (unit, reporting limit, statistic, on-site, formula, fraction, basis);
- `aliases`: the alias register (`generator/reference/aliases.csv` plus the register's
  codes and names), checked for keys with two meanings;
- `match`: names and units to codes, conservatively: aliases and rules map, similarity only
  suggests (`trinkwasser parameters match`);
- `documents`: a publication's format (from its content) and its tables, listed and chosen;
  `html` reads a saved web page's tables, `pdf` a PDF report's, `read` a CSV table or an
  Excel sheet, every cell as text;
- `layouts`: the layouts suppliers use (one value column, one column per statistic, per
  sampling point or per date, a reporting-limit column) into one row per value;
- `importer`: contract rows for a zone, document and date, appended to a data directory
  without duplicates (`trinkwasser import`).
"""
