"""Reading skill ratings (R20): the rated reports in the rating order, the computation from
scratch (what the stored ratings must equal), the league's rating table, a player's rating and
its history. Keeping the stored ratings current is ratings.py's."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Any, NamedTuple, overload

from sqlalchemy import Connection, Select, bindparam, case, func, select, tuple_
from sqlalchemy.orm import Session

from models.entities.base import table_of
from models.entities.league import Region, Venue
from models.entities.players import Player
from models.entities.ratings import PlayerRating, RatingPoint
from models.entities.reports import Report, Result, live_in, played_in
from models.errors import InvalidInput, Problem
from models.rules.ratings import NEW, PROVISIONAL_BELOW, Skill, Z, ordinal, provisional, rate, table_ranks


class Point(NamedTuple):
    """A report's place in the rating order (R20): date, session, then id."""

    date: date
    session: int
    tournament_id: int


def order_of(columns: Any) -> tuple[Any, Any, Any]:
    """The rating order on columns holding date, session and id."""
    return (columns.date, columns.session, columns.id)


def point_of(report: Report) -> Point:
    return Point(report.date, report.session, report.id)


# One rated report: its point, its venue and its rated entrants (player, place) by place.
Rated = tuple[Point, int, list[tuple[int, int]]]


def _entrants_query(point: Point | None, players: Collection[int] | None = None) -> Select[Any]:
    reports, results = table_of(Report), table_of(Result)
    query = (
        select(
            reports.c.id,
            reports.c.date,
            reports.c.session,
            reports.c.venue_id,
            results.c.player_id,
            results.c.place,
        )
        .join(results, results.c.tournament_id == reports.c.id)
        .where(live_in(reports.c), played_in(results.c))
        .order_by(*order_of(reports.c), results.c.place)
    )
    if point is not None:
        query = query.where(tuple_(*order_of(reports.c)) >= tuple(point))
    if players is not None:
        theirs = select(results.c.tournament_id).where(results.c.player_id.in_(sorted(players)))
        query = query.where(reports.c.id.in_(theirs))
    return query


def rated_entrants(
    session: Session | Connection, point: Point | None, players: Collection[int] | None = None
) -> list[Rated]:
    """R20: every live report (every kind) from this point of the order on (all: None), with its
    entrants but no-shows, in order of date, session and id, each report's entrants by place.
    `players`: only the reports one of them has a result in (their every entrant)."""
    reports: list[Rated] = []
    current: int | None = None
    rows = session.execute(_entrants_query(point, players))
    for tournament_id, day, number, venue_id, player_id, place in rows:
        if tournament_id != current:
            current = tournament_id
            reports.append((Point(day, number, tournament_id), venue_id, []))
        reports[-1][2].append((player_id, place))
    return reports


def computed_ratings(
    reports: Iterable[Rated], states: dict[int, Skill], last: dict[int, Point]
) -> list[dict[str, Any]]:
    """R20: rate these reports in order from `states` (each player's before the first; new
    players start at the model's defaults), which are left as the reports leave them, with each
    rated player's last point in `last`; returns the history rows. A report with fewer than two
    rated entrants changes nothing and leaves no point."""
    history: list[dict[str, Any]] = []
    for point, venue_id, entrants in reports:
        if len(entrants) < 2:
            continue
        after = rate([(states.get(player, NEW), place) for player, place in entrants])
        for (player, place), skill in zip(entrants, after, strict=True):
            states[player] = skill
            last[player] = point
            history.append(point_row(point, venue_id, player, place, len(entrants), skill))
    return history


def point_row(
    point: Point, venue_id: int, player: int, place: int, entrants: int, skill: Skill
) -> dict[str, Any]:
    """A point of history, as the rating_points table takes it."""
    return {
        "tournament_id": point.tournament_id,
        "player_id": player,
        "date": point.date,
        "session": point.session,
        "venue_id": venue_id,
        "place": place,
        "entrants": entrants,
        "mu": skill.mu,
        "sigma": skill.sigma,
        "tournaments": skill.tournaments,
    }


