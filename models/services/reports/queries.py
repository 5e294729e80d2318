"""Looking reports up, and who may see which (R17: a voided report counts nowhere, and only the
office can still read it, to settle a dispute)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import ColumnExpressionArgument, Select, select, true
from sqlalchemy.orm import Session, selectinload

from models.actor import Actor
from models.entities.players import Player
from models.entities.reports import Report, Result
from models.errors import NotFound
from models.services.access import acts_for
from models.services.paging import Page, PageRequest, paginate


def visible_reports(actor: Actor) -> ColumnExpressionArgument[bool]:
    """The one policy on who sees which report: live reports for everyone, voided ones for the
    office only."""
    return true() if actor.is_office else Report.live


# A report comes with its results, and their players (for display names), in two more queries.
# The answer names each result's player by id and display name: nothing more is loaded.
WITH_RESULTS = (
    selectinload(Report.results).selectinload(Result.player).load_only(Player.id, Player.display_name)
)


def get_report(session: Session, actor: Actor, tournament_id: int) -> Report:
    """A report this caller may see, with its results and their players; NotFound otherwise."""
    found = session.scalar(
        select(Report).where(Report.id == tournament_id, visible_reports(actor)).options(WITH_RESULTS)
    )
    if found is None:
        raise NotFound(f"There is no report with id {tournament_id}.")
    return found


def report_to_change(session: Session, actor: Actor, tournament_id: int) -> Report:
    """A report a correction or a void names: as `get_report`, but a voided one too for the
    venue's hosts, so that voiding it again (or correcting it) is told it was voided (R17a: the
    same 409 the office gets), not that it does not exist. Anyone else: NotFound."""
    found = session.scalar(select(Report).where(Report.id == tournament_id).options(WITH_RESULTS))
    if found is None or not (found.live or acts_for(actor, found.venue_id)):
        raise NotFound(f"There is no report with id {tournament_id}.")
    return found


def reporter_role(report: Report) -> str:
    """The reporter as a role anyone may see: a venue's host, or the office (the command line
    and imports are the office's)."""
    return "host" if report.reported_by_role == "host" else "office"


def reporter_seen_by(actor: Actor, report: Report) -> str:
    """R19: the reporting key's name (perhaps a person's) for the office and the venue's hosts;
    the role only for anyone else."""
    return report.reported_by if acts_for(actor, report.venue_id) else reporter_role(report)


@dataclass(frozen=True)
class SeenReport:
    """A report as one caller sees it (R19): who reported it is said as `reporter_seen_by`
    decides; everything else is the report's own."""

    report: Report
    reported_by: str
    reported_by_role: str

    def __getattr__(self, name: str) -> Any:
        return getattr(self.report, name)


def seen_by(actor: Actor, report: Report) -> SeenReport:
    return SeenReport(report, reporter_seen_by(actor, report), reporter_role(report))


@dataclass(frozen=True)
class ReportFilters:
    venue_id: int | None = None
    season_id: int | None = None
    kind: str | None = None
    from_: date | None = None
    to: date | None = None
    # Voided reports too, where the caller may see them (the office).
    include_voided: bool = False


def _filtered(actor: Actor, filters: ReportFilters, query: Select[Any]) -> Select[Any]:
    query = query.where(visible_reports(actor) if filters.include_voided else Report.live)
    if filters.venue_id is not None:
        query = query.where(Report.venue_id == filters.venue_id)
    if filters.season_id is not None:
        query = query.where(Report.season_id == filters.season_id)
    if filters.kind is not None:
        query = query.where(Report.kind == filters.kind)
    if filters.from_ is not None:
        query = query.where(Report.date >= filters.from_)
    if filters.to is not None:
        query = query.where(Report.date <= filters.to)
    return query.order_by(Report.date.desc(), Report.session.desc(), Report.id.desc())


def list_reports(
    session: Session, actor: Actor, filters: ReportFilters, page: PageRequest
) -> Page[SeenReport]:
    """Reports, newest first (by date, then session), with their results, as the caller sees
    them."""
    found = paginate(session, _filtered(actor, filters, select(Report).options(WITH_RESULTS)), page)
    return Page([seen_by(actor, report) for report in found.items], found.total, found.page, found.per_page)


class ReportPlace(NamedTuple):
    """Where a report is kept: its id, season and venue (its scope: `venue:S:V`)."""

    id: int
    season_id: int
    venue_id: int


def report_places(
    session: Session, actor: Actor, filters: ReportFilters, page: PageRequest
) -> Page[ReportPlace]:
    """The reports of `list_reports`'s page, as their places only (the caller may hold the rest)."""
    query: Any = select(Report.id, Report.season_id, Report.venue_id)
    found = paginate(session, _filtered(actor, filters, query), page, rows=True)
    return Page([ReportPlace(*row) for row in found.items], found.total, found.page, found.per_page)


class PlayerName(NamedTuple):
    id: int
    display_name: str


class ResultRow(NamedTuple):
    """A result as a report's answer shows it (`ResultOut`), read as a plain row."""

    place: int
    player: PlayerName
    status: str
    placement_points: int
    participation_points: int
    points: int
    knocked_out_by_id: int | None = None
    knockouts: int = 0
    knockout_points: int = 0


@dataclass(frozen=True)
class SeenWithRows(SeenReport):
    """A report as one caller sees it, its results read as plain rows (`ResultRow`)."""

    rows: list[ResultRow]

    @property
    def results(self) -> list[ResultRow]:
        return self.rows


def reports_seen_by(session: Session, actor: Actor, report_ids: Collection[int]) -> list[SeenWithRows]:
    """These reports with their results, as the caller sees them (in no particular order). The
    results are read as plain rows, by place: a page of reports holds a thousand, which cost more
    as ORM objects than everything else the page does."""
    ids = sorted(report_ids)
    reports = session.scalars(select(Report).where(Report.id.in_(ids)))
    rows: dict[int, list[ResultRow]] = {report_id: [] for report_id in ids}
    for (
        report_id,
        place,
        player_id,
        name,
        status,
        placement,
        participation,
        points,
        knocked_out_by_id,
        knockouts,
        knockout_points,
    ) in session.connection().execute(
        select(
            Result.tournament_id,
            Result.place,
            Player.id,
            Player.display_name,
            Result.status,
            Result.placement_points,
            Result.participation_points,
            Result.points,
            Result.knocked_out_by_id,
            Result.knockouts,
            Result.knockout_points,
        )
        .join(Player, Player.id == Result.player_id)
        .where(Result.tournament_id.in_(ids))
        .order_by(Result.tournament_id, Result.place)
    ):
        rows[report_id].append(
            ResultRow(
                place,
                PlayerName(player_id, name),
                status,
                placement,
                participation,
                points,
                knocked_out_by_id,
                knockouts,
                knockout_points,
            )
        )
    return [
        SeenWithRows(report, reporter_seen_by(actor, report), reporter_role(report), rows[report.id])
        for report in reports
    ]
