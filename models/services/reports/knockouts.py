"""R8a in a report: who knocked each player out, named by player id, by place or by name (a
spreadsheet's "Knocked out by"), read as the row of an entrant who finished higher; and the
bounties of a venue's season, settled in the order its nights were played (the leader before a
night depends on every night before it, bounties included)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.orm import Session, selectinload

from models.entities import Player, Season
from models.entities.reports import Report, Result
from models.errors import Problem
from models.rules.drafts import ResultDraft
from models.rules.knockouts import Bounty, knockout_problems, knockouts_earned, leaders
from models.rules.reports import ReportKind
from models.rules.standings import Entry, Line, line_of, ranked_lines
from models.services.players.survivors import final_survivors
from models.services.standings.line_queries import season_tiers


def _names_of(row: ResultDraft, player: Player | None, new: dict[str, Any] | None) -> set[str]:
    """What a knocker's name may say of an entrant (R8a, R19): what the entrant's own row gave
    (its full name, email or membership number, or the new player's), and the public display
    name. Never the stored player's personal values: a row that names its player by id must not
    let the rest of the report guess that player's name, email or number."""
    said: list[Any] = [row.get("full_name"), row.get("email"), row.get("membership_number")]
    if player is not None:
        said.append(player.display_name)
    if new is not None:
        said += [
            new.get("full_name"),
            new.get("display_name"),
            new.get("email"),
            new.get("membership_number"),
        ]
    return {" ".join(str(s).split()).casefold() for s in said if s}


def knocker_rows(
    session: Session,
    rows: Sequence[ResultDraft],
    entrants: Sequence[Any],
    problems: list[Problem],
    readable: bool,
) -> list[int | None]:
    """Each row's knocker as the index of its row (None: nobody); the problems of naming them
    (no such entrant, several, oneself, the winner's, someone who did not finish higher) added
    to `problems`. Not `readable` (a row or a place unread): nobody, and no problem yet."""
    named = [row for row in rows if any(row.get(k) is not None for k in KNOCKER_KEYS)]
    if not named or not readable:
        return [None] * len(rows)
    ids = [e.player.id if e.player is not None else None for e in entrants]
    by_id = {pid: n for n, pid in enumerate(ids) if pid is not None}
    asked = [pid for row in named if (pid := row.get("knocked_out_by")) is not None]
    survivors = final_survivors(session, asked) if asked else {}
    by_place = {row["place"]: n for n, row in enumerate(rows)}
    found: list[int | None] = []
    for n, row in enumerate(rows):
        path = f"results.{n}.knocked_out_by"
        knocker: int | None = None
        pid = row.get("knocked_out_by")
        if pid is not None:
            knocker = by_id.get(pid, by_id.get(survivors.get(pid, pid)))
            if knocker is None:
                # R19: an id that names no entrant counts against the host's key, as an unknown
                # email does (the same words whether or not the league knows the id).
                message = f"Player {pid} is not an entrant of this report."
                problems.append(Problem(path, message, "R8a", identifier_miss=True))
        elif row.get("knocked_out_by_place") is not None:
            knocker = by_place.get(row["knocked_out_by_place"])
            if knocker is None:
                problems.append(Problem(path, f"No entrant finished {row['knocked_out_by_place']}.", "R8a"))
        elif row.get("knocked_out_by_name"):
            said = " ".join(row["knocked_out_by_name"].split()).casefold()
            matches = [
                m
                for m, e in enumerate(entrants)
                if said in _names_of(rows[m], e.player, e.new) or (said.isdigit() and ids[m] == int(said))
            ]
            if len(matches) == 1:
                knocker = matches[0]
            else:
                what = "no entrant" if not matches else f"{len(matches)} entrants"
                message = f"{row['knocked_out_by_name']!r} names {what} of this report."
                # R19: a name that names no entrant is a guess that counts against the host's key.
                problems.append(Problem(path, message, "R8a", identifier_miss=not matches))
        found.append(knocker)
    # Who finished higher (checked on places) and played (R6), for the rows whose knocker was found.
    statuses = [row.get("status") for row in rows]
    problems += knockout_problems([(row["place"], found[n]) for n, row in enumerate(rows)], statuses)
    return found


KNOCKER_KEYS = ("knocked_out_by", "knocked_out_by_place", "knocked_out_by_name")


def settle_bounties(session: Session, season: Season, venue_id: int) -> set[int]:
    """R8a: every live regular report of the venue in the season, in the order played, its
    knockout points computed again with the bounty of that night: on the venue's standings
    leaders before it (R11; all of those tied at the top), or on the winner of the report before
    it. Returns the players whose results changed (their standing lines are then stale)."""
    rule = season.knockout_rule
    reports = session.scalars(
        select(Report)
        .where(
            Report.season_id == season.id,
            Report.venue_id == venue_id,
            Report.kind == ReportKind.REGULAR,
            Report.live,
        )
        .options(selectinload(Report.results))
        .order_by(Report.date, Report.session, Report.id)
    ).all()
    tiers = season_tiers(season)
    entries: dict[int, list[Entry]] = {}
    last_winner: int | None = None
    changed: set[int] = set()
    for report in reports:
        if rule.bounty == Bounty.VENUE_LEADER:
            lines = [line_of(pid, "", mine, season.count_best) for pid, mine in entries.items()]
            holders = leaders({row.player_id: row.rank for row in ranked_lines(lines, tiers)})
        else:
            holders = {last_winner} if last_winner is not None else set()
        results = report.results
        made = knockouts_earned(
            ((r.player_id, r.knocked_out_by_id) for r in results),
            rule,
            holders & {r.player_id for r in results},
        )
        for result in results:
            mine = made.get(result.player_id)
            knockouts, points = (mine.knockouts, mine.points) if mine else (0, 0)
            total = result.placement_points + result.participation_points + points
            if (result.knockouts, result.knockout_points, result.points) != (knockouts, points, total):
                result.knockouts, result.knockout_points, result.points = knockouts, points, total
                changed.add(result.player_id)
            entries.setdefault(result.player_id, []).append(
                Entry(
                    report.id,
                    result.place,
                    result.status,
                    result.placement_points,
                    result.participation_points,
                    points,
                    knockouts,
                )
            )
            if result.place == 1:
                last_winner = result.player_id
    session.flush()
    return changed


def bounty_holders(
    session: Session, season: Season, venue_id: int, day: date, session_no: int, lines_before: list[Line]
) -> set[int]:
    """R8a: who carries the bounty on a night not stored yet (a night as it happens): the leaders
    of the standings before it (`lines_before`), or the winner of the venue's last report
    before it in the season."""
    rule = season.knockout_rule
    if not rule.has_bounty:
        return set()
    if rule.bounty == Bounty.VENUE_LEADER:
        return leaders({row.player_id: row.rank for row in ranked_lines(lines_before, season_tiers(season))})
    last = session.scalar(
        select(Result.player_id)
        .join(Report, Report.id == Result.tournament_id)
        .where(
            Report.season_id == season.id,
            Report.venue_id == venue_id,
            Report.kind == ReportKind.REGULAR,
            Report.live,
            tuple_(Report.date, Report.session) < tuple_(day, session_no),
            Result.place == 1,
        )
        .order_by(Report.date.desc(), Report.session.desc())
        .limit(1)
    )
    return set() if last is None else {last}
