"""Caps on what one published document may hold, so no document can cost a machine.

A supplier's analysis fits on a few pages: tens of parameters, a few columns per sample
point or date. A document far beyond that is a mistake or an attack (a 604-byte web page
whose spans make a million cells, 20,000 tables, a PDF of 10,000 pages, a CSV of 200,000
columns), and reading it would take minutes and gigabytes. Each reader checks its cap
before the work grows and refuses the document with a message that names the cap.
"""

from __future__ import annotations

MAX_TABLE_CELLS = 250_000
"""Cells of one table, with every `rowspan` and `colspan` counted (a web page or a PDF)."""
MAX_PAGE_TABLES = 500
"""Tables (`<table>` elements, nested ones included) of one web page."""
MAX_PDF_PAGES = 300
"""Pages of one PDF report."""
MAX_CSV_COLUMNS = 10_000
"""Cells of one CSV line (a table with one column per day of a year has 367)."""
MAX_CSV_CELLS = 2_000_000
"""Cells of one CSV table once every line is filled up to the widest (lines x columns)."""
