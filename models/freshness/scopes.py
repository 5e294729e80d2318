"""The scopes: the parts of the league's data whose versions key what is cached (`Scope` names
them; the triggers of migrations 0022, 0024, 0033 and 0037 write the same names, held to these by
tests/migrations/test_data_version.py), and the scopes a venue's or a season's answers read."""

from __future__ import annotations


class Scope:
    """The name of every scope."""

    LEAGUE = "league"  # venues, seasons, charts, settings, sanctions, publications, merges, …
    # R23: the office's webhook subscriptions, their deliveries and the events they send, and
    # players' consents to the weekly email; moved by the delivery worker's writes too (0033).
    OUTBOX = "outbox"

    @staticmethod
    def season(season_id: int) -> str:
        """Everything of a season's reports and results."""
        return f"season:{season_id}"

    @staticmethod
    def venue(season_id: int, venue_id: int) -> str:
        """A venue's reports and results in a season (each venue is its own league: R1)."""
        return f"venue:{season_id}:{venue_id}"

    @staticmethod
    def report(report_id: int) -> str:
        """One report and its results."""
        return f"report:{report_id}"

    @staticmethod
    def night(venue_id: int) -> str:
        """A venue's live nights (R22), moved by every change to them (migration 0037)."""
        return f"night:{venue_id}"

    @staticmethod
    def venues_of(season_id: int) -> tuple[str, str]:
        """Bounds strictly between which lie the names of a season's venue scopes (';' follows ':')."""
        prefix = Scope.venue(season_id, 0)[:-1]
        return prefix, prefix[:-1] + ";"

    @staticmethod
    def venue_id(name: str, season_id: int) -> int:
        """The venue of one of `venues_of(season_id)`'s scope names."""
        return int(name[len(Scope.venues_of(season_id)[0]) :])

    @staticmethod
    def kind(name: str) -> str:
        """A scope's kind: its name up to its first ':' (`league`, `season`, `venue`, …)."""
        return name.split(":", 1)[0]


def season_scopes(season_id: int) -> tuple[str, str]:
    """What a season's qualifier lists read: everything of the season, and the league's rest."""
    return (Scope.LEAGUE, Scope.season(season_id))


def venue_scopes(season_id: int, venue_id: int) -> tuple[str, str]:
    """What a venue's standings in a season read: that venue's reports of the season, and the
    league's rest."""
    return (Scope.LEAGUE, Scope.venue(season_id, venue_id))
