"""Seasons (R2): create and change them, refusing overlaps and reports left outside."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import SEASON_DEFAULTS, Season, SeasonRegion
from models.errors import InvalidInput
from models.services.audit_log.writes import record, record_update, snapshot
from models.services.locks import take_season
from models.services.seasons.checks import check_settings, refuse_orphans, refuse_overlap
from models.services.standings.lines import LINE_SETTINGS, refresh_lines

SETTINGS = tuple(SEASON_DEFAULTS)
# The season settings that change what a stored result earned (R7, R8).
SCORING_SETTINGS = (
    "points_chart_id",
    "participation_points",
    "absent_keeps_place_points",
    "knockout_points",
    "bounty",
    "bounty_points",
)

# R7, R8: what rescores a season's stored results when its chart or a scoring setting changes.
# The results are the tournaments', whose services read the seasons: so the seasons call it
# through this slot, which services/reports/scoring.py fills when it is imported (the app
# imports it with the reports' views), and never import the tournaments.
Rescore = Callable[[Session, Season], int]
_RESCORE: list[Rescore] = []


def rescores_seasons(rescore: Rescore) -> Rescore:
    """Makes `rescore` the one function a change of a season's scoring calls (a decorator)."""
    _RESCORE[:] = [rescore]
    return rescore


def rescore_season(session: Session, season: Season) -> int:
    """The season's stored results rescored by the registered function: how many changed."""
    if not _RESCORE:
        raise RuntimeError("Nothing rescores a season: models.services.reports.scoring is not imported.")
    return _RESCORE[0](session, season)


def season_snapshot(season: Season) -> dict[str, Any]:
    return snapshot(season, region_ids=season.region_ids)


def _apply(session: Session, season: Season, data: dict[str, Any]) -> None:
    """Write changes in an order that lets the database's R2 triggers judge only the final state.

    Regions that go away are removed first, then the season row changes, then regions are added:
    each step's coverage is a subset of the final one, so a trigger never refuses a valid change.
    """
    wanted = None
    if "region_ids" in data:
        wanted = sorted(set(data["region_ids"] or []))
        season.region_links = [link for link in season.region_links if link.region_id in wanted]
        session.flush()
    for key, value in data.items():
        if key != "region_ids":
            setattr(season, key, value)
    if wanted is not None:
        season.all_regions = not wanted
    session.add(season)
    session.flush()
    if wanted is not None:
        have = set(season.region_ids)
        season.region_links.extend(SeasonRegion(region_id=r) for r in wanted if r not in have)
        session.flush()


def create_season(session: Session, actor: Actor, data: dict[str, Any]) -> Season:
    full = {**SEASON_DEFAULTS, "region_ids": [], **data}
    check_settings(session, full)
    refuse_overlap(session, full, None)
    season = Season()
    _apply(session, season, full)
    record(session, actor, "season.create", "season", season.id, after=season_snapshot(season))
    return season


def update_season(
    session: Session, actor: Actor, season: Season, changes: dict[str, Any], reason: str | None = None
) -> tuple[Season, int]:
    """Change a season's dates, regions or settings; returns it and how many stored results a
    change of chart or scoring setting rescored (R7, R8). A change that rescores results needs a
    reason, kept in the audit log (R18)."""
    season, before, rescored = change_season(session, season, changes)
    if rescored and not reason:
        raise InvalidInput.at(
            "reason", f"This change rescores {rescored} stored result(s): say why, for the audit log (R18)."
        )
    record_update(
        session,
        actor,
        "season.update",
        "season",
        season.id,
        before=before,
        after=season_snapshot(season),
        reason=reason,
        rescored_results=rescored,
    )
    return season, rescored


def change_season(
    session: Session, season: Season, changes: dict[str, Any]
) -> tuple[Season, dict[str, Any], int]:
    """The change checked and written, the stored results and standing lines following it: the
    season, its snapshot from before, and how many results were rescored. Neither audited nor
    asked for a reason: `update_season` does both, and a preview (previews.py) rolls it back.
    The season is locked before anything is read (locks.py): a report reading its settings
    commits first, or waits for this change and is scored by it (R17a)."""
    season = take_season(session, season)
    before = season_snapshot(season)
    merged = {**before_values(season), **changes}
    check_settings(session, merged)
    refuse_overlap(session, merged, season.id)
    refuse_orphans(session, season, merged)
    _apply(session, season, changes)
    rescored = 0
    if any(name in changes and changes[name] != before.get(name) for name in SCORING_SETTINGS):
        # R7, R8: stored results and so every standing follow the new chart and settings.
        rescored = rescore_season(session, season)
    if not rescored and any(name in changes for name in LINE_SETTINGS):
        # R9, R10: the stored standing lines follow the new bonus tiers and count.
        refresh_lines(session, season)
    return season, before, rescored


def before_values(season: Season) -> dict[str, Any]:
    values = {key: getattr(season, key) for key in SETTINGS}
    values.update(
        name=season.name,
        starts_on=season.starts_on,
        ends_on=season.ends_on,
        championship_date=season.championship_date,
        points_chart_id=season.points_chart_id,
        region_ids=season.region_ids,
    )
    return values