def from_scratch(session: Session | Connection) -> tuple[dict[int, tuple[Any, ...]], set[tuple[Any, ...]]]:
    """R20: the ratings and history a computation from scratch over the current data gives, as
    `stored` answers them: what the stored ratings must equal, float for float."""
    states: dict[int, Skill] = {}
    last: dict[int, Point] = {}
    history = computed_ratings(rated_entrants(session, None), states, last)
    ratings = {
        player: (skill.mu, skill.sigma, skill.tournaments, *last[player]) for player, skill in states.items()
    }
    return ratings, {tuple(row[name] for name in HISTORY_COLUMNS) for row in history}


HISTORY_COLUMNS = (
    "tournament_id",
    "player_id",
    "date",
    "session",
    "venue_id",
    "place",
    "entrants",
    "mu",
    "sigma",
    "tournaments",
)


def stored(session: Session | Connection) -> tuple[dict[int, tuple[Any, ...]], set[tuple[Any, ...]]]:
    """The stored ratings and history, in the shape of `from_scratch`."""
    ratings, points = table_of(PlayerRating), table_of(RatingPoint)
    rows = session.execute(
        select(
            ratings.c.player_id,
            ratings.c.mu,
            ratings.c.sigma,
            ratings.c.tournaments,
            ratings.c.last_date,
            ratings.c.last_session,
            ratings.c.last_tournament_id,
        )
    )
    current = {row[0]: tuple(row[1:]) for row in rows}
    history = {tuple(row) for row in session.execute(select(*(points.c[name] for name in HISTORY_COLUMNS)))}
    return current, history


class RatedPlayer(NamedTuple):
    """A player as the rating table names them."""

    id: int
    display_name: str


@dataclass(frozen=True)
class RatingRow:
    """A row of the rating table (R20)."""

    rank: int
    tied: bool
    player: RatedPlayer
    rating: Decimal
    mu: float
    sigma: float
    tournaments: int
    provisional: bool
    last_played: date


def rating_of(rating: PlayerRating) -> dict[str, Any]:
    return {
        "rating": ordinal(rating.mu, rating.sigma),
        "mu": rating.mu,
        "sigma": rating.sigma,
        "tournaments": rating.tournaments,
        "provisional": provisional(rating.tournaments),
        "last_played": rating.last_date,
    }


def rating_table(session: Session, region_id: int | None = None, min_tournaments: int = 0) -> RatingTable:
    """R20: the league's rating table, best first: the established players ranked (equal shown
    ratings share a rank, 1, 2, 2, 4), then the provisional ones (fewer than 5 rated
    tournaments), ranked on after them. `region_id`: only players with a rated result at a venue
    of the region (their league-wide rating); `min_tournaments`: only players with at least that
    many rated tournaments. An unknown region is refused naming `region_id`.

    The demo stays in its corner: while a demo league is loaded, its players (flagged `demo`) are
    left out of the table, unless the region asked for is the demo's own (its table shows them)."""
    region = None if region_id is None else session.get(Region, region_id)
    if region_id is not None and region is None:
        problem = f"No region {region_id}."
        raise InvalidInput(problem, problems=[Problem("region_id", problem)])
    without_demo = not (region is not None and region.demo) and _demo_loaded(session)
    return RatingTable(session, region_id, min_tournaments, without_demo)


def _demo_loaded(session: Session) -> bool:
    """Whether a demo league is loaded (a region flagged `demo`: a handful of regions to read)."""
    return session.scalar(select(Region.id).where(Region.demo.is_(True)).limit(1)) is not None


