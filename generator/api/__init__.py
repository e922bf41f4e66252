"""The service contract: what the build, OpenAPI and both gates read, and nothing else does.

- `routes`: the route table (paths, parameters and their rules, access, backing files).
- `settings`: the gate's settings; fills the templates; writes `routes.json` for the edge.
- `messages`: every message a gate answers with, and the wording and records of 422 errors.
- `http`: content types, CORS and cache headers, file-name and id rules.
- `site_rules`: the site's search without JavaScript and 404 page, which both gates apply.

`routes` and `settings` are the gates' part; `fields` and `resources` declare the documents
the build writes (`resources` takes the qualifier vocabulary from the value parser). Nothing
here imports the build stages, the site or a gate; they all import this package.
"""
