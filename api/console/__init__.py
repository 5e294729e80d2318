"""The web console for hosts and the office (GET and POST /console/...): one module per group of
pages, on one blueprint (`base.bp`) and the same services as the API."""

from api.console import (
    audit_log,
    charts,
    league_settings,
    office,
    players,
    qualifiers,
    regions,
    sanctions,
    sign_in,
    typed,
)
from api.console import tournaments as reports
from api.console.base import bp

__all__ = [
    "audit_log",
    "bp",
    "charts",
    "league_settings",
    "office",
    "players",
    "qualifiers",
    "regions",
    "reports",
    "sanctions",
    "sign_in",
    "typed",
]
