"""Looking players up (R5) and what each caller may see of them (R19)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    ARRAY,
    ColumnElement,
    Integer,
    Select,
    and_,
    any_,
    bindparam,
    exists,
    false,
    func,
    or_,
    select,
    true,
)
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Venue
from models.entities.players import DistinctPlayers, Player
from models.entities.reports import Report, Result
from models.rules.players import (
    SHARED_WORD_MIN,
    NameIndex,
    display_name_clashes,
    distinct_display_name,
    normalise_name,
)
from models.rules.qualifiers import PlayerFacts
from models.services.paging import Page, PageRequest, paginate
from models.services.players.survivors import final_survivor, final_survivors, survivors_matching

# R19: what anyone may see of a player, and what only the office and the hosts of the
# player's venues may see.
PUBLIC_FIELDS = ("id", "display_name", "home_venue_id", "merged_into_id")
PERSONAL_FIELDS = (
    "full_name",
    "email",
    "date_of_birth",
    "membership_number",
    "pin",
    "created_at",
    "updated_at",
)


def played_live_at(venues: list[int]) -> Select[int]:
    """The players with a result in a live report at one of these venues (a voided report counts
    nowhere: posting one and voiding it must not open a stranger's personal fields to a host)."""
    return (
        select(Result.player_id)
        .join(Report, Report.id == Result.tournament_id)
        .where(Report.venue_id.in_(venues), Report.live)
    )


def _of_venues(venues: list[int]) -> ColumnElement[bool]:
    """R19 on Player: a player of one of these venues (their home venue, or a live result there)."""
    return or_(Player.home_venue_id.in_(venues), Player.id.in_(played_live_at(venues)))


def players_of_venues(session: Session, player_ids: Iterable[int], venue_ids: Iterable[int]) -> set[int]:
    """R19: which of these players belong to one of these venues: their home venue, or a venue
    where they have a result in a live report. One query, whatever the number of players."""
    ids, venues = list(player_ids), sorted(set(venue_ids))
    if not ids or not venues:
        return set()
    home = select(Player.id).where(Player.id.in_(ids), Player.home_venue_id.in_(venues))
    played = played_live_at(venues).where(Result.player_id.in_(ids))
    return set(session.scalars(home.union(played)))


def personal_visible(session: Session, actor: Actor, player_ids: Iterable[int]) -> set[int]:
    """R19: the players whose personal fields this caller may see: all for the office, those of
    a host's own venues for a host, none for the public."""
    ids = list(player_ids)
    if actor.is_office:
        return set(ids)
    if actor.is_host:
        return players_of_venues(session, ids, actor.venue_ids)
    return set()


def personal_visible_where(actor: Actor) -> ColumnElement[bool]:
    """`personal_visible` as a condition on Player, for a query over every player (a search)."""
    if actor.is_office:
        return true()
    if actor.is_host:
        return _of_venues(sorted(actor.venue_ids))
    return false()


def demo_shown_at(venue_ids: Iterable[int]) -> ColumnElement[bool]:
    """The demo stays in its corner: a demo player (the demo loader's) shows only where one of
    these venues is the demo's; any other player shows everywhere."""
    venues = sorted(set(venue_ids))
    if not venues:
        return Player.demo.is_(False)
    return or_(Player.demo.is_(False), exists(select(Venue.id).where(Venue.id.in_(venues), Venue.in_demo)))


def demo_shown_to(actor: Actor) -> ColumnElement[bool]:
    """`demo_shown_at` a caller's venues, for a list over every player (a search): the office sees
    the demo's players (it asks for them); a host, only when it hosts a venue of the demo; the
    public, never."""
    if actor.is_office:
        return true()
    return demo_shown_at(actor.venue_ids if actor.is_host else ())


def as_seen_by(player: Player, personal: bool) -> dict[str, Any]:
    """A player's fields, the personal ones only when `personal` (R19)."""
    shown = PUBLIC_FIELDS + PERSONAL_FIELDS if personal else PUBLIC_FIELDS
    return {name: getattr(player, name) for name in shown}


def player_as_seen_by(session: Session, actor: Actor, player: Player) -> dict[str, Any]:
    """R19: what this caller may see of one player. R17: a record merged away answers, as
    `merged_into_id`, the player its id names now: the final survivor of its merges (B merged
    into A, then A into C: C), not the record it was merged into first."""
    seen = as_seen_by(player, player.id in personal_visible(session, actor, [player.id]))
    if player.merged_into_id is not None:
        seen["merged_into_id"] = final_survivor(session, player)
    return seen


def search_players(
    session: Session, actor: Actor, page: PageRequest, text: str | None = None
) -> Page[dict[str, Any]]:
    """Players not merged away, matching part of a name (wildcards are literal), by display name.
    R17: a record merged away is never listed; where it matches, the player its id names now (the
    final survivor of its merges) is listed instead, once.

    Everyone matches display names; full names match only among the players whose personal
    fields the caller may see (the office: all; a host: their venues' players; the public: none),
    and only the office matches emails (R19). Each item shows what the caller may see. The demo's
    players are listed only to the office and the hosts of its venues (`demo_shown_to`)."""
    query = select(Player).where(Player.merged_into_id.is_(None), demo_shown_to(actor))
    if text and text.strip():
        wanted = text.strip().lower()
        matches = [func.lower(Player.display_name).contains(wanted, autoescape=True)]
        if normalise_name(wanted):
            # Case and accents ignored (R5): "jose" finds "José A.".
            matches.append(Player.display_key.contains(normalise_name(wanted), autoescape=True))
        if actor.is_office or actor.is_host:
            full_name = Player.name_key.contains(normalise_name(wanted), autoescape=True)
            matches.append(and_(full_name, personal_visible_where(actor)))
        if actor.is_office:
            matches.append(Player.email.contains(wanted, autoescape=True))
        query = query.where(or_(or_(*matches), Player.id.in_(survivors_matching(or_(*matches)))))
    found = paginate(session, query.order_by(Player.display_name, Player.id), page)
    personal = personal_visible(session, actor, [p.id for p in found.items])
    return Page(
        [as_seen_by(p, p.id in personal) for p in found.items], found.total, found.page, found.per_page
    )


# Up to this many new names, their look-alikes are found in SQL; beyond, every registered name is
# read once and indexed in memory (one read of 30,000 names costs about what 10 lookups do).
FEW_NEW_NAMES = 8


def name_index(session: Session, name_keys: Sequence[str], demo: bool = False) -> NameIndex:
    """R5: a NameIndex holding at least every live player whom one of these new names could
    closely match, on one side of the demo's corner: the league's own players, or (`demo`) the
    demo's. A demo player and a league player are never look-alikes: the demo's made-up names
    are no one's duplicates, and a league's players are never offered for merging into them."""
    # An erased player's name is gone (R21): no look-alike of anyone.
    query = select(Player.id, Player.name_key).where(
        Player.merged_into_id.is_(None), Player.name_key != "", Player.demo.is_(demo)
    )
    if len(name_keys) <= FEW_NEW_NAMES:
        # A superset of what NameIndex compares: a name it could match starts with one of the
        # new name's words' first letters (its own, or the same words reordered), or holds one of
        # its longer words.
        conditions = []
        for key in set(name_keys):
            words = key.split()
            conditions += [Player.name_key.startswith(word[0], autoescape=True) for word in words]
            conditions += [
                Player.name_key.contains(word, autoescape=True)
                for word in words
                if len(word) >= SHARED_WORD_MIN
            ]
        if not conditions:
            return NameIndex()
        query = query.where(or_(*conditions))
    return NameIndex((row.id, row.name_key) for row in session.execute(query.order_by(Player.id)))


def duplicate_candidates(session: Session, since: datetime) -> list[tuple[Player, list[Player]]]:
    """R5: players registered since a moment whose names closely match other live players (as
    the warning said when each was registered), newest first, each with its look-alikes (the 10
    closest). Each pair is offered once (under the newer of two recent players), never a pair
    the office said are two people (`told_apart`), and never a demo player with a league player
    (`name_index`: each side of the demo's corner looks only at its own)."""
    recent = list(
        session.scalars(
            select(Player)
            .where(Player.merged_into_id.is_(None), Player.created_at >= since, Player.name_key != "")
            .order_by(Player.id.desc())
            .limit(200)
        )
    )
    if not recent:
        return []
    indexes = {
        side: name_index(session, [player.name_key for player in recent if player.demo == side], demo=side)
        for side in {bool(player.demo) for player in recent}
    }
    apart = told_apart(session, [player.id for player in recent])
    offered: set[tuple[int, int]] = set()
    found: dict[int, list[int]] = {}
    for player in recent:
        # As many more as the pairs told apart that the 10 closest might hold.
        most = 10 + sum(player.id in pair for pair in apart)
        others: list[int] = []
        for other in indexes[bool(player.demo)].matches(player.name_key, most=most).closest:
            pair = (min(player.id, other), max(player.id, other))
            if other != player.id and pair not in apart and pair not in offered and len(others) < 10:
                offered.add(pair)
                others.append(other)
        if others:
            found[player.id] = others
    alike = players_by_id(session, {i for ids in found.values() for i in ids})
    return [
        (player, [alike[i] for i in found[player.id] if i in alike])
        for player in recent
        if player.id in found
    ]


def told_apart(session: Session, player_ids: Iterable[int]) -> set[tuple[int, int]]:
    """R5: the pairs of players the office said are two people, among the pairs touching these
    players, lower id first. A pair is read as the players its ids name now (R17: a record merged
    away names the final survivor of its merges): if B is not A, and B was merged into C since,
    C is not A either."""
    ids = set(player_ids)
    if not ids:
        return set()
    merged = select(Player.id).where(Player.merged_into_id.is_not(None))
    low, high = DistinctPlayers.low_id, DistinctPlayers.high_id
    rows = session.execute(
        select(low, high).where(
            or_(low.in_(sorted(ids)), high.in_(sorted(ids)), low.in_(merged), high.in_(merged))
        )
    ).all()
    survivors = final_survivors(session, {i for row in rows for i in row})
    pairs = set()
    for row in rows:
        a, b = survivors.get(row.low_id, row.low_id), survivors.get(row.high_id, row.high_id)
        if a != b and (a in ids or b in ids):
            pairs.add((min(a, b), max(a, b)))
    return pairs


class PlayerVenues(NamedTuple):
    """Where a player belongs, by venue name: the home venue (if any) and the venues of their live
    results."""

    home: str | None
    played: list[str]


def venues_of_players(session: Session, player_ids: Iterable[int]) -> dict[int, PlayerVenues]:
    """Each player's home venue and the venues they played at (live reports), by name: what the
    office compares of two look-alikes (R5). Two queries, whatever the number of players."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    home_of = select(Player.id, Venue.name).join(Venue, Venue.id == Player.home_venue_id)
    homes = {player_id: name for player_id, name in session.execute(home_of.where(Player.id.in_(ids)))}
    played: dict[int, list[str]] = {}
    rows = session.execute(
        select(Result.player_id, Venue.name)
        .join(Report, Report.id == Result.tournament_id)
        .join(Venue, Venue.id == Report.venue_id)
        .where(Result.player_id.in_(ids), Report.live)
        .distinct()
        .order_by(Result.player_id, Venue.name)
    )
    for player_id, name in rows:
        played.setdefault(player_id, []).append(name)
    return {i: PlayerVenues(homes.get(i), played.get(i, [])) for i in ids}


class VenuePlayer(NamedTuple):
    id: int
    display_name: str
    full_name: str


def players_of_venue(session: Session, venue_id: int, most: int) -> list[VenuePlayer]:
    """(id, display name, full name) of the venue's players not merged away, by display name,
    whom a host picks from when typing a night's rows: those whose personal fields its hosts may
    see (R19: their home venue, or a live result there; `personal_visible`). The demo's players
    only at a venue of the demo (`demo_shown_at`)."""
    rows = session.execute(
        select(Player.id, Player.display_name, Player.full_name)
        .where(_of_venues([venue_id]), Player.merged_into_id.is_(None), demo_shown_at([venue_id]))
        .order_by(Player.display_name, Player.id)
        .limit(most)
    )
    return [VenuePlayer(row.id, row.display_name, row.full_name) for row in rows]


class NameSuggestion(NamedTuple):
    player: Player
    suggestion: str | None  # a display name that tells the player apart, or None


def distinct_name_suggestions(
    session: Session, actor: Actor, players: Iterable[tuple[int, str]]
) -> list[NameSuggestion]:
    """R19: for the office, each player of one list (given as (id, display name)) whose display
    name another player of the list shares, group by group, with a display name that would tell
    them apart (`rules.players.distinct_display_name`, from the full names: None where nothing
    short of the whole surname would). Empty for anyone else: the suggestions read full names."""
    if not actor.is_office:
        return []
    groups = display_name_clashes(players)
    found = players_by_id(session, {player_id for ids in groups for player_id in ids})
    suggestions = []
    for ids in groups:
        group = [found[player_id] for player_id in ids if player_id in found]
        taken = [player.display_name for player in group]
        for player in group:
            others = [other.full_name for other in group if other.id != player.id]
            suggestions.append(NameSuggestion(player, distinct_display_name(player.full_name, others, taken)))
    return suggestions


def players_by_id(session: Session, ids: Iterable[int]) -> dict[int, Player]:
    wanted = set(ids)
    if not wanted:
        return {}
    return {player.id: player for player in session.scalars(select(Player).where(Player.id.in_(wanted)))}


def player_facts(session: Session, player_ids: Collection[int]) -> dict[int, PlayerFacts]:
    """What qualification reads of these players (R13, R14), in one query."""
    if not player_ids:
        return {}
    rows = session.connection().execute(  # plain rows: a national season's lists read tens of thousands
        select(Player.id, Player.display_name, Player.date_of_birth, Player.home_venue_id).where(
            _among(session, Player.id, sorted(player_ids))
        )
    )
    return {player_id: PlayerFacts(name, born, home) for player_id, name, born, home in rows}


def _among(session: Session, column: Any, ids: list[int]) -> ColumnElement[bool]:
    """`column IN ids`, as one array parameter on PostgreSQL (thousands of parameters are slow
    to bind there), as a plain IN list elsewhere."""
    if session.get_bind().dialect.name == "postgresql":
        return column == any_(bindparam("ids", ids, type_=ARRAY(Integer)))
    return column.in_(ids)
