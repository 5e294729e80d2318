"""Notices: what a write accepted but someone should look at, e.g. a possible duplicate player
(R5). One typed value, each kind built here with its one wording; answers list them as
`warnings`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum

from models.rules.sanctions import SanctionKind


class NoticeCode(StrEnum):
    """Every kind of notice, by its code."""

    POSSIBLE_DUPLICATE = "possible_duplicate"
    EXISTING_PLAYER = "existing_player"
    MERGED_PLAYER = "merged_player"
    SANCTION_OVERRIDDEN = "sanction_overridden"
    AGE_UNVERIFIED = "age_unverified"
    MATCHES_REPORT = "matches_report"
    IGNORED_COLUMNS = "ignored_columns"
    # Added later, so at the end: the spec's enumeration keeps its order for generated clients.
    SANCTIONED_PLAYER_KEPT = "sanctioned_player_kept"
    RESULTS_STAND = "results_stand"
    FIRST_SHEET_READ = "first_sheet_read"
    LATE_REPORT = "late_report"
    OFF_SCHEDULE = "off_schedule"


NOTICE_CODES = tuple(code.value for code in NoticeCode)


@dataclass(frozen=True)
class ReportRef:
    """A stored report as a notice names it: what identifies it (its venue, date and session)."""

    id: int
    venue_id: int
    date: date
    session: int
    kind: str


@dataclass(frozen=True)
class LookAlikes:
    """What a possible-duplicate notice is made of (R5), kept so that it can be said again
    without the ids of players a dry run registered and never stored (`unregistered`)."""

    player_id: int
    display_name: str
    closest: tuple[int, ...]
    total: int
    path: str | None
    # The look-alikes' display names, by id ("Quinn H. (#71)"; an id alone where not given).
    names: Mapping[int, str] = field(default_factory=dict)

    def named(self, ids: Sequence[int]) -> str:
        return ", ".join(f"{self.names[i]} (#{i})" if i in self.names else f"#{i}" for i in ids)


@dataclass(frozen=True)
class Notice:
    code: NoticeCode
    message: str
    player_ids: tuple[int, ...]
    rule: str | None = None
    # The stored reports it is about (a sanction recorded late: the results inside it, R16).
    reports: tuple[ReportRef, ...] = ()
    # A possible duplicate's parts (R5).
    look_alikes: LookAlikes | None = field(default=None, compare=False)


def _at(path: str | None) -> str:
    return f"{path}: " if path else ""


# A notice lists this many look-alikes at most, the closest first.
DUPLICATES_LISTED = 10


def possible_duplicate(
    player_id: int,
    display_name: str,
    closest: Sequence[int],
    total: int,
    path: str | None = None,
    names: Mapping[int, str] | None = None,
) -> Notice:
    """R5: a new player was created whose name closely matches `total` players; `closest` are
    the closest of them (at most DUPLICATES_LISTED), closest first, named by display name and
    number (`names`): "place 7: the new player Quin H. (#90) closely matches Quinn H. (#71)"."""
    found = LookAlikes(player_id, display_name, tuple(closest), total, path, dict(names or {}))
    more = f" (the {len(closest)} closest of {total})" if total > len(closest) else ""
    return Notice(
        NoticeCode.POSSIBLE_DUPLICATE,
        f"{_at(path)}the new player {display_name} (#{player_id}) closely matches "
        f"{found.named(closest)}{more}; the office can merge them (R5).",
        tuple(closest),
        "R5",
        look_alikes=found,
    )


def unregistered(notice: Notice, registered: Mapping[int, str]) -> Notice:
    """A notice as a dry run says it: the players the write registered (by id, with the row that
    named each) were never stored, so no id of theirs is named. A possible duplicate names its
    new player by name alone, and a look-alike registered earlier in the same report by its row;
    `player_ids` keeps the stored players only. Other notices name stored players and reports."""
    found = notice.look_alikes
    if found is None or not registered:
        return notice
    stored = [i for i in found.closest if i not in registered]
    rows = [registered[i] for i in found.closest if i in registered]
    named = [found.named(stored)] if stored else []
    named += [f"the new player(s) of {', '.join(rows)}"] if rows else []
    more = f" (the {len(found.closest)} closest of {found.total})" if found.total > len(found.closest) else ""
    message = (
        f"{_at(found.path)}the new player {found.display_name} closely matches {' and '.join(named)}"
        f"{more}; once stored, the office can merge them (R5)."
    )
    return replace(notice, message=message, player_ids=tuple(stored))


def existing_player(path: str, email: str, player_id: int) -> Notice:
    """R5: a `new_player` whose email is registered (to the same name) named that player."""
    return Notice(
        NoticeCode.EXISTING_PLAYER,
        f"{_at(path)}{email} already belongs to player {player_id}, who was used instead of "
        "registering a new player (R5).",
        (player_id,),
        "R5",
    )


def merged_player(path: str, merged_id: int, survivor_id: int) -> Notice:
    """R17: a report named a player merged into another; the survivor was used."""
    return Notice(
        NoticeCode.MERGED_PLAYER,
        f"{_at(path)}player {merged_id} was merged into player {survivor_id}, who was used (R17).",
        (survivor_id,),
        "R17",
    )


def sanction_overridden(row: int, player_id: int, sanction_id: int) -> Notice:
    """R16: the office let a sanctioned player's result stand, with a reason (audited)."""
    return Notice(
        NoticeCode.SANCTION_OVERRIDDEN,
        f"results.{row}: player {player_id} is under sanction {sanction_id}; the office overrode it (R16).",
        (player_id,),
        "R16",
    )


