"""R22: a venue's standings as they would stand if the night ended now: the season's chart
(R7-R8) on the night's order so far, added to the standings (R9-R11). Players out have their
places; the players still in share the lowest place still open, what each of them has made
sure of (their points can only grow). Once the night is the venue's report, the standings are
the standings, and the night's points are its report's. Nothing is written: the answer is
computed from the stored lines, the night's players' own results and the night."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from models.entities import Night, NightEntry, Player, Season
from models.entities.reports import Report, Result
from models.freshness.memos import SMALL_MEMO, added_to, cached_by_scopes
from models.freshness.scopes import venue_scopes
from models.rules.charts import Unscorable, sentence
from models.rules.nights import Out, places
from models.rules.players import player_labels
from models.rules.reports import Earned, score_report
from models.rules.standings import Entry, Line, Row, line_of, ranked_lines
from models.services.nights.players_out import REPORTED_STATUS
from models.services.reports.knockouts import bounty_holders
from models.services.reports.scoring import chart_rule
from models.services.standings.line_queries import counted_results, season_tiers, stored_lines, summed_lines
from models.services.standings.queries import venue_totals


@dataclass(frozen=True)
class Tonight:
    """A player's night in the projection: the place (the lowest open one while still in) and
    the points it brings (placement and participation, R6-R8)."""

    place: int
    points: int
    still_in: bool


@dataclass(frozen=True)
class ProjectedRow:
    row: Row
    label: str  # R19: the display name, with the player number where two rows share one
    rank_before: int | None  # before tonight (None: not in the standings before it)
    tonight: Tonight | None


@dataclass(frozen=True)
class Projection:
    season_id: int
    final: bool  # the night is the venue's report: these are the standings
    tournaments: int  # the venue's regular tournaments in the season, tonight's counted
    rows: list[ProjectedRow]
    unscored: str | None  # why tonight brings no points yet (e.g. too few entrants for the chart)


@dataclass(frozen=True)
class _Before:
    """The venue's standings before tonight: what a night's actions leave as it was, so each
    action's projection reads only the night (its lines, the tournaments counted, who carries
    the bounty tonight, R8a, and the ranks), and, player by player as they sign in, their
    earlier results counted here and their names. Cached under the venue's versions: a report
    there (tonight's own too) retires it."""

    stored: list[Line]
    counted: int
    holders: set[int]
    ranks: dict[int, int]
    earlier: dict[int, tuple[str, list[Entry]]]  # filled as players sign in (`_earlier`)


def projected_standings(session: Session, night: Night) -> Projection:
    season = session.get(Season, night.season_id)
    assert season is not None  # a night is opened inside a season (R2)
    venue_id = night.venue_id
    if night.state == "reported" and night.tournament_id is not None:
        stored = dict(stored_lines(session, season, [venue_id])).get(venue_id, [])
        totals = venue_totals(session, season, [venue_id], season.ends_on).get(venue_id)
        counted = totals.tournaments if totals else 0
        return _reported(session, season, venue_id, night.tournament_id, stored, counted)
    before = _before(session, season, night)
    entries = list(session.scalars(select(NightEntry).where(NightEntry.night_id == night.id)))
    tonight, unscored = _scored_tonight(season, night, entries, before.holders)
    if not tonight:
        return _projection(season, False, before.counted, before.ranks, before.stored, {}, unscored)
    ids = sorted(tonight)
    earlier = _earlier(session, season, venue_id, before, ids)
    after = [line for line in before.stored if line.player_id not in tonight]
    for pid in ids:
        place, status, made, _still_in = tonight[pid]
        entry = Entry(
            0,
            place,
            status,
            made.placement_points,
            made.participation_points,
            made.knockout_points,
            made.knockouts,
        )
        name, entries_before = earlier[pid]
        after.append(line_of(pid, name, [*entries_before, entry], season.count_best))
    shown = {pid: Tonight(t[0], t[2].points, t[3]) for pid, t in tonight.items()}
    return _projection(season, False, before.counted + 1, before.ranks, after, shown, None)


def _before(session: Session, season: Season, night: Night) -> _Before:
    venue_id = night.venue_id

    def compute() -> _Before:
        stored = dict(stored_lines(session, season, [venue_id])).get(venue_id, [])
        totals = venue_totals(session, season, [venue_id], season.ends_on).get(venue_id)
        holders = bounty_holders(session, season, venue_id, night.date, night.session, stored)
        ranks = {row.player_id: row.rank for row in ranked_lines(stored, season_tiers(season))}
        return _Before(stored, totals.tournaments if totals else 0, holders, ranks, {})

    key = ("venue before tonight", season.id, venue_id, night.date, night.session)
    return cached_by_scopes(session, key, venue_scopes(season.id, venue_id), compute, memo=SMALL_MEMO)


def _earlier(
    session: Session, season: Season, venue_id: int, before: _Before, ids: list[int]
) -> dict[int, tuple[str, list[Entry]]]:
    """Tonight's players' names and earlier results counted at the venue, those not read yet
    read in two queries, and kept with the rest of `before` (read at its versions)."""
    unread = [pid for pid in ids if pid not in before.earlier]

    def read() -> dict[int, tuple[str, list[Entry]]]:
        named = session.execute(select(Player.id, Player.display_name).where(Player.id.in_(unread)))
        found: dict[int, tuple[str, list[Entry]]] = {row.id: (row.display_name, []) for row in named}
        for row in session.execute(_entries_of(season, venue_id, unread)):
            found[row.player_id][1].append(Entry(row.tournament_id, row.place, row.status, *row[4:]))
        return found

    if unread:
        key = ("earlier results", season.id, venue_id)
        before.earlier.update(added_to(key, venue_scopes(season.id, venue_id), read))
    return before.earlier


Scored = dict[int, tuple[int, str, Earned, bool]]


def _scored_tonight(
    season: Season, night: Night, entries: Sequence[NightEntry], holders: set[int]
) -> tuple[Scored, str | None]:
    """Each player's (place, status, what the night earns them, still in), or why the chart
    cannot score the night yet. Knockouts so far count (R8a), a bounty on `holders`."""
    if not entries:
        return {}, None
    if night.places:
        placed = {int(pid): place for pid, place in night.places.items()}
    else:
        out = [Out(e.player_id, e.out_hand or 0, e.out_rank or 0) for e in entries if e.status != "playing"]
        placed = places(len(entries), out)
    left = sum(1 for e in entries if e.player_id not in placed)
    rows = [(e.player_id, placed.get(e.player_id, left), REPORTED_STATUS[e.status]) for e in entries]
    row_of = {e.player_id: n for n, e in enumerate(entries)}
    try:
        earned = score_report(
            chart_rule(season.points_chart),
            [(place, status) for _, place, status in rows],
            season.participation_points,
            season.absent_keeps_place_points,
            [row_of.get(e.knocked_out_by_id) if e.knocked_out_by_id else None for e in entries],
            season.knockout_rule,
            {row_of[pid] for pid in holders if pid in row_of},
        )
    except Unscorable as exc:
        return {}, sentence(exc)
    return {
        pid: (place, status, made, pid not in placed)
        for (pid, place, status), made in zip(rows, earned, strict=True)
    }, None


def _entries_of(
    season: Season, venue_id: int, player_ids: list[int]
) -> Select[int, int, int, str, int, int, int, int]:
    """These players' results that count at the venue in the season (R1), as Entries."""
    return (
        select(
            Result.player_id,
            Result.tournament_id,
            Result.place,
            Result.status,
            Result.placement_points,
            Result.participation_points,
            Result.knockout_points,
            Result.knockouts,
        )
        .join(Report, Report.id == Result.tournament_id)
        .where(*counted_results(season, [venue_id], players=player_ids))
    )


def _reported(
    session: Session, season: Season, venue_id: int, tournament_id: int, stored: list[Line], counted: int
) -> Projection:
    """The night is its report: the standings as stored, and before it, summed without it."""
    others = (*counted_results(season, [venue_id]), Report.id != tournament_id)
    before = dict(summed_lines(session, season, others)).get(venue_id, [])
    results = session.execute(
        select(Result.player_id, Result.place, Result.points).where(Result.tournament_id == tournament_id)
    )
    shown = {row.player_id: Tonight(row.place, row.points, False) for row in results}
    ranks = {row.player_id: row.rank for row in ranked_lines(before, season_tiers(season))}
    return _projection(season, True, counted, ranks, stored, shown, None)


def _projection(
    season: Season,
    final: bool,
    tournaments: int,
    ranks: dict[int, int],
    after: list[Line],
    tonight: dict[int, Tonight],
    unscored: str | None,
) -> Projection:
    """`after` ranked, each row with its rank before tonight (`ranks`)."""
    rows = ranked_lines(after, season_tiers(season))
    labels = player_labels((row.player_id, row.display_name) for row in rows)
    return Projection(
        season.id,
        final,
        tournaments,
        [
            ProjectedRow(row, labels[row.player_id], ranks.get(row.player_id), tonight.get(row.player_id))
            for row in rows
        ],
        unscored,
    )
