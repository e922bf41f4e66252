"""The service contract: routes, settings and messages that the build, OpenAPI and both gates read.

Nothing here imports the build, the site or a gate; they all import this package.
"""