def sanctioned_player_kept(row: int, player_id: int, sanction_id: int) -> Notice:
    """R16: a correction kept the row of a player the stored report already held, though a
    sanction (recorded after the fact) bars them that day: a correction is refused only for the
    players it adds."""
    return Notice(
        NoticeCode.SANCTIONED_PLAYER_KEPT,
        f"results.{row}: player {player_id} is under sanction {sanction_id} on this report's date, "
        "but was already in the stored report: their row stands (R16).",
        (player_id,),
        "R16",
    )


# A notice of results inside a late sanction lists this many reports in its message at most (its
# `reports` lists them all).
REPORTS_LISTED = 10


def results_stand(kind: str, player_id: int, reports: Sequence[ReportRef]) -> Notice:
    """R16: a sanction recorded after the fact covers stored live results of its player (a
    suspension: at any venue; a ban: at its venue); they stand, and the office is told which."""
    what = "suspension" if kind == SanctionKind.SUSPENSION else "venue ban"
    count = "1 stored result falls" if len(reports) == 1 else f"{len(reports)} stored results fall"
    listed = "; ".join(
        f"report {r.id} (venue {r.venue_id}, {r.date.isoformat()}, session {r.session})"
        for r in reports[:REPORTS_LISTED]
    )
    more = f"; and {len(reports) - REPORTS_LISTED} more" if len(reports) > REPORTS_LISTED else ""
    stand = "it stands" if len(reports) == 1 else "they stand"
    return Notice(
        NoticeCode.RESULTS_STAND,
        f"R16: {count} inside this {what}; {stand} (player {player_id}, standings unchanged): "
        f"{listed}{more}.",
        (player_id,),
        "R16",
        tuple(reports),
    )


def age_unverified(row: int, player_id: int) -> Notice:
    """R3: a championship entrant whose date of birth is unknown, so min_age is not checked."""
    return Notice(
        NoticeCode.AGE_UNVERIFIED,
        f"results.{row}: player {player_id} has no date of birth on record; min_age is unverified (R3).",
        (player_id,),
        "R3",
    )


def matches_report(report_id: int, session: int) -> Notice:
    """The same finishing order as a report already stored that day: posted twice by mistake?"""
    return Notice(
        NoticeCode.MATCHES_REPORT,
        f"These results match report {report_id} (session {session}) of the same venue and day: "
        "if this is the same tournament posted twice, void one.",
        (),
        None,
    )


def ignored_columns(names: list[str]) -> Notice:
    """A spreadsheet's columns the report does not use (Notes, Tips…), read past."""
    return Notice(NoticeCode.IGNORED_COLUMNS, f"Columns ignored: {', '.join(names)}.", (), None)


def first_sheet_read(name: str, sheets: int) -> Notice:
    """A workbook of several sheets, none named Results: its first sheet was read."""
    return Notice(
        NoticeCode.FIRST_SHEET_READ,
        f'The workbook has {sheets} sheets and none is named "Results": the first, "{name}", was read.',
        (),
        None,
    )


def late_report(why: str, published: bool) -> Notice:
    """R17: the office reported a night a host no longer may (with its reason, audited)."""
    after = (
        " The published lists stay official; the change shows as a difference from them until the "
        "office publishes again (R12)."
        if published
        else ""
    )
    return Notice(
        NoticeCode.LATE_REPORT, f"Reported by the office after the hosts' limit: {why}.{after}", (), "R17"
    )


# A row of a report as a path names it (`results.6`, `results.6.new_player.email`).
ROW_PATH = re.compile(r"\bresults\.(\d+)(?:\.[a-z_]+)*")


def placed(notice: Notice, places: Sequence[int]) -> Notice:
    """A report's notice in a host's words: each row it names by its place ("place 7: the new
    player …"), not by a JSON path (`places` holds each row's place)."""

    def place(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return f"place {places[index]}" if index < len(places) else match.group(0)

    found = notice.look_alikes
    if found is not None and found.path:
        found = replace(found, path=ROW_PATH.sub(place, found.path))
    return replace(notice, message=ROW_PATH.sub(place, notice.message), look_alikes=found)


def off_schedule(why: str) -> Notice:
    """R2: a report dated on a night the schedule cancelled, or on a day with no night and no
    make-up: stored (make-ups are played before anyone records them), and said."""
    return Notice(
        NoticeCode.OFF_SCHEDULE,
        f"Off the venue's schedule: {why}. If this was a make-up night, record it in the schedule.",
        (),
        "R2",
    )
