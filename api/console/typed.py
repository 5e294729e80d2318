"""Results typed in a row per place, on a phone at the bar: tonight's (typed rows), and a report's
correction (its rows prefilled from the stored report, R17). A row names a player picked by name
(the browser offers the venue's players as you type), or a new one's full name and email, and a
status. "More rows" is a submit of the same form: the page comes back with what was typed and
more empty rows, nothing stored and no script. The rows become the same sheet an upload gives,
previewed by `reports.preview_sheet`; a refusal brings the form back as it was typed, each
reason under its row, and for a night already reported the next session filled in."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Response, request

from api import db
from api.console.base import (
    asked_day,
    bp,
    current,
    hidden_id,
    hosted_venue,
    page,
    refused_form,
    sheet_fields,
    signed_in_only,
    token_missing,
)
from api.console.forms import CorrectionForm, TypedRowsForm
from api.console.refusals import Refused, told, unrowed
from api.console.reports import Correction, preview_sheet
from api.words import Said
from models.entities import STATUSES, Player, Report, Venue
from models.errors import LeagueError
from models.services import wall_clock
from models.services.access import overrides_sanctions
from models.services.players.queries import VenuePlayer, players_of_venue
from models.services.reports.queries import get_report
from models.services.reports.writes import change_window

MOST_TYPED_ROWS = 200
NEW_ROWS = 12  # empty rows on a new page, and added by "More rows"
MOST_OFFERED = 3000  # the venue's players the browser offers to pick from
PICKED = re.compile(r"\(#(\d{1,10})\)\s*$")
NO_ROWS = "Type the finishing order: the winner in the first row."


@dataclass
class TypedRow:
    """A row of the form: its number (the place it was typed at), what was typed or picked, and
    the reasons a refusal gave for it."""

    number: int
    player: str = ""
    email: str = ""
    status: str = "played"
    reasons: list[Said] = field(default_factory=list)

    @property
    def blank(self) -> bool:
        return not self.player and not self.email


def picked(player: VenuePlayer | Player) -> str:
    """How the browser offers a player, and a picked row names them: "Ann — Ann Lee (#12)"."""
    return f"{player.display_name} — {player.full_name} (#{player.id})"


def row_count(asked: str | None, least: int = NEW_ROWS) -> int:
    """How many rows a page shows: the number asked for (digits, at most MOST_TYPED_ROWS), else `least`."""
    text = (asked or "").strip()
    return (
        min(int(text), MOST_TYPED_ROWS)
        if text.isascii() and text.isdigit() and 0 < len(text) <= 6 and int(text)
        else least
    )


def blank_rows(count: int) -> list[TypedRow]:
    return [TypedRow(number) for number in range(1, count + 1)]


def posted_rows(posted: Mapping[str, str], more: int = 0) -> list[TypedRow]:
    """The rows as posted, as many as the form had (and every one typed in), then `more` empty ones."""
    rows = [
        TypedRow(
            number,
            (posted.get(f"player_{number}") or "").strip(),
            (posted.get(f"email_{number}") or "").strip(),
            posted.get(f"status_{number}") or "played",
        )
        for number in range(1, MOST_TYPED_ROWS + 1)
    ]
    typed = max((row.number for row in rows if not row.blank), default=0)
    shown = max(row_count(posted.get("rows"), 1), typed) + more
    return rows[: min(shown, MOST_TYPED_ROWS)]


def stored_rows(report: Report) -> list[TypedRow]:
    """A stored report's rows, as a correction starts from: each place's player picked by name."""
    ordered = sorted(report.results, key=lambda result: result.place)
    return [TypedRow(result.place, picked(result.player), "", result.status) for result in ordered]


def gaps(rows: list[TypedRow]) -> Said | None:
    """R4: blank rows between typed ones are empty places, each given its reason under the row;
    what the page says of them, or None. Never closed by renumbering the rows below."""
    last = max((row.number for row in rows if not row.blank), default=0)
    empty = [row for row in rows if row.blank and row.number < last]
    for row in empty:
        row.reasons = [
            Said(f"Place {row.number} is empty: type who finished there (places are never renumbered).", "R4")
        ]
    if not empty:
        return None
    listed = ", ".join(str(row.number) for row in empty)
    return Said(
        f"Place{'s' if len(empty) > 1 else ''} {listed} {'are' if len(empty) > 1 else 'is'} empty: "
        "type who finished there, or move the rows below up.",
        "R4",
    )


def typed_sheet(rows: list[TypedRow]) -> tuple[bytes, list[int]]:
    """The rows as the CSV sheet an upload would give (blank rows after the last typed one left
    out; `gaps` refused any before it), and the form's row of each of the sheet's rows."""
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(["place", "player_id", "full_name", "email", "status"])
    numbers = []
    for row in rows:
        if row.blank:
            continue
        numbers.append(row.number)
        chosen = PICKED.search(row.player)
        if chosen:
            out.writerow([row.number, chosen.group(1), "", "", row.status])
        else:
            out.writerow([row.number, "", row.player, row.email, row.status])
    return buffer.getvalue().encode(), numbers


def under_rows(
    refusal: LeagueError, rows: list[TypedRow], numbers: list[int], fields: Mapping[str, str]
) -> Refused:
    """The refusal of typed rows: each reason under the form's row it concerns."""
    refused = told(refusal, len(numbers), fields, "preview again")
    by_number = {row.number: row for row in rows}
    for index, reasons in refused.by_row.items():
        by_number[numbers[index]].reasons = [unrowed(reason) for reason in reasons]
    return refused


