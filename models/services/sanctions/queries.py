"""Looking sanctions up (R15, R16): who sees which, a player's history, the door list of a venue,
the sanctions that bar a report's players, and the stored results a sanction recorded late covers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, and_, case, false, func, or_, select, true
from sqlalchemy.orm import Session, selectinload

from models.actor import Actor
from models.entities.league import Venue
from models.entities.players import Player
from models.entities.reports import Report, Result
from models.entities.sanctions import Sanction
from models.errors import NotFound
from models.rules.notices import ReportRef
from models.rules.sanctions import (
    BARRING_KINDS,
    DoorGroup,
    SanctionKind,
    Terms,
    add_months,
    door_group,
    door_order,
)
from models.services import wall_clock
from models.services.access import may_read_door_list
from models.services.lookup import get_or_raise
from models.services.paging import Page, PageRequest, paginate
from models.services.players.queries import demo_shown_at


def visible_sanctions(actor: Actor) -> ColumnElement[bool]:
    """Who sees which sanction: the office all; a host the league-wide suspensions and the bans
    of their own venues (the demo's players' only when they host a venue of the demo); the public
    none."""
    if actor.is_office:
        return true()
    if actor.is_host:
        kinds = or_(
            Sanction.kind == SanctionKind.SUSPENSION,
            and_(Sanction.kind == SanctionKind.VENUE_BAN, Sanction.venue_id.in_(sorted(actor.venue_ids))),
        )
        return and_(kinds, _of_players_shown(actor.venue_ids))
    return false()


def _of_players_shown(venue_ids: Iterable[int]) -> ColumnElement[bool]:
    """Sanctions of players who show at these venues: the demo's players only at the demo's
    venues (`player_queries.demo_shown_at`)."""
    return Sanction.player_id.in_(select(Player.id).where(demo_shown_at(venue_ids)))


def sees_sanction(actor: Actor, sanction: Sanction) -> bool:
    """`visible_sanctions` in Python, for a sanction already loaded."""
    if actor.is_office:
        return True
    if actor.is_host:
        return sanction.kind == SanctionKind.SUSPENSION or (
            sanction.kind == SanctionKind.VENUE_BAN and actor.hosts_venue(sanction.venue_id)
        )
    return False


def no_such_sanction(sanction_id: int) -> NotFound:
    """The one answer for a sanction that does not exist and for one the caller may not see
    (R19): a host must not learn which bans other venues hold."""
    return NotFound(f"There is no sanction with id {sanction_id}.")


def runs_on(day: date) -> ColumnElement[bool]:
    """R15 in SQL, as `Terms.runs_on` says it in Python: the first and the last day both count,
    no last day is permanent, and a lifted sanction stops on the day it was lifted."""
    return and_(
        Sanction.first_day <= day,
        or_(Sanction.last_day.is_(None), Sanction.last_day >= day),
        or_(Sanction.lifted_on.is_(None), Sanction.lifted_on > day),
    )


def get_sanction(session: Session, actor: Actor, sanction_id: int) -> Sanction:
    """A sanction this caller may see; NotFound otherwise, the same for one that does not exist."""
    found = session.scalar(select(Sanction).where(Sanction.id == sanction_id, visible_sanctions(actor)))
    if found is None:
        raise no_such_sanction(sanction_id)
    return found


@dataclass(frozen=True)
class SanctionFilters:
    player_id: int | None = None
    kind: str | None = None
    category: str | None = None
    venue_id: int | None = None  # venue bans at this venue
    active_on: date | None = None  # running on this day (and not lifted by then)


def list_sanctions(
    session: Session, actor: Actor, filters: SanctionFilters, page: PageRequest
) -> Page[Sanction]:
    """The sanctions this caller may see, newest first."""
    query = select(Sanction).where(visible_sanctions(actor)).options(selectinload(Sanction.player))
    for name in ("player_id", "kind", "category", "venue_id"):
        value = getattr(filters, name)
        if value is not None:
            query = query.where(getattr(Sanction, name) == value)
    if filters.active_on is not None:
        query = query.where(runs_on(filters.active_on))
    query = query.order_by(Sanction.first_day.desc(), Sanction.id.desc())
    return paginate(session, query, page)


def ladder_counts(session: Session, player_id: int, on: date | None = None) -> dict[str, int]:
    """How many warnings and suspensions the player had in the 12 months up to `on` (by first
    day; lifted ones too), so the office can follow its own ladder."""
    on = on or wall_clock.in_league(session)
    since = add_months(on, -12)
    rows = session.execute(
        select(Sanction.kind, func.count())
        .where(
            Sanction.player_id == player_id,
            Sanction.kind.in_((SanctionKind.WARNING, SanctionKind.SUSPENSION)),
            Sanction.first_day > since,
            Sanction.first_day <= on,
        )
        .group_by(Sanction.kind)
    ).all()
    counts = dict(rows)
    return {
        "warnings_last_12_months": int(counts.get(SanctionKind.WARNING, 0)),
        "suspensions_last_12_months": int(counts.get(SanctionKind.SUSPENSION, 0)),
    }


def ladder_for(session: Session, actor: Actor, player: Player) -> dict[str, int] | None:
    """The 12-month counts for a player's page: the office's only."""
    return ladder_counts(session, player.id) if actor.is_office else None


def player_discipline(session: Session, actor: Actor, player: Player) -> dict[str, Any]:
    """A player's whole history that this caller may see, newest first; for the office, also the
    counts of warnings and suspensions in the last 12 months."""
    sanctions = list(
        session.scalars(
            select(Sanction)
            .where(Sanction.player_id == player.id, visible_sanctions(actor))
            .order_by(Sanction.first_day.desc(), Sanction.id.desc())
        )
    )
    history: dict[str, Any] = {"player_id": player.id, "display_name": player.display_name}
    history["active"] = [s.id for s in sanctions if s.active_on(wall_clock.for_sanction(session, s))]
    if actor.is_office:
        history.update(ladder_counts(session, player.id))
    history["sanctions"] = sanctions
    return history


@dataclass(frozen=True)
class BarredPlayer:
    """One line of a venue's door list: a player who may not play there on the day, the sanction
    that bars them longest, every sanction that bars them, and the player's group (R16: played
    at the venue, elsewhere in its region, or neither)."""

    player: Player
    sanctions: list[Sanction]
    group: DoorGroup = DoorGroup.LEAGUE

    @property
    def sanction(self) -> Sanction:
        # A permanent one first, then the one that ends last.
        return max(self.sanctions, key=lambda s: (s.last_day is None, s.last_day or date.min, s.id))

    @property
    def last_day(self) -> date | None:
        return self.sanction.last_day


def bars(venue_id: int, day: date) -> ColumnElement[bool]:
    """R16 in SQL, as `Terms.bars` says it in Python: a suspension, or a ban at the venue, that
    runs on the day and was not lifted."""
    return and_(
        or_(
            Sanction.kind == SanctionKind.SUSPENSION,
            and_(Sanction.kind == SanctionKind.VENUE_BAN, Sanction.venue_id == venue_id),
        ),
        Sanction.lifted_at.is_(None),
        runs_on(day),
    )


def door_list(session: Session, actor: Actor, venue_id: int, on: date) -> list[BarredPlayer]:
    """R15, R16: every player who may not play at the venue on the day, for the venue's hosts
    and the office: those who played there first, then those who played elsewhere in its
    region, then the rest of the league (`door_order`). The lines hold the players' full names:
    the door list is where a host may read those of players who never played there (R19). The
    demo's players are on the demo's venues' lists only."""
    venue = get_or_raise(session, Venue, venue_id, "venue")
    may_read_door_list(actor, venue_id)
    sanctions = session.scalars(
        select(Sanction)
        .where(bars(venue_id, on), _of_players_shown([venue_id]))
        .options(selectinload(Sanction.player))
        .order_by(Sanction.id)
    ).all()
    by_player: dict[int, list[Sanction]] = {}
    for sanction in sanctions:
        by_player.setdefault(sanction.player_id, []).append(sanction)
    groups = door_groups(session, venue, by_player)
    rows = [
        BarredPlayer(items[0].player, items, groups.get(player_id, DoorGroup.LEAGUE))
        for player_id, items in by_player.items()
    ]
    return sorted(rows, key=lambda row: door_order(row.group, row.player.display_name, row.player.id))


