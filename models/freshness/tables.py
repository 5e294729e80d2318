"""Which table moves which version: the one map of tables to scopes (`Scope` names them). The
triggers of migrations 0008, 0022, 0024 and 0033 are held to it by
tests/migrations/test_data_version.py; what cached views and memos read is held to it by
tests/api/cache/test_reads_covered.py (`covered_by`)."""

from __future__ import annotations

from models.freshness.scopes import Scope

# Tables whose changes are not league data: the version itself, Alembic's bookkeeping, the
# stored answers of idempotent requests (they replay an answer, they are never read as data), and
# the web console's sign-ins.
UNVERSIONED_TABLES = frozenset(
    {"data_version", "scope_versions", "alembic_version", "idempotent_requests", "console_sessions"}
)
# A night's live state (R22): every answer of a night is keyed by the night's own `sequence`,
# moved on by each of its actions, and by its venue's `night:V` scope (migration 0037, which the
# refresher follows), so a bust-out at one venue moves no data version or other scope and
# retires no other answer (migration 0028). The report a night becomes moves what a report moves.
NIGHT_TABLES = frozenset({"nights", "night_entries", "night_actions"})
# Telling others (R23): the outbox, subscriptions, deliveries, consents and messages are written
# with a change, or by the delivery worker: they move no data version (migrations 0030, 0031), so
# a delivery's bookkeeping neither retires every answer nor waits on the league's writers.
OUTBOX_TABLES = frozenset(
    {
        "outbox_events",
        "webhooks",
        "webhook_deliveries",
        "email_consents",
        "email_messages",
        "email_subscription_requests",
        "email_confirmations",
    }
)
# Those that cached answers read (the office's subscriptions and their delivery log, a player's
# consent) move the `outbox` scope instead (migration 0033), whoever writes them, the delivery
# worker included: at the commit, after every other lock the transaction took, so a worker and a
# league writer wait on each other for a commit at most, and in no order that could deadlock.
# The weekly email's messages, the requests for it and their confirmation links
# are read by no cached answer (tests/api/cache/test_reads_covered.py fails when one does).
UNREAD_OUTBOX_TABLES = frozenset({"email_messages", "email_subscription_requests", "email_confirmations"})
OUTBOX_SCOPE_TABLES = OUTBOX_TABLES - UNREAD_OUTBOX_TABLES

# Which tables bump which scope (`Scope` names them; the triggers of migrations 0022, 0024 and 0033
# are held to this map by tests/migrations/test_data_version.py). A table that a scoped answer reads
# is in one of the first two; a table added later must be placed here (and given its triggers)
# or that test fails.
SCOPED_TABLES = frozenset({"tournaments", "results", "standing_lines"})  # season:S and venue:S:V
LEAGUE_SCOPE_TABLES = frozenset(
    {
        "seasons",
        "season_regions",
        "points_charts",
        "points_chart_bands",
        "venues",
        "regions",
        "league_settings",
        "sanctions",
        "disqualifications",
        "qualifier_publications",
        "player_merges",
        "distinct_players",
        "erasures",
        "players",  # an UPDATE or DELETE only: a new player shows only through results
    }
)
# A report's own scope (`report:T`, migration 0024): its row and its results.
REPORT_SCOPE_TABLES = frozenset({"tournaments", "results"})
# Each kind of scope (a scope's name up to its first ':') and the tables whose every change moves
# it: what a view's declaration covers (tests/api/cache/test_reads_covered.py holds the views'
# reads to it).
SCOPE_TABLES: dict[str, frozenset[str]] = {
    "league": LEAGUE_SCOPE_TABLES,
    "season": SCOPED_TABLES,
    "venue": SCOPED_TABLES,
    "report": REPORT_SCOPE_TABLES,
    "outbox": OUTBOX_SCOPE_TABLES,
    "night": NIGHT_TABLES,  # night:V, a venue's nights (migration 0037)
}
# Read by no scoped answer: their changes move no scope (the league's data version still moves).
SCOPE_FREE_TABLES = frozenset(
    {
        "audit_log",
        "api_keys",
        "api_key_venues",
        "player_keys",
        "player_ratings",
        "rating_points",
        "venue_nights",
        "schedule_exceptions",
        "night_stamps",
        "erased_values",
        "structures",
    }
)


def covered_by(scope: str) -> frozenset[str]:
    """The tables whose every change moves this scope (`league`, `season:S`, `outbox`, …)."""
    kind = Scope.kind(scope)
    if kind not in SCOPE_TABLES:
        raise ValueError(f"a scope no table moves: {scope}")
    return SCOPE_TABLES[kind]
