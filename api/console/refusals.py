"""A refused report as the console says it to a bar manager: the lead sentence names the actual
problem (the rows marked below, or what no row is blamed for: a night in the future, a session
already reported, a correction window that closed), each sheet row's reasons stand in full under
that row, in the sheet's words ("Row 4 (place 3): …", as `csv_body` relabels them), and a night
already reported offers the next session. The refusal itself is the API's, never the console's;
its words are said for people by api/words (labels, players by name, dates, the rule linked)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from api.people_dates import people_date, words
from api.words import FORMS, Said, flat_labels, phrase, summary_of
from models.errors import LeagueError
from models.rules.drafts import LAST_SESSION

REPORT_LABELS = flat_labels(FORMS["report"])
# How `csv_body` names a sheet's row before its reason: "Row 4 (place 3), column Email: ".
ROW_LABEL = re.compile(r"^Row \d+(?: \(place [^)]*\))?(?:, column [^:]*)?: ")
ROW_MENTION = re.compile(r"\brow \d+ \(place (\d+)\)")


def plain(message: str, rule: str | None = None, venue_id: str | None = None) -> Said:
    """A refusal's message in words for people (api/words.phrase: labels, codes as words, dates as
    the league says them, "Tue 1 Dec 2026"), with the rule behind it; the report's own venue,
    which the API names by id, is "this venue"."""
    row = ROW_LABEL.match(message)  # the sheet's own row and column, as its header names it
    said = phrase(message[row.end() :] if row else message, REPORT_LABELS, None, words())
    if row:
        said = Said(row.group(0) + said, said.rule)
    if venue_id:
        said = Said(re.sub(rf"\b[Vv]enue {re.escape(venue_id)}\b", "this venue", said), said.rule)
    return Said(said, said.rule or rule)


def unrowed(message: Said) -> Said:
    """A reason written under a typed row: the sheet's row numbers (of the sheet the typed rows
    became) mean nothing there, so rows are named by place."""
    return Said(ROW_MENTION.sub(r"place \1", ROW_LABEL.sub("", message)), message.rule)


@dataclass(frozen=True)
class Refused:
    """A refusal for a page: its lead sentence, what no row is blamed for, each sheet row's reasons
    (by the row's index in the sheet), and for a night already reported the session to offer."""

    status: int
    lead: Said
    general: list[Said] = field(default_factory=list)
    by_row: dict[int, list[Said]] = field(default_factory=dict)
    next_session: int | None = None
    asks_reason: bool = False  # R17: a night reported late, by the office, without its reason
    asks_override: bool = False  # R16: a suspended or banned player named, with no override


def row_of(path: str, rows: int) -> int | None:
    """The sheet row a problem's path names ("results.3", "results.3.email"), if one of `rows`."""
    parts = path.split(".")
    if len(parts) >= 2 and parts[0] == "results" and parts[1].isdigit() and int(parts[1]) < rows:
        return int(parts[1])
    return None


def told(refusal: LeagueError, rows: int, fields: Mapping[str, str], again: str) -> Refused:
    """The refusal of a sheet of `rows` rows, posted with these `fields` (date, session): its
    problems under their rows, the rest above them; `again` says what to do once the rows are
    changed."""
    session_no = fields["session"]
    by_row: dict[int, list[Said]] = {}
    general: list[Said] = []
    for problem in refusal.problems:
        index = row_of(problem.path, rows)
        said = plain(problem.message, problem.rule, fields.get("venue_id"))
        if index is None:
            if said not in general:
                general.append(said)
        elif said not in by_row.get(index, []):
            by_row.setdefault(index, []).append(said)
    taken = refusal.status == 409 and any(problem.path == "session" for problem in refusal.problems)
    offered = int(session_no) + 1 if taken and session_no.isdigit() else None
    if by_row:
        lead = Said(f"Change the rows marked below, then {again}.")
    elif taken:
        lead = Said(f"{people_date(fields['date'])} already has a report for session {session_no} here.")
    elif refusal.status in (409, 412):  # another change won meanwhile: the API's summary says which
        lead = plain(
            summary_of(refusal.message, refusal.problems) or refusal.message,
            refusal.rule,
            fields.get("venue_id"),
        )
        general = []
    elif general:
        lead = general.pop(0)
    else:
        lead = plain(refusal.message, refusal.rule, fields.get("venue_id"))
    next_session = offered if offered is not None and offered <= LAST_SESSION else None
    asks_reason = any(problem.path == "reason" and problem.rule == "R17" for problem in refusal.problems)
    asks_override = any(
        problem.rule == "R16" and problem.path.endswith(".player_id") for problem in refusal.problems
    )
    return Refused(refusal.status, lead, general, by_row, next_session, asks_reason, asks_override)