def door_groups(session: Session, venue: Venue, player_ids: Iterable[int]) -> dict[int, DoorGroup]:
    """R16: the door-list group of each of these players who played in the venue's region (a
    result in a live report at one of its venues), in one query; the others are the league's."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    here = func.max(case((Report.venue_id == venue.id, 1), else_=0))
    rows = session.execute(
        select(Result.player_id, here)
        .join(Report, Report.id == Result.tournament_id)
        .join(Venue, Venue.id == Report.venue_id)
        .where(Result.player_id.in_(ids), Report.live, Venue.region_id == venue.region_id)
        .group_by(Result.player_id)
    )
    return {player_id: door_group(bool(played_here), True) for player_id, played_here in rows}


def suspended_on(session: Session, day: date) -> set[int]:
    """R13, R15: the players suspended on a day (a lifted suspension no longer counts). Few: read
    whole."""
    return set(
        session.scalars(
            select(Sanction.player_id).where(
                Sanction.kind == SanctionKind.SUSPENSION, Sanction.lifted_at.is_(None), runs_on(day)
            )
        )
    )


def barring_sanctions(session: Session, player_ids: Sequence[int]) -> list[Sanction]:
    """R16: the suspensions and venue bans of these players, in one query (the pure rule then
    decides which bar them from a venue on a day)."""
    if not player_ids:
        return []
    return list(
        session.scalars(
            select(Sanction)
            .where(Sanction.player_id.in_(sorted(set(player_ids))), Sanction.kind.in_(BARRING_KINDS))
            .order_by(Sanction.id)
        )
    )


def results_inside(session: Session, player_id: int, terms: Terms) -> list[ReportRef]:
    """R16: the live reports (any kind) holding a result of the player on a day the sanction
    bars: a suspension's at every venue, a ban's at its venue; from its first day to its last (a
    permanent one: every day since), by date. Reminders and warnings bar no one: none."""
    if terms.kind not in BARRING_KINDS:
        return []
    query = (
        select(Report.id, Report.venue_id, Report.date, Report.session, Report.kind)
        .join(Result, Result.tournament_id == Report.id)
        .where(Result.player_id == player_id, Report.live, Report.date >= terms.first_day)
        .order_by(Report.date, Report.venue_id, Report.session, Report.id)
    )
    if terms.last_day is not None:
        query = query.where(Report.date <= terms.last_day)
    if terms.kind == SanctionKind.VENUE_BAN:
        query = query.where(Report.venue_id == terms.venue_id)
    return [ReportRef(*row) for row in session.execute(query)]