@cache
def _table_query(in_region: bool, without_demo: bool = False) -> Select[Any]:
    """The table's first `limit` rows in the database's order, each with the table's counts (its
    rows, its established rows): the established first, then by mu - 3 sigma (the shown rating
    before its rounding: the same float in the database as in Python), mu and id. Built once;
    `min_tournaments`, `limit` and `region_id` (when `in_region`) bound at each run;
    `without_demo`: the demo's players left out."""
    ratings = table_of(PlayerRating)
    is_provisional = ratings.c.tournaments < PROVISIONAL_BELOW
    query = select(
        ratings.c.player_id,
        ratings.c.mu,
        ratings.c.sigma,
        ratings.c.tournaments,
        ratings.c.last_date,
        func.count().over(),
        func.sum(case((is_provisional, 0), else_=1)).over(),
    ).where(ratings.c.tournaments >= bindparam("min_tournaments"))
    if in_region:
        # On the (venue, player) index of the history: the region's venues' points only.
        points = table_of(RatingPoint)
        region_venues = select(Venue.id).where(Venue.region_id == bindparam("region_id"))
        query = query.where(
            ratings.c.player_id.in_(select(points.c.player_id).where(points.c.venue_id.in_(region_venues)))
        )
    if without_demo:
        players = table_of(Player)
        query = query.where(ratings.c.player_id.not_in(select(players.c.id).where(players.c.demo.is_(True))))
    raw = ratings.c.mu - Z * ratings.c.sigma
    return query.order_by(is_provisional, raw.desc(), ratings.c.mu.desc(), ratings.c.player_id).limit(
        bindparam("limit")
    )


# A row read: id, mu, sigma, rated tournaments, last played, the shown rating.
_Read = tuple[int, float, float, int, date, Decimal]


class RatingTable(Sequence[RatingRow]):
    """The rating table's rows, read only as far as asked: a page of a national table is 50 of
    its tens of thousands, and the table is read again after every report. The database orders
    the rows by the shown rating before its rounding and counts them. Rounding keeps that order,
    so the rows of one shown rating stand together: the rows read, on to the end of the last one's
    rating, are every row that can come before it. They are put in the exact order here (equal
    shown ratings by mu, then id) and ranked."""

    def __init__(
        self, session: Session, region_id: int | None, min_tournaments: int, without_demo: bool = False
    ) -> None:
        self._session = session
        self._region_id = region_id
        self._min_tournaments = min_tournaments
        self._without_demo = without_demo
        self._rows: list[_Read] = []  # in the exact order, each rating's rows whole
        self._ranks: list[int] = []
        self._next: tuple[bool, Decimal] | None = None  # the group and rating of the row after
        self._total: int | None = None
        self.established = 0

    def __len__(self) -> int:
        if self._total is None:
            self._read(0)
        return self._total or 0

    @overload
    def __getitem__(self, index: int) -> RatingRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[RatingRow]: ...

    def __getitem__(self, index: int | slice) -> RatingRow | list[RatingRow]:
        if isinstance(index, slice):
            if _a_page(index):
                self._read(index.stop)  # read with the counts, not after them
            made = range(*index.indices(len(self)))
        else:
            made = range(len(self))[index : index + 1 or None]
            if not made:
                raise IndexError(index)
        self._read(max(made, default=-1) + 1)
        names = self._names([self._rows[i][0] for i in made])
        rows = [self._row(i, names) for i in made]
        return rows if isinstance(index, slice) else rows[0]

    def _read(self, count: int) -> None:
        """Read at least the first `count` rows, each shown rating's rows whole, and whether a
        row comes after them (for the last one's tie)."""
        if self._total is not None and (count <= len(self._rows) or len(self._rows) == self._total):
            return
        limit = count + 64
        while True:
            values = {"min_tournaments": self._min_tournaments, "limit": limit, "region_id": self._region_id}
            found = self._session.connection().execute(
                _table_query(self._region_id is not None, self._without_demo), values
            )
            read: list[_Read] = []
            for player_id, mu, sigma, reports, last_date, total, established in found:
                read.append((player_id, mu, sigma, reports, last_date, ordinal(mu, sigma)))
                self._total, self.established = total, int(established)
            if self._total is None:
                self._total = 0
            whole = _whole_ratings(read, count, complete=len(read) < limit)
            if whole is not None:
                break
            limit *= 4
        rows, self._next = whole
        # Each group best first: shown rating, then mu, then the lower id.
        established = sorted(rows[: min(len(rows), self.established)], key=_order, reverse=True)
        provisional_rows = sorted(rows[len(established) :], key=_order, reverse=True)
        self._rows = [*established, *provisional_rows]
        self._ranks = [
            *table_ranks([row[5] for row in established]),
            *(rank + self.established for rank in table_ranks([row[5] for row in provisional_rows])),
        ]

    def _names(self, player_ids: list[int]) -> dict[int, str]:
        found = self._session.connection().execute(
            select(Player.id, Player.display_name).where(Player.id.in_(player_ids))
        )
        return {player_id: name for player_id, name in found}

    def _row(self, index: int, names: dict[int, str]) -> RatingRow:
        player_id, mu, sigma, reports, last_date, shown = self._rows[index]
        rank, ranks = self._ranks[index], self._ranks
        is_provisional = index >= self.established
        if index + 1 < len(ranks):
            tied_after = ranks[index + 1] == rank
        else:  # the last row read: tied when the row after it has the same rating, in its group
            tied_after = self._next == (is_provisional, shown)
        tied = (index > 0 and ranks[index - 1] == rank) or tied_after
        return RatingRow(
            rank,
            tied,
            RatedPlayer(player_id, names[player_id]),
            shown,
            mu,
            sigma,
            reports,
            is_provisional,
            last_date,
        )


