"""The human-readable site: German pages rendered at build time from the derived frames.

`pages.site_files` yields (path, bytes) like the JSON renderer, so the one writer streams both;
`pages.begin` starts the pieces that summarise every zone while the caller renders the API.
URLs of pages are defined once, in `generator.site.urls`.

The package imports nothing itself: `generator.site.assets` (where the templates and static
files are) stays free of polars, for the code digest the build command makes before it
imports polars (`generator.incremental.allocator`).
"""
