"""Freshness: no answer is ever stale, and the scope is its only currency.

1. Database triggers bump, in a write's own transaction, the data version and the version of
   every scope whose tables it changes (`league`, `season:S`, `venue:S:V`, `report:T`,
   `outbox`, `night:V`): scopes.py names them, tables.py maps each table to its scopes.
2. A reader reads the versions first, once per request (versions.py), then its data.
3. Whatever is cached is keyed by the versions of the scopes it read: a GET's answer by its
   view's declaration (api/cache/views.py's `@cached_by`), a value computed for reads by the
   memos (memos.py: `cached_by_scopes` and its kin; never by an object's id).
4. A bump makes new keys: what was cached under the old versions is never served again; each
   bump is numbered (bumps.py), so the refresher computes again what was read under it.
tests/api/cache/test_reads_covered.py holds every cached view's and memo's reads to the tables
its scopes cover; tests/migrations/test_data_version.py holds the triggers to tables.py.
Words: "cached" (stored under versions), "bump" (a write moves a version on), "retire" (what a
bump does to what was cached under the old version)."""
