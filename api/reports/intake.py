"""A report coming in, by either door (the API's body or the console's sheet): loaded with the
API's schemas, refused naming every problem (a spreadsheet's rows and columns for a sheet), and
written for real or as a dry run. The caller is passed in, never looked up.

R19: a report must not test whom the league knows. Every refusal of a report passes through
`refusals`, which counts its emails, membership numbers and names alone that named no player
(`LeagueError.identifier_misses`) against a host's key (RATELIMIT_UNKNOWN_IDENTIFIERS, in the
limiter's storage: the API's and the console's doors share the count); a refusal that goes past
the limit is a 429 naming no row. A key over the limit gets a 429 for any report naming an email
or membership number before anything is looked up (`loaded`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from marshmallow import Schema, ValidationError
from sqlalchemy.orm import Session
from werkzeug.exceptions import BadRequest

from api import throttle
from api.errors import flatten_messages
from api.reports.csv_body import CsvReport
from api.reports.schemas import CorrectionIn, CsvQuery, ReportIn
from api.reports.sheets import CSV_TYPE, SHEET_TYPES, read_sheet
from models.actor import Actor
from models.errors import InvalidInput, LeagueError, Problem, refuse
from models.rules.drafts import ReportDraft
from models.services.reports.checks import rule_problems

T = TypeVar("T")

# Schemas are made once: making one copies its fields, nested ones too (a report's rows).
REPORT_IN, CORRECTION_IN = ReportIn(), CorrectionIn()
# What a CSV report's query string (or the console's form) may give beside the sheet.
CSV_QUERY_FIELDS = frozenset(CsvQuery().fields) - {"dry_run"}


def from_body(
    session: Session,
    actor: Actor,
    schema: Schema,
    mimetype: str,
    body: bytes,
    query: Mapping[str, str],
    json_body: Callable[[], Any],
) -> tuple[ReportDraft, CsvReport | None]:
    """The report from a JSON body, or from a sheet's body (CSV or a workbook) plus the query
    string (with the sheet, to name its rows and columns in any refusal)."""
    if mimetype in SHEET_TYPES:
        fields = {name: value for name, value in query.items() if name in CSV_QUERY_FIELDS}
        return from_sheet(session, actor, body, fields, schema, mimetype)
    if not body:
        raw: Any = {}  # nothing sent: every required field is named as missing
    else:
        raw = json_body()
        if raw is None:
            raise BadRequest("The body is not valid JSON.")
    if not isinstance(raw, dict):
        raise InvalidInput.at("body", "The body must be a JSON object.")
    return loaded(session, actor, schema, raw, None), None


def from_csv(
    session: Session, actor: Actor, csv: bytes, fields: Mapping[str, Any], schema: Schema = REPORT_IN
) -> tuple[ReportDraft, CsvReport]:
    """A report (or with CORRECTION_IN a correction) from a spreadsheet's CSV and the fields a
    query string would give (venue_id, date, session, kind, reason): the API's CSV body and the
    console's upload, read and refused alike."""
    return from_sheet(session, actor, csv, fields, schema)


def from_sheet(
    session: Session,
    actor: Actor,
    body: bytes,
    fields: Mapping[str, Any],
    schema: Schema = REPORT_IN,
    mimetype: str = CSV_TYPE,
) -> tuple[ReportDraft, CsvReport]:
    """`from_csv` for any sheet: a CSV, or an .xlsx or .ods workbook (by `mimetype`,
    `sheets.read_sheet`)."""
    sheet = read_sheet(body, mimetype)
    return loaded(session, actor, schema, {**_typed(fields), "results": sheet.results}, sheet), sheet


