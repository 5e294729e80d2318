"""Reading qualification (R3, R12-R14): every venue's qualifier list of a season, computed from the
stored results (the pure rules decide: rules/qualification.py), or as the office published it;
what changed since; where a player qualified or why not. The lists' shape, and what is read
from them, are rules/qualifier_lists.py's."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, NamedTuple, cast

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from models.actor import Actor
from models.entities.league import Season
from models.entities.players import Player
from models.entities.qualifiers import Disqualification, QualifierPublication
from models.errors import NotFound
from models.freshness.memos import cached_by_league
from models.freshness.scopes import Scope
from models.freshness.versions import league_version, season_versions
from models.infra import clock
from models.rules.qualifier_lists import (
    Changes,
    SeasonOfPlayer,
    VenueList,
    differences,
    draws_of,
    public_list,
    season_of_player,
    venue_of,
)
from models.rules.qualifiers import (
    provisional,
)
from models.services import wall_clock
from models.services.access import acts_for
from models.services.lookup import get_or_raise
from models.services.paging import Page, PageRequest, paginate
from models.services.qualifiers.lists import DrawnAt, drawn_lists
from models.services.standings.queries import Played


def latest_publication(session: Session, season_id: int) -> QualifierPublication | None:
    found = latest_publication_ids(session, [season_id]).get(season_id)
    return None if found is None else session.get(QualifierPublication, found)


def latest_publication_ids(session: Session, season_ids: Collection[int]) -> dict[int, int]:
    """The id of the newest publication of each of these seasons that has one. Every season's are
    read at once (publications are few), cached by the epoch and the `league` scope's version (a
    publication bumps it), so a report leaves them cached."""

    def every_season() -> dict[int, int]:
        rows = session.execute(
            select(QualifierPublication.season_id, func.max(QualifierPublication.id)).group_by(
                QualifierPublication.season_id
            )
        )
        return {season_id: publication_id for season_id, publication_id in rows}

    every = cached_by_league(session, "newest publications", every_season)
    return {season_id: every[season_id] for season_id in season_ids if season_id in every}


class _Published(NamedTuple):
    """A publication's lists as a profile reads them: where each player qualified (the first
    venue, in the lists' order, that names them), and each venue's list as JSON, read back only
    for the venues a player played (a national publication is thousands of lists: parsing them
    all for each profile cost more than the rest of it)."""

    qualified_at: dict[int, int]
    venues: dict[int, str]

    def venue(self, venue_id: int) -> VenueList:
        return cast(VenueList, json.loads(self.venues[venue_id]))


def _published(session: Session, publication_id: int) -> _Published:
    """A publication's lists (`_Published`), cached under the `league` scope's version: a
    publication changes only by a write that bumps it (an erasure rewrites its names, R21)."""

    def read() -> _Published:
        lists = session.scalar(
            select(QualifierPublication.lists).where(QualifierPublication.id == publication_id)
        )
        qualified_at: dict[int, int] = {}
        for venue in lists or []:
            for qualifier in venue["qualifiers"]:
                qualified_at.setdefault(qualifier["player"]["id"], venue["venue_id"])
        return _Published(qualified_at, {venue["venue_id"]: json.dumps(venue) for venue in lists or []})

    return cached_by_league(session, ("publication", publication_id), read)


# `season_qualification`'s publication when the caller has not read it.
_UNREAD: Any = object()


@dataclass(frozen=True)
class Qualification:
    """A season's qualifier lists as a caller reads them: the published ones once there are
    some (with what changed since), else the current computation."""

    season: Season
    lists: list[VenueList]
    publication: QualifierPublication | None
    changes: Changes | None
    zone: str  # the league's (R2a): a season's end and a publication's day are read there
    # What each list is known by (the versions it was drawn or published at: a memo of what is
    # made from it keys it by this), in the lists' order; None: not known.
    drawn: Sequence[DrawnAt | None] | None = None

    @property
    def provisional(self) -> bool:
        return provisional(self.season.ends_on, clock.today_in(self.zone))

    @property
    def published_on(self) -> date | None:
        """The day of publication on the league's wall clock (R2a)."""
        if self.publication is None:
            return None
        return clock.local_time(self.publication.published_at, self.zone).date()

    def venue(self, venue_id: int) -> VenueList:
        found = venue_of(self.lists, venue_id)
        if found is None:
            raise NotFound(f"Season {self.season.id} has no qualifier list for venue {venue_id}.")
        return found


def season_qualification(
    session: Session,
    season: Season,
    current: bool = False,
    changes: bool = True,
    publication: QualifierPublication | None = _UNREAD,
) -> Qualification:
    """R12: the official lists (the newest publication) with the changes since, or, before any
    publication or when `current` is asked, the lists as the results stand now. Without
    `changes`, published lists are answered as they are, computing nothing. `publication` and
    `versions`: the season's newest publication and versions, when the caller read them already
    (a profile reads those of all its seasons at once)."""
    if publication is _UNREAD:
        publication = latest_publication(session, season.id)
    zone = wall_clock.league_zone(session)
    published = None if publication is None else _known_by(session, publication)
    if publication is not None and not current and not changes:
        return Qualification(season, publication.lists, publication, None, zone, published)
    draws = draws_of(publication.settlements if publication else [])
    live, drawn = drawn_lists(session, season, draws)
    if publication is None or current:
        return Qualification(season, live, None if current else publication, None, zone, drawn)
    changed = differences(publication.lists, live)
    return Qualification(season, publication.lists, publication, changed, zone, published)


