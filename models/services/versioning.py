"""The league's data version (models/entities/service.py): read before a cached answer, renewed
after a restore."""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from typing import NamedTuple

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from models.entities.league import Season
from models.entities.service import DataVersion, ScopeVersion

# A session that only reads (a GET's) may carry in its `info`, under MEMO, a mapping in which
# what it computes is kept under the data version it read: it holds no uncommitted change of its
# own, so nothing it keeps can be taken for another transaction's data. A writer never has one.
MEMO = "memo"


def data_version(session: Session) -> tuple[str, int]:
    """(epoch, version) as this transaction sees it. Read it first: whatever the answer then reads
    is at least as new, so an answer is never filed under a newer version than its data."""
    row = session.execute(select(DataVersion.epoch, DataVersion.version)).one()
    return row.epoch, row.version


def scope_versions(session: Session, scopes: Sequence[str]) -> tuple[int, ...]:
    """The versions of these scopes (migration 0022) as this transaction sees them, in the order
    given (0 for a scope never changed). Read first, like `data_version`."""
    found = dict(
        session.execute(
            select(ScopeVersion.scope, ScopeVersion.version).where(ScopeVersion.scope.in_(scopes))
        ).all()
    )
    return tuple(found.get(scope, 0) for scope in scopes)


def season_scopes(season_id: int) -> tuple[str, str]:
    """What a season's qualifier lists read: everything of the season, and the league's rest."""
    return ("league", f"season:{season_id}")


class SeasonVersions(NamedTuple):
    """What a season's kept lists are filed under: the data version (its epoch), and the versions
    of the `league` scope and of the season's."""

    data: tuple[str, int]
    league: int
    season: int


def season_versions(session: Session, season_ids: Collection[int]) -> dict[int, SeasonVersions]:
    """`SeasonVersions` of these seasons, read together (a profile reads the lists of every season
    a player played): two queries, not two a season. Read first, like `data_version`."""
    data = data_version(session)
    ordered = sorted(season_ids)
    league, *seasons = scope_versions(session, ["league", *(season_scopes(s)[1] for s in ordered)])
    return {season_id: SeasonVersions(data, league, v) for season_id, v in zip(ordered, seasons, strict=True)}


def venue_scopes(season_id: int, venue_id: int) -> tuple[str, str]:
    """What a venue's standings in a season read: that venue's reports of the season, and the
    league's rest."""
    return ("league", f"venue:{season_id}:{venue_id}")


def report_scope(report_id: int) -> str:
    """What one report's answer reads of its own (migration 0024): the report and its results."""
    return f"report:{report_id}"


def renew_epoch(session: Session) -> str:
    """After restoring a backup, versions repeat: a new epoch retires every cached answer."""
    epoch = secrets.token_hex(16)
    session.execute(update(DataVersion).values(epoch=epoch, version=DataVersion.version + 1))
    return epoch


def venue_versions(session: Session, season_id: int) -> dict[int, int]:
    """The version of every venue's scope in a season (`venue:S:V`), by venue id: those never
    changed have none (read them as 0). Read first, like `data_version`."""
    prefix = f"venue:{season_id}:"
    rows = session.execute(
        select(ScopeVersion.scope, ScopeVersion.version).where(
            # The scopes between "venue:S:" and "venue:S;" (';' follows ':'): those of season S.
            ScopeVersion.scope > prefix,
            ScopeVersion.scope < prefix[:-1] + ";",
        )
    )
    return {int(scope[len(prefix) :]): version for scope, version in rows}


def season_ids(session: Session) -> list[int]:
    """Every season's id (a new season moves the `league` scope on)."""
    return list(session.scalars(select(Season.id).order_by(Season.id)))
