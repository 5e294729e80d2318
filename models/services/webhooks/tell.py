"""R23: what each change tells others, written by the services that make the change (in its
transaction): a report posted, corrected (with what it was) or voided, the standings of its venue
changed (beside the report that moved them), the qualifiers published, a night opened or ended,
a sanction recorded or lifted (staff only). Each carries the ids and versions it is about;
players by display name only (R19), and sanctions go to staff subscriptions alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from models.entities import Night, OutboxEvent, Player, Sanction, Season, Venue
from models.entities.reports import Report, Result
from models.rules.schedules import scheduled_games
from models.rules.webhooks import TOP
from models.services.venues.schedule_queries import schedules_by_venue
from models.services.webhooks.events import emit
from models.services.webhooks.sweeps import sanction_data

# What a correction's event keeps of the report as it was (`previous`), to say what changed.
PREVIOUS = ("venue_id", "venue_name", "date", "session", "kind", "entrants", "top", "knockouts")


def _venue_name(session: Session, venue_id: int) -> str:
    """The venue's name (from the session's own copy when the change loaded it: no query)."""
    venue = session.get(Venue, venue_id)
    return venue.name if venue is not None else ""


def sessions_that_day(session: Session, report: Report) -> int:
    """How many sessions the report's venue holds on its date, as far as is known now: the
    sessions its schedule gives that date, or the live reports there (the highest session
    number among them), whichever is more."""
    number, count = session.execute(
        select(func.max(Report.session), func.count()).where(
            Report.venue_id == report.venue_id, Report.date == report.date, Report.live
        )
    ).one()
    nights, excepted = schedules_by_venue(session, [report.venue_id], report.date, report.date)
    night = scheduled_games(nights[report.venue_id], excepted[report.venue_id], report.date, report.date)
    scheduled = sum(n.sessions for n in night if not n.cancelled)
    return max(number or 0, count or 0, scheduled, report.session)


def knockouts_of(session: Session, report: Report) -> list[dict[str, Any]]:
    """R8a: who knocked out whom in the report, by place (the first out first), players by display
    name (R19)."""
    knocker, knocker_result = aliased(Player), aliased(Result)
    rows = session.execute(
        select(
            Result.place,
            Result.player_id,
            Player.display_name,
            knocker_result.place,
            knocker.id,
            knocker.display_name,
        )
        .join(Player, Player.id == Result.player_id)
        .join(knocker, knocker.id == Result.knocked_out_by_id)
        .outerjoin(
            knocker_result,
            (knocker_result.tournament_id == Result.tournament_id) & (knocker_result.player_id == knocker.id),
        )
        .where(Result.tournament_id == report.id)
        .order_by(Result.place.desc())
    )
    return [
        {
            "place": place,
            "player_id": pid,
            "display_name": name,
            "by_place": by_place,
            "by_player_id": by_id,
            "by_display_name": by_name,
        }
        for place, pid, name, by_place, by_id, by_name in rows
    ]


def report_data(session: Session, report: Report) -> dict[str, Any]:
    """A report as an event tells it: where, when (and how many sessions its venue held that
    date), how many, its version, the top three and who knocked out whom (R8a)."""
    top = session.execute(
        select(Result.place, Result.player_id, Player.display_name, Result.points)
        .join(Player, Player.id == Result.player_id)
        .where(Result.tournament_id == report.id, Result.place <= TOP)
        .order_by(Result.place)
    )
    return {
        "tournament_id": report.id,
        "version": report.version,
        "venue_id": report.venue_id,
        "venue_name": _venue_name(session, report.venue_id),
        "season_id": report.season_id,
        "date": report.date.isoformat(),
        "session": report.session,
        "sessions": sessions_that_day(session, report),
        "kind": report.kind,
        "entrants": report.entrants,
        "voided": report.voided,
        "top": [
            {"place": place, "player_id": pid, "display_name": name, "points": points}
            for place, pid, name, points in top
        ],
        "knockouts": knockouts_of(session, report),
    }


def previous_of(session: Session, report: Report) -> dict[str, Any]:
    """What a correction's event says the report was (read before the correction replaces it)."""
    data = report_data(session, report)
    return {name: data[name] for name in PREVIOUS}


def report_told(
    session: Session, kind: str, report: Report, previous: dict[str, Any] | None = None
) -> OutboxEvent | None:
    """report.posted, report.corrected (with the report as it was, `previous`) or report.voided."""
    data = report_data(session, report)
    if previous is not None:
        data["previous"] = previous
    return emit(session, kind, data, report.venue_id)


def standings_told(
    session: Session, places: Iterable[tuple[int, int]], beside: OutboxEvent | None = None
) -> None:
    """standings.changed for each (season, venue) whose standings a write moved; `beside`: the
    event of the change that moved them (a report's), which a chat channel hearing both is told
    alone (R23: one message a change)."""
    for season_id, venue_id in sorted(set(places)):
        data = {"season_id": season_id, "venue_id": venue_id, "venue_name": _venue_name(session, venue_id)}
        emit(session, "standings.changed", data, venue_id, beside=beside)


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