def loaded(
    session: Session, actor: Actor, schema: Schema, raw: dict[str, Any], sheet: CsvReport | None
) -> ReportDraft:
    """The report as the schema loads it; refused whole, naming every problem, when it cannot.
    A key that used up its allowance of unknown identifiers is refused first (R19)."""
    throttle.refuse_when_naming_spent(actor, raw.get("results"))
    try:
        data: ReportDraft = schema.load(raw)
    except ValidationError as exc:
        problems = [
            Problem(path, text) for path, texts in flatten_messages(exc.messages).items() for text in texts
        ]
        with refusals(actor, sheet):
            rules = _rules_too(session, actor, schema, raw, problems)
            refuse("The report is refused whole", [*problems, *rules])
        raise
    return data


def _rules_too(
    session: Session, actor: Actor, schema: Schema, raw: dict[str, Any], problems: list[Problem]
) -> list[Problem]:
    """When only some result rows are malformed, the league's rules are checked on the rest too,
    so one answer names every problem (never one round for the format, another for the rules)."""
    rows = raw.get("results")
    located = [p.path.split(".") for p in problems]
    if not isinstance(rows, list) or not all(
        len(parts) >= 2 and parts[0] == "results" and parts[1].isdigit() and int(parts[1]) < len(rows)
        for parts in located
    ):
        return []
    sane, unreadable, places_readable = _readable_rows(rows, located)
    try:
        report = schema.load({**raw, "results": sane})
    except ValidationError:
        return []
    if isinstance(schema, CorrectionIn):
        report.pop("reason", None)
    if "venue_id" not in report or "date" not in report:
        return []  # a correction naming neither: its stored report's are checked once it is well formed
    whole = cast(ReportDraft, {"session": 1, "kind": "regular", **report})
    new = not isinstance(schema, CorrectionIn)
    return rule_problems(session, actor, whole, frozenset(unreadable), places_readable, new)


def _readable_rows(rows: list[Any], located: list[list[str]]) -> tuple[list[dict[str, Any]], set[int], bool]:
    """The rows with their malformed fields made harmless: a bad place read as 1 (and places left
    out of R4), a bad status as the default, a row whose player cannot be read as a stand-in
    (left out of the player checks)."""
    unreadable: set[int] = set()
    places_readable = True
    sane = [dict(row) if isinstance(row, dict) else {} for row in rows]
    for parts in located:
        index, field_name = int(parts[1]), (parts[2] if len(parts) > 2 else None)
        if field_name == "place":
            places_readable = False
            sane[index]["place"] = 1
        elif field_name == "status":
            sane[index].pop("status", None)
        else:
            unreadable.add(index)
    for index in unreadable:
        place = sane[index].get("place")
        sane[index] = {"place": place if isinstance(place, int) and place >= 1 else 1, "player_id": 1}
    return sane, unreadable, places_readable


@contextmanager
def refusals(actor: Actor, sheet: CsvReport | None) -> Iterator[None]:
    """Around every check of a report (its load, its write, its dry run): a refusal's emails and
    membership numbers that named no player count against the caller's key, and past the limit
    the refusal is a 429 that names no row (R19: which rows named nobody is what a sweep would
    learn). A refusal of a CSV report names the spreadsheet's rows and columns."""
    try:
        with throttle.counting_identifier_misses(actor):
            yield
    except LeagueError as exc:
        if sheet is None:
            raise
        raise sheet.relabel(exc) from None


def _typed(query: Mapping[str, Any]) -> dict[str, Any]:
    """Query strings are text; the schema wants JSON types for ids and session."""
    typed: dict[str, Any] = dict(query)
    for name in ("venue_id", "session", "season_id"):
        if isinstance(typed.get(name), str) and typed[name].isascii() and typed[name].isdigit():
            typed[name] = int(typed[name])
    return typed


def dry_run(session: Session, write: Callable[[], T]) -> T:
    """The one dry run: `write` (the whole write, and the answer made from it) runs inside a
    savepoint that is then rolled back, so the answer is exactly what would be stored (points,
    warnings, new players) and nothing is. A refusal propagates as it would for real."""
    savepoint = session.begin_nested()
    try:
        return write()
    finally:
        savepoint.rollback()