def offered(venue: Venue) -> list[str]:
    """R19: the venue's players whom its hosts may see, as the browser offers them."""
    return [picked(player) for player in players_of_venue(db.session(), venue.id, MOST_OFFERED)]


@bp.route("/venues/<id:venue_id>/rows", methods=["GET", "POST"])
@signed_in_only
def typed_rows(venue_id: int) -> Any:
    """Tonight's results typed in, a row per place, previewed before anything is stored."""
    venue = hosted_venue(venue_id)
    form = TypedRowsForm()
    if request.method == "GET":
        # Tonight at the venue (R2a), unless a missed night's link asks for that night (R17).
        form.date.data = asked_day(wall_clock.at_venue(db.session(), venue))
        return _rows_page(venue, form, blank_rows(row_count(request.args.get("rows"))))
    valid = form.validate_on_submit()
    if token_missing(form):
        return refused_form()
    more = "more" in request.form
    rows = posted_rows(request.form, NEW_ROWS if more else 0)
    if more or not valid:
        return _rows_page(venue, form, rows, 200 if more else 400)
    if all(row.blank for row in rows):
        return _rows_page(venue, form, rows, 400, missing=NO_ROWS)
    empty = gaps(rows)
    if empty:
        return _rows_page(venue, form, rows, 422, missing=empty)
    override = form.override_reason.data if overrides_sanctions(current()) else None
    fields = sheet_fields(
        venue, form.date.data, form.session.data, form.kind.data, form.late_reason.data, override
    )
    sheet, numbers = typed_sheet(rows)

    def again(refusal: LeagueError) -> Response:
        refused = under_rows(refusal, rows, numbers, fields)
        if refused.next_session is not None:  # a night already reported: offered as the next session
            form.session.data, form.session.raw_data = refused.next_session, [str(refused.next_session)]
        return _rows_page(venue, form, rows, refused.status, refused=refused)

    return preview_sheet(venue, fields, sheet, on_refusal=again)


def _rows_page(
    venue: Venue, form: TypedRowsForm, rows: list[TypedRow], status: int = 200, **more: Any
) -> Response:
    context = {"venue": venue, "form": form, "rows": rows, "options": offered(venue), "statuses": STATUSES}
    today = wall_clock.at_venue(db.session(), venue)
    return page("console/rows.html", status, today=today, **context, **more)


@bp.route("/reports/<id:tournament_id>/correct", methods=["GET", "POST"])
@signed_in_only
def correct(tournament_id: int) -> Any:
    """R17: a report's rows again, prefilled from the stored report, with the reason; previewed
    (the rows that changed marked), then stored. A host past the season's correction window is
    told that only the office can change it now."""
    session, actor = db.session(), current()
    corrected = get_report(session, actor, tournament_id)
    venue = hosted_venue(corrected.venue_id)
    window = change_window(actor, corrected)
    if not window.allowed:
        return page("console/closed.html", 403, venue=venue, report=corrected, window=window)
    form = CorrectionForm()
    if request.method == "GET":
        form.version.data = str(corrected.version)
        return _correct_page(venue, corrected, form, stored_rows(corrected))
    valid = form.validate_on_submit()
    if token_missing(form):
        return refused_form()
    more = "more" in request.form
    rows = posted_rows(request.form, NEW_ROWS if more else 0)
    if more:
        form.reason.errors = []  # growing the form is not previewing it
        return _correct_page(venue, corrected, form, rows)
    if not valid:
        return _correct_page(venue, corrected, form, rows, 400)
    if all(row.blank for row in rows):
        return _correct_page(venue, corrected, form, rows, 400, missing=NO_ROWS)
    empty = gaps(rows)
    if empty:
        return _correct_page(venue, corrected, form, rows, 422, missing=empty)
    fields = sheet_fields(venue, corrected.date, corrected.session, corrected.kind)
    correction = Correction(corrected, hidden_id(form.version.data), form.reason.data.strip())
    sheet, numbers = typed_sheet(rows)

    def again(refusal: LeagueError) -> Response:
        refused = under_rows(refusal, rows, numbers, fields)
        return _correct_page(venue, corrected, form, rows, refused.status, refused=refused)

    return preview_sheet(venue, fields, sheet, correction, on_refusal=again)


def _correct_page(
    venue: Venue,
    report: Report,
    form: CorrectionForm,
    rows: list[TypedRow],
    status: int = 200,
    **more: Any,
) -> Response:
    context = {"venue": venue, "report": report, "form": form, "rows": rows, "statuses": STATUSES}
    return page("console/correct.html", status, options=offered(venue), **context, **more)
