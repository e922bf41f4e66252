"""The gate in front of the API tree: validation, keys, quota, access requests, HTTP serving.

`validation` turns the route table into FastAPI-identical 422 bodies, `state` keeps keys,
quota counters and access requests in SQLite, `keys` holds the key workflow, `app` is the
ASGI application and `commands` the click commands `serve` and `keys`.
"""
