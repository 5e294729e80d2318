"""R23: what each change tells others, written by the services that make the change (in its
transaction): a report posted, corrected or voided, the standings of its venue changed, the
qualifiers published, a night opened or ended, a sanction recorded or lifted (staff only). Each
carries the ids and versions it is about; players by display name only (R19), and sanctions go
to staff subscriptions alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities import Night, Player, Sanction, Season, Venue
from models.entities.tournaments import Result, Tournament
from models.services.webhooks.events import emit
from models.services.webhooks.sweeps import sanction_data

TOP = 3


def _venue_name(session: Session, venue_id: int) -> str:
    """The venue's name (from the session's own copy when the change loaded it: no query)."""
    venue = session.get(Venue, venue_id)
    return venue.name if venue is not None else ""


def report_data(session: Session, tournament: Tournament) -> dict[str, Any]:
    """A report as an event tells it: where, when, how many, its version, and the top three."""
    top = session.execute(
        select(Result.place, Result.player_id, Player.display_name, Result.points)
        .join(Player, Player.id == Result.player_id)
        .where(Result.tournament_id == tournament.id, Result.place <= TOP)
        .order_by(Result.place)
    )
    return {
        "tournament_id": tournament.id,
        "version": tournament.version,
        "venue_id": tournament.venue_id,
        "venue_name": _venue_name(session, tournament.venue_id),
        "season_id": tournament.season_id,
        "date": tournament.date.isoformat(),
        "session": tournament.session,
        "kind": tournament.kind,
        "entrants": tournament.entrants,
        "voided": tournament.voided,
        "top": [
            {"place": place, "player_id": pid, "display_name": name, "points": points}
            for place, pid, name, points in top
        ],
    }


def report_told(session: Session, kind: str, tournament: Tournament) -> None:
    """report.posted, report.corrected or report.voided, and the standings of its venue changed
    (a regular report's)."""
    emit(session, kind, report_data(session, tournament), tournament.venue_id)


def standings_told(session: Session, places: Iterable[tuple[int, int]]) -> None:
    """standings.changed for each (season, venue) whose standings a write moved."""
    for season_id, venue_id in sorted(set(places)):
        data = {"season_id": season_id, "venue_id": venue_id, "venue_name": _venue_name(session, venue_id)}
        emit(session, "standings.changed", data, venue_id)


def qualifiers_told(session: Session, season: Season, publication_id: int) -> None:
    emit(
        session,
        "qualifiers.published",
        {"season_id": season.id, "season_name": season.name, "publication_id": publication_id},
    )


def night_told(session: Session, kind: str, night: Night) -> None:
    """night.opened or night.ended (with the report it became, once posted)."""
    data = {
        "night_id": night.id,
        "venue_id": night.venue_id,
        "venue_name": _venue_name(session, night.venue_id),
        "date": night.date.isoformat(),
        "session": night.session,
        "state": night.state,
        "tournament_id": night.tournament_id,
    }
    emit(session, kind, data, night.venue_id)


def sanction_told(session: Session, kind: str, sanction: Sanction) -> None:
    """sanction.recorded or sanction.lifted: staff subscriptions only."""
    name = session.scalar(select(Player.display_name).where(Player.id == sanction.player_id)) or ""
    emit(session, kind, sanction_data(sanction, name), sanction.venue_id)
