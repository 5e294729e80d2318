"""What a write of a result report stores beside the report (R6-R8, R1, R9-R11, R18): its results
scored and inserted (new players registered), the standing lines they count in refreshed, and what
the audit log and the answer say of it (its snapshot; its notices by place; the live reports of the
same venue and day with the very same results). The writes themselves (submit, correct, void: each
checked, claimed once, audited) are writes.py's."""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import Select, and_, bindparam, func, insert, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from models.actor import Actor
from models.entities.base import table_of
from models.entities.league import Season
from models.entities.players import Player
from models.entities.reports import Report, Result, live_in
from models.rules.notices import Notice, matches_report, placed
from models.rules.reports import ReportKind, score_report
from models.services import wall_clock
from models.services.audit_log.writes import plain
from models.services.players.writes import register_players
from models.services.reports.checks import CheckedReport
from models.services.reports.knockouts import settle_bounties
from models.services.reports.scoring import chart_rule
from models.services.standings.lines import refresh_places


def report_snapshot(report: Report) -> dict[str, Any]:
    return {
        "id": report.id,
        "venue_id": report.venue_id,
        "season_id": report.season_id,
        "date": plain(report.date),
        "session": report.session,
        "kind": report.kind,
        "entrants": report.entrants,
        "version": report.version,
        "voided": report.voided,
        "void_reason": report.void_reason,
        "results": [
            {
                "place": r.place,
                "player_id": r.player_id,
                "status": r.status,
                "placement_points": r.placement_points,
                "participation_points": r.participation_points,
                "knocked_out_by": r.knocked_out_by_id,
                "knockouts": r.knockouts,
                "knockout_points": r.knockout_points,
                "points": r.points,
            }
            for r in report.results
        ],
    }


class Written(NamedTuple):
    """A report as a write stored it: the report, its notices, and the players it registered
    (by id, with the row that named each: `results.3`), which a dry run answers as new players
    with no id (nothing is stored)."""

    report: Report
    notices: list[Notice]
    registered: dict[int, str]


def placed_notices(checked: CheckedReport) -> list[Notice]:
    """The report's notices naming its rows by place, as a host reads them ("place 7: …")."""
    places = [row["place"] for row in checked.rows]
    return [placed(notice, places) for notice in checked.notices]


def scored_results(
    session: Session, actor: Actor, checked: CheckedReport, registered: dict[int, str]
) -> list[tuple[dict[str, Any], Player]]:
    """R6-R8: each row's result (points included) and its player; new players are registered
    here, once the report passed (each into `registered`, with the row that named it)."""
    season = checked.season
    # R8a: a bounty depends on the venue's other nights: settled after the write (settle_bounties).
    earned = score_report(
        chart_rule(season.points_chart),
        [(row["place"], row["status"]) for row in checked.rows],
        season.participation_points,
        season.absent_keeps_place_points,
        checked.knocked_by,
        season.knockout_rule,
    )
    # Each new player's row, as a host's warning names it: by its place (R5).
    news = [
        (entrant.new, f"place {row['place']}")
        for row, entrant in zip(checked.rows, checked.entrants, strict=True)
        if entrant.new
    ]
    # R2a: a new player's date of birth was checked on the venue's today; so it is again here.
    made = register_players(session, actor, news, wall_clock.at_venue(session, checked.venue))
    registered.update((player.id, path) for (player, _), (_, path) in zip(made, news, strict=True))
    new_players = iter(made)
    results = []
    for row, entrant, points in zip(checked.rows, checked.entrants, earned, strict=True):
        player = entrant.player
        if player is None:
            player, notices = next(new_players)
            checked.notices.extend(notices)
        result = {
            "player_id": player.id,
            "place": row["place"],
            "status": row["status"],
            "placement_points": points.placement_points,
            "participation_points": points.participation_points,
            "knockout_points": points.knockout_points,
            "knockouts": points.knockouts,
            "points": points.points,
        }
        results.append((result, player))
    for (result, _), knocker in zip(results, checked.knocked_by, strict=True):
        result["knocked_out_by_id"] = None if knocker is None else results[knocker][0]["player_id"]
    return results


