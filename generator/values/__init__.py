"""One published value: how it is read, converted and written in German.

`parse` (verbatim values such as `< 0,001` or `n.n.`), `units` (unit spellings and
conversion), `published` (the numbers a value states, read once per distinct spelling),
`german` (numbers with a decimal comma) and `wording` (how a value reads in German).
"""
