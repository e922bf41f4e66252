"""The Python gate in front of the built tree: validation, keys, quota, access requests, HTTP.

It applies the service contract of `generator.api` (routes, settings, messages, HTTP
manners), as the edge gate in `netlify/` does. Modules, one job each:

- `app`: the ASGI application; dispatches to `api` (the routes of the table: validation,
  key, quota, resource) or `static` (the site and open files), both answering files through
  `files` (confinement, ETag, streaming) with the headers of `responses`.
- `validation`: FastAPI-identical 422 bodies from the route table.
- `model`: records, states, quota days and store protocols, shared by the backends
  `sqlite_state` (local) and `netlify_blobs` (the production gate's stores, operator side).
- `keys`: making and checking keys, the operator's workflow; `commands`: `serve`, `keys`.
"""