def store_results(session: Session, report: Report, scored: list[tuple[dict[str, Any], Player]]) -> None:
    """A report's results in one statement that returns them stored (the unit of work would send
    one INSERT per result to learn each id), ordered by place, each with the player it already
    has. RETURNING's rows come in any order: that costs nothing, places order them."""
    stored = session.scalars(
        insert(Result).returning(Result), [{**result, "tournament_id": report.id} for result, _ in scored]
    ).all()
    players = {player.id: player for _, player in scored}
    for result in stored:
        set_committed_value(result, "player", players[result.player_id])
    set_committed_value(report, "results", sorted(stored, key=lambda result: result.place))


# Where a report counts in standings: (kind, season id, venue id).
Counted = tuple[str, int, int]


def counted(report: Report) -> Counted:
    return (report.kind, report.season_id, report.venue_id)


def standing_places(reports: list[Report | Counted]) -> set[tuple[int, int]]:
    """The (season, venue) standings these reports count in (as they are, or were before a
    correction): only regular reports count."""
    places = set()
    for report in reports:
        kind, season_id, venue_id = report if isinstance(report, tuple) else counted(report)
        if kind == ReportKind.REGULAR:
            places.add((season_id, venue_id))
    return places


def settle_bounties_at(session: Session, reports: list[Report | Counted]) -> None:
    """R8a: where these reports count (as they are, or were), in a season with a bounty, the
    venue's bounties settled again night after night, and the lines of whoever moved refreshed."""
    for season_id, venue_id in sorted(standing_places(reports)):
        season = session.get(Season, season_id)
        if season is None or not season.knockout_rule.has_bounty:
            continue
        moved = settle_bounties(session, season, venue_id)
        if moved:
            refresh_places(session, {(season_id, venue_id)}, moved)


def refresh_standings(session: Session, reports: list[Report | Counted], players: set[int]) -> None:
    """The stored standing lines of these players where these reports count (as they are, or
    were before a correction), recomputed (R1, R9-R11): only regular reports count."""
    refresh_places(session, standing_places(reports), players)


def _twins_query() -> Select[int, int]:
    """Live reports of a venue and day, but one, with as many entrants as it and whose every
    result (player, place, status) is one of its. Built once, on the tables (no ORM entities to
    resolve): building and running it through the ORM cost more than the database takes."""
    reports, results = table_of(Report), table_of(Result)
    other, mine = results.alias("other"), results.alias("mine")
    return (
        select(reports.c.id, reports.c.session)
        .join(other, other.c.tournament_id == reports.c.id)
        .join(
            mine,
            and_(
                mine.c.tournament_id == bindparam("tournament_id"),
                mine.c.player_id == other.c.player_id,
                mine.c.place == other.c.place,
                mine.c.status == other.c.status,
            ),
        )
        .where(
            reports.c.venue_id == bindparam("venue_id"),
            reports.c.date == bindparam("date"),
            reports.c.id != bindparam("tournament_id"),
            reports.c.entrants == bindparam("entrants"),
            live_in(reports.c),
        )
        .group_by(reports.c.id, reports.c.session, reports.c.entrants)
        .having(func.count() == reports.c.entrants)
        .order_by(reports.c.id)
    )


TWINS = _twins_query()


def twins(session: Session, report: Report) -> list[Notice]:
    """Live reports of the same venue and day with exactly these results (player, place, status)."""
    twins = session.connection().execute(
        TWINS,
        {
            "tournament_id": report.id,
            "venue_id": report.venue_id,
            "date": report.date,
            "entrants": report.entrants,
        },
    )
    return [matches_report(twin_id, session_number) for twin_id, session_number in twins]