def _a_page(index: slice) -> bool:
    """A slice from the start or a row on to a row: a page (no negative index, no step)."""
    return (index.start or 0) >= 0 and index.stop is not None and index.stop >= 0 and index.step is None


def _order(row: _Read) -> tuple[Decimal, float, int]:
    return (row[5], row[1], -row[0])


def _whole_ratings(
    read: list[_Read], count: int, complete: bool
) -> tuple[list[_Read], tuple[bool, Decimal] | None] | None:
    """The rows read up to the end of the shown rating of the `count`-th (its group's), and the
    group and rating of the row after them (None: no row after); None when the rows read end
    before that rating does (read more)."""
    if len(read) <= count:
        return (read, None) if complete else None
    if count == 0:
        return [], _group_rating(read[0])
    last = _group_rating(read[count - 1])
    for index in range(count, len(read)):
        after = _group_rating(read[index])
        if after != last:
            return read[:index], after
    return (read, None) if complete else None


def _group_rating(row: _Read) -> tuple[bool, Decimal]:
    return (provisional(row[3]), row[5])


def player_rating(session: Session, player_id: int) -> dict[str, Any] | None:
    """R20: a player's rating (None when never rated)."""
    rating = session.get(PlayerRating, player_id)
    return None if rating is None else rating_of(rating)


def rating_history(session: Session, player_id: int) -> list[dict[str, Any]]:
    """R20: one point per rated tournament of the player, in the rating order: the report, its
    date and venue, the place, the rated entrants, and the rating after it."""
    points = session.execute(
        select(RatingPoint, Venue.name)
        .join(Venue, Venue.id == RatingPoint.venue_id)
        .where(RatingPoint.player_id == player_id)
        .order_by(RatingPoint.date, RatingPoint.session, RatingPoint.tournament_id)
    )
    return [
        {
            "tournament_id": point.tournament_id,
            "date": point.date,
            "session": point.session,
            "venue_id": point.venue_id,
            "venue_name": venue_name,
            "place": point.place,
            "entrants": point.entrants,
            "rating": ordinal(point.mu, point.sigma),
            "mu": point.mu,
            "sigma": point.sigma,
            "tournaments": point.tournaments,
        }
        for point, venue_name in points
    ]


def histories(session: Session, player_ids: Sequence[int]) -> dict[int, list[Decimal]]:
    """The shown rating after each rated tournament of these players (a sparkline's points)."""
    found: dict[int, list[Decimal]] = {player: [] for player in player_ids}
    if not player_ids:
        return found
    rows = session.execute(
        select(RatingPoint.player_id, RatingPoint.mu, RatingPoint.sigma)
        .where(RatingPoint.player_id.in_(list(player_ids)))
        .order_by(RatingPoint.player_id, RatingPoint.date, RatingPoint.session, RatingPoint.tournament_id)
    )
    for player, mu, sigma in rows:
        found[player].append(ordinal(mu, sigma))
    return found
