"""The service contract: routes, settings and messages that the build, OpenAPI and both gates read.

`routes` and `settings` are the gates' part; `fields` and `resources` declare the documents
the build writes (`resources` takes the qualifier vocabulary from the value parser). Nothing
here imports the build stages, the site or a gate; they all import this package.
"""
