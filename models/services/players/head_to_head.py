"""Two players against each other (R8a, R17, R19): the live reports both played, who finished
higher in each, and who knocked whom out; and a player's nemesis, the player who knocked them
out most often."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Select, and_, case, func, select
from sqlalchemy.orm import Session, aliased

from models.entities.league import Venue
from models.entities.players import Player
from models.entities.reports import Report, Result, played_in
from models.errors import InvalidInput, NotFound
from models.services.lookup import get_or_raise
from models.services.paging import Page, PageRequest
from models.services.players.erasures import merge_group
from models.services.players.survivors import final_survivor, final_survivors

# A nemesis is named once they knocked the player out this many times (live reports, any kind).
NEMESIS_AT_LEAST = 3

# Who of the two did something in a meeting, as the answer says it.
PLAYER, OTHER = "player", "other"
SIDES = (PLAYER, OTHER)


@dataclass(frozen=True)
class HeadToHead:
    """The live reports both players played (no-shows left out), latest first, one page of them,
    with the totals over all of them."""

    player: Player
    other: Player
    tournaments: int
    player_finished_higher: int
    other_finished_higher: int
    player_knocked_out_other: int
    other_knocked_out_player: int
    meetings: Page[dict[str, Any]]


def survivor_of(session: Session, player_id: int, field: str | None = None) -> Player:
    """The player an id names now (R17: a record merged away names the final survivor of its
    merges, where its results are); NotFound naming `field` (None: the path's player)."""
    player = session.get(Player, player_id)
    if player is None:
        message = f"There is no player with id {player_id}."
        raise NotFound(message) if field is None else NotFound.at(field, message)
    if player.merged_into_id is None:
        return player
    return get_or_raise(session, Player, final_survivor(session, player), "player")


def head_to_head(session: Session, player_id: int, other_id: int, page: PageRequest) -> HeadToHead:
    """The two players' meetings (`HeadToHead`). An id merged away answers for its survivor
    (R17); the same player twice (or an id merged into the other) is refused naming `other`."""
    if other_id == player_id:
        raise InvalidInput.at("other", f"Compare player {player_id} with another player, not themselves.")
    player = survivor_of(session, player_id)
    other = survivor_of(session, other_id, "other")
    if player.id == other.id:
        message = f"Players {player_id} and {other_id} are one player now (merged into {player.id})."
        raise InvalidInput.at("other", message, rule="R17")
    mine, theirs = aliased(Result), aliased(Result)
    # R8a: a knocker recorded under a record merged away since still counts as its survivor.
    player_records, other_records = merge_group(session, player.id), merge_group(session, other.id)
    mine_higher = mine.place < theirs.place
    player_knocked = theirs.knocked_out_by_id.in_(player_records)
    other_knocked = mine.knocked_out_by_id.in_(other_records)
    both = _meetings(mine, theirs, player.id, other.id)
    counted, higher, lower, knocked, suffered = session.execute(
        both.with_only_columns(
            func.count(),
            _count(mine_higher),
            _count(~mine_higher),
            _count(player_knocked),
            _count(other_knocked),
        )
    ).one()
    rows = session.execute(
        both.join(Venue, Venue.id == Report.venue_id)
        .with_only_columns(
            Report.id,
            Report.date,
            Report.session,
            Report.venue_id,
            Venue.name,
            Report.kind,
            Report.entrants,
            mine.place,
            theirs.place,
            case((player_knocked, PLAYER), (other_knocked, OTHER), else_=None),
        )
        .order_by(Report.date.desc(), Report.session.desc(), Report.id.desc())
        .limit(page.per_page)
        .offset((page.page - 1) * page.per_page)
    ).all()
    meetings = [
        {
            "tournament_id": row[0],
            "date": row[1],
            "session": row[2],
            "venue_id": row[3],
            "venue_name": row[4],
            "kind": row[5],
            "entrants": row[6],
            "player_place": row[7],
            "other_place": row[8],
            "finished_higher": PLAYER if row[7] < row[8] else OTHER,
            "knockout": row[9],
        }
        for row in rows
    ]
    return HeadToHead(
        player,
        other,
        int(counted),
        int(higher or 0),
        int(lower or 0),
        int(knocked or 0),
        int(suffered or 0),
        Page(meetings, int(counted), page.page, page.per_page),
    )


def _meetings(mine: Any, theirs: Any, player_id: int, other_id: int) -> Select[Any]:
    """The live reports both players played (a no-show played none: R6, R9), the player's result
    as `mine` and the other's as `theirs`; columns chosen by the caller."""
    return (
        select(Report.id)
        .join(mine, and_(mine.tournament_id == Report.id, mine.player_id == player_id))
        .join(theirs, and_(theirs.tournament_id == Report.id, theirs.player_id == other_id))
        .where(Report.live, played_in(mine), played_in(theirs))
    )


def _count(condition: ColumnElement[bool]) -> Any:
    return func.sum(case((condition, 1), else_=0))


class Nemesis(NamedTuple):
    """The player who knocked a player out most often, and how many times."""

    player: Player
    knockouts: int


def nemesis(session: Session, player_id: int) -> Nemesis | None:
    """R8a: who knocked this player out most often in live reports (any kind, any venue), when
    that is at least NEMESIS_AT_LEAST times; else None. A tie goes to the one who did it last
    (date, session, report), then to the lower player number. A knocker recorded under a record
    merged away since counts as its survivor (R17)."""
    rows = session.execute(
        select(Result.knocked_out_by_id, Report.date, Report.session, Report.id)
        .join(Report, Report.id == Result.tournament_id)
        .where(Result.player_id == player_id, Result.knocked_out_by_id.is_not(None), Report.live)
    ).all()
    if len(rows) < NEMESIS_AT_LEAST:
        return None
    recorded = [(row[0], (row[1], row[2], row[3])) for row in rows if row[0] is not None]
    survivors = final_survivors(session, {knocker for knocker, _when in recorded})
    counts: dict[int, int] = {}
    latest: dict[int, tuple[date, int, int]] = {}
    for recorded_knocker, when in recorded:
        knocker = survivors.get(recorded_knocker, recorded_knocker)
        if knocker != player_id:
            counts[knocker] = counts.get(knocker, 0) + 1
            latest[knocker] = max(latest.get(knocker, when), when)
    if not counts:
        return None
    # Most knockouts, then the latest (date, session, report), then the lower player number.
    best = max(counts, key=lambda knocker: (counts[knocker], latest[knocker], -knocker))
    if counts[best] < NEMESIS_AT_LEAST:
        return None
    found = session.get(Player, best)
    return None if found is None else Nemesis(found, counts[best])


@dataclass(frozen=True)
class Opponent:
    """A player met in live reports, and how often (R8a, R19: display name only)."""

    player: Player
    meetings: int


def opponents(session: Session, player_id: int) -> tuple[Player, list[Opponent]]:
    """Every player this one met in a live report both played (no-shows left out), most met
    first, then by display name and number: whom a head-to-head can be asked against. An id
    merged away answers for its survivor (R17)."""
    player = survivor_of(session, player_id)
    mine, theirs = aliased(Result), aliased(Result)
    met = func.count().label("met")
    rows = session.execute(
        select(theirs.player_id, met)
        .select_from(mine)
        .join(Report, Report.id == mine.tournament_id)
        .join(theirs, and_(theirs.tournament_id == mine.tournament_id, theirs.player_id != mine.player_id))
        .where(mine.player_id == player.id, Report.live, played_in(mine), played_in(theirs))
        .group_by(theirs.player_id)
    ).all()
    counts = {pid: int(n) for pid, n in rows}
    players = session.scalars(select(Player).where(Player.id.in_(sorted(counts)))).all() if counts else []
    found = [Opponent(p, counts[p.id]) for p in players]
    found.sort(key=lambda o: (-o.meetings, o.player.display_name.casefold(), o.player.id))
    return player, found