def _known_by(session: Session, publication: QualifierPublication) -> list[DrawnAt | None]:
    """What a publication's lists are known by: the publication, at the `league` scope's version
    (which every change to a publication bumps)."""
    at = DrawnAt(("publication", publication.id), ((Scope.LEAGUE, league_version(session)),))
    return [at] * len(publication.lists or [])


def lists_as_seen_by(actor: Actor, lists: Sequence[VenueList]) -> list[VenueList]:
    """R13, R19: the one place that decides who reads why a player is skipped, for every answer
    (a venue's list, the season's, their CSV, a profile, the embedded page): the office and a
    venue's hosts read that venue's list as it is; everyone else reads it as the public does
    (`public_list`: `ineligible` for a reason drawn from personal or discipline records, no
    `age_unverified`). Answers are cached by the caller's audience (the public, the office, a host's
    set of venues), which decides this whole."""
    return [venue if acts_for(actor, venue["venue_id"]) else public_list(venue) for venue in lists]


def qualification_seen_by(actor: Actor, found: Qualification) -> Qualification:
    """A season's lists as this caller may read them (`lists_as_seen_by`), each known by what it
    was known by and how it was read (as it is, or as the public reads it)."""
    drawn = None
    if found.drawn is not None:
        drawn = [
            None
            if at is None
            else at._replace(asked=(at.asked, venue["venue_id"], acts_for(actor, venue["venue_id"])))
            for at, venue in zip(found.drawn, found.lists, strict=True)
        ]
    return replace(found, lists=lists_as_seen_by(actor, found.lists), drawn=drawn)


def qualification_of(session: Session, actor: Actor, season_id: int, current: bool = False) -> Qualification:
    """A season's lists (`season_qualification`) as this caller may read them."""
    season = get_or_raise(session, Season, season_id, "season")
    return qualification_seen_by(actor, season_qualification(session, season, current))


def player_qualification(
    session: Session, actor: Actor, player: Player, played: Played
) -> list[SeasonOfPlayer]:
    """Where a player qualified in each season they played (`played`: their seasons and venues,
    as `player_seasons` read them), or why not, venue by venue, as this caller may read the lists
    (`lists_as_seen_by`)."""
    venues_by_season = {season_id: venue_ids for season_id, (_s, venue_ids) in played.seasons.items()}
    answer: list[SeasonOfPlayer] = []
    # The seasons' versions and newest publications read together (the versions are held for
    # the request: the lists read them again without a query).
    season_versions(session, venues_by_season)
    publications = latest_publication_ids(session, venues_by_season)
    zone = wall_clock.league_zone(session)
    for season_id, venue_ids in venues_by_season.items():
        season = played.seasons[season_id][0]
        publication_id = publications.get(season_id)
        if publication_id is not None:
            # Published: as published, computing nothing, and reading back only the played
            # venues' lists and the one the player qualified at.
            published = _published(session, publication_id)
            wanted = [v for v in venue_ids if v in published.venues]
            elsewhere = published.qualified_at.get(player.id)
            if elsewhere is not None and elsewhere not in wanted:
                wanted.append(elsewhere)
            # The played lists only (who reads them is decided below); R12's provisional as
            # Qualification says it.
            found = Qualification(season, [published.venue(v) for v in wanted], None, None, zone)
        else:
            found = season_qualification(session, season, changes=False, publication=None)
        lists, is_provisional = found.lists, found.provisional
        # Only the lists of the venues played are read beyond who qualified where (which no
        # caller's view changes): only those are put as this caller may read them (a national
        # season has hundreds of others).
        played_here = set(venue_ids)
        seen = {
            venue["venue_id"]: venue
            for venue in lists_as_seen_by(actor, [v for v in lists if v["venue_id"] in played_here])
        }
        lists = [seen.get(venue["venue_id"], venue) for venue in lists]
        answer.append(
            season_of_player(
                season_id, lists, is_provisional, publication_id is not None, player.id, venue_ids
            )
        )
    return answer


def publications_of(session: Session, season: Season) -> list[QualifierPublication]:
    """R12: every publication of the season's lists, newest first (the newest is the official
    one): when, by whom, with what note and settlements; the lists themselves are not read."""
    query = (
        select(QualifierPublication)
        .where(QualifierPublication.season_id == season.id)
        .options(defer(QualifierPublication.lists))
        .order_by(QualifierPublication.id.desc())
    )
    return list(session.scalars(query))


def disqualifications_of(session: Session, season: Season, page: PageRequest) -> Page[Disqualification]:
    """R13: a season's disqualifications, withdrawn ones too, oldest first."""
    query = (
        select(Disqualification).where(Disqualification.season_id == season.id).order_by(Disqualification.id)
    )
    return paginate(session, query, page)


def get_disqualification(session: Session, season_id: int, disqualification_id: int) -> Disqualification:
    found = session.get(Disqualification, disqualification_id)
    if found is None or found.season_id != season_id:
        raise NotFound(f"Season {season_id} has no disqualification with id {disqualification_id}.")
    return found
