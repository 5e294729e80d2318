"""A report as it comes in (from the API's JSON or CSV, or the console's sheet) and goes to the
services: typed, so that mypy checks every key a view or a service reads. The schemas in
`api/reports/schemas.py` load exactly these shapes."""

from __future__ import annotations

from datetime import date
from typing import Required, TypedDict

# A venue's tournaments of one day are numbered 1, 2, … (the API's `session`): one limit, used by
# the API's schemas and the console's forms alike.
FIRST_SESSION, LAST_SESSION = 1, 99


class NewPlayerDraft(TypedDict, total=False):
    full_name: Required[str]
    email: Required[str]
    date_of_birth: date | None
    membership_number: str | None
    display_name: str


class ResultDraft(TypedDict, total=False):
    """A row: its place, its status, and exactly one way of naming its player (R5)."""

    place: Required[int]
    status: str
    player_id: int
    membership_number: str
    email: str
    full_name: str
    new_player: NewPlayerDraft
    # R8a: who knocked the player out, by player id, by place in the report, or by name.
    knocked_out_by: int | None
    knocked_out_by_place: int
    knocked_out_by_name: str


class ReportDraft(TypedDict, total=False):
    """A report (`session` and `kind` always given: the schema defaults them), or a correction's
    body (any of venue, date, session and kind left out keep the stored report's)."""

    venue_id: int
    date: date
    session: int
    kind: str
    season_id: int | None
    results: Required[list[ResultDraft]]
    override_reason: str
    # R16, R22: players the office let in at a night's door, with its reason: the night's report
    # names them without another override.
    admitted: dict[int, str]
    # A correction's (taken out before the services are called), or the office's for a night a
    # host may no longer report (R17).
    reason: str
