"""The web console for hosts and the office (GET and POST /console/...): one module per group of
pages, on one blueprint (`base.bp`) and the same services as the API."""

from api.console import (
    audit_log,
    charts,
    demo,
    disqualifications,
    league_settings,
    nights,
    office,
    players,
    qualifiers,
    regions,
    rules,
    sanctions,
    season_reads,
    seasons,
    sign_in,
    structures,
    typed,
    venue_settings,
    venues,
    webhooks,
    weekly_email,
)
from api.console import reports as reports
from api.console.base import bp

__all__ = [
    "audit_log",
    "bp",
    "charts",
    "demo",
    "disqualifications",
    "league_settings",
    "nights",
    "office",
    "players",
    "qualifiers",
    "regions",
    "reports",
    "rules",
    "sanctions",
    "season_reads",
    "seasons",
    "sign_in",
    "structures",
    "typed",
    "venue_settings",
    "venues",
    "webhooks",
    "weekly_email",
]
