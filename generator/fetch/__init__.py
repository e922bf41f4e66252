"""`trinkwasser fetch`: keep the register of publications (`sources`) current.

Modules, in the order a run uses them:

- `polite`: the HTTP client that fetches like a guest: robots.txt, a pause between requests
  to one host, a User-Agent that names the operator, conditional requests, bounded
  redirects, timeouts, a size cap, retries of 429/5xx that honour Retry-After;
- `archive`: every version read, content-addressed (SHA-256), with a manifest per source;
- `edition`: the edition date a document states ("Stand: 16.07.2021");
- `reimport`: a new version into a `documents` row and its values through the import;
- `links`: which published links no longer answer (`documents.link_gone_since`);
- `run`: one run over the register, and its report (`report`).
"""
