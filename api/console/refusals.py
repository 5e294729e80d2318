"""A refused report as the console says it to a bar manager: the lead sentence names the actual
problem (the rows marked below, or what no row is blamed for: a night in the future, a session
already reported, a correction window that closed), each sheet row's reasons stand in full under
that row, in the sheet's words ("Row 4 (place 3): …", as `csv_body` relabels them), and a night
already reported offers the next session. The refusal itself is the API's, never the console's."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from api.people_dates import people_date, people_dates_in
from models.errors import LeagueError
from models.rules.drafts import LAST_SESSION

# The API's words for developers, as a bar manager would say them.
PLAINER = (
    ("; the office may override with override_reason", "; only the league office can let them play"),
    ("override_reason", "the office's override"),
    (": correct it (PUT) or use another session number", ""),
)
# How `csv_body` names a sheet's row before its reason: "Row 4 (place 3), column Email: ".
ROW_LABEL = re.compile(r"^Row \d+(?: \(place [^)]*\))?(?:, column [^:]*)?: ")
ROW_MENTION = re.compile(r"\brow \d+ \(place (\d+)\)")


def plain(message: str) -> str:
    """A refusal's message in plainer words, its dates as the league says them ("Tue 1 Dec 2026")."""
    said = message
    for api_words, words in PLAINER:
        said = said.replace(api_words, words)
    return people_dates_in(said)


def unrowed(message: str) -> str:
    """A reason written under a typed row: the sheet's row numbers (of the sheet the typed rows
    became) mean nothing there, so rows are named by place."""
    return ROW_MENTION.sub(r"place \1", ROW_LABEL.sub("", message))


@dataclass(frozen=True)
class Refused:
    """A refusal for a page: its lead sentence, what no row is blamed for, each sheet row's reasons
    (by the row's index in the sheet), and for a night already reported the session to offer."""

    status: int
    lead: str
    general: list[str] = field(default_factory=list)
    by_row: dict[int, list[str]] = field(default_factory=dict)
    next_session: int | None = None


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
    by_row: dict[int, list[str]] = {}
    general: list[str] = []
    for problem in refusal.problems:
        index = row_of(problem.path, rows)
        if index is None:
            general.append(plain(problem.message))
        else:
            by_row.setdefault(index, []).append(plain(problem.message))
    taken = refusal.status == 409 and any(problem.path == "session" for problem in refusal.problems)
    offered = int(session_no) + 1 if taken and session_no.isdigit() else None
    if by_row:
        lead = f"Change the rows marked below, then {again}."
    elif taken:
        lead = f"{people_date(fields['date'])} already has a report for session {session_no} here."
    elif refusal.status in (409, 412):  # another change won meanwhile: the API's summary says which
        lead, general = plain(refusal.message), []
    elif general:
        lead = general.pop(0)
    else:
        lead = plain(refusal.message)
    next_session = offered if offered is not None and offered <= LAST_SESSION else None
    return Refused(refusal.status, lead, general, by_row, next_session)
