"""The audit log in the console (R18): the office reads who changed what, newest first, 50 entries
a page, filtered by the API's own query schema (api/audit_log/schemas.AuditQuery, so a filter
means here what it means to GET /api/v1/audit-log): what changed, who, what was done, and from and
to a day on the league's clock (R2a). Each entry opens to its record's fields before and after;
a value of an erased player reads "[erased]", as the API gives it (R21). "Download CSV" is the
API's CSV of the same entries."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from flask import Response, redirect, request, url_for

from api import db
from api.audit_log.csv_answer import audit_csv
from api.audit_log.schemas import AuditQuery
from api.console import base  # before api_forms: api.html (errors) needs api.embed imported first
from api.console.api_forms import ApiForm, Choices
from api.pagination import page_request
from api.people_dates import people_date, people_time
from models.rules.personal import ERASED
from models.services import wall_clock
from models.services.audit_log.queries import (
    AuditFilters,
    ReadEntry,
    audit_choices,
    every_audit_entry,
    list_audit_entries,
)
from models.services.paging import Page, PageRequest

PER_PAGE = 50
# The filters a page link or the CSV link carries on (the page number apart).
FILTERS = ("entity", "entity_id", "actor", "action", "since", "until")

# The kinds of records the log holds, in the office's words (another kind: its name, spaced).
KINDS = {
    "api_key": "Key",
    "disqualification": "Disqualification",
    "league_settings": "League settings",
    "player": "Player",
    "points_chart": "Points chart",
    "qualifiers": "Qualifiers",
    "region": "Region",
    "sanction": "Sanction",
    "schedule_exception": "Schedule change",
    "season": "Season",
    "tournament": "Report",
    "venue": "Venue",
}
# What was done, in the office's words (another action: its name, spaced).
DONE = {
    "create": "made",
    "update": "changed",
    "delete": "removed",
    "remove": "removed",
    "revoke": "revoked",
    "void": "voided",
    "correct": "corrected",
    "override": "overridden",
    "lift": "lifted",
    "withdraw": "withdrawn",
    "publish": "published",
    "merge": "merged",
    "merge_undo": "merge undone",
    "not_duplicate": "told apart",
    "data_export": "data exported",
    "erase": "erased",
    "erase_reapplied": "erased again",
    "schedule": "schedule set",
}
INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z")
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def kind_of(entity: str) -> str:
    return KINDS.get(entity, entity.replace("_", " ").capitalize())


def action_words(action: str) -> str:
    """ "api_key.revoke" as the office says it: "Key revoked"."""
    entity, _, done = action.partition(".")
    return f"{kind_of(entity)} {DONE.get(done, done.replace('_', ' '))}".strip()


@dataclass(frozen=True)
class Value:
    """A field's value as the page shows it; `erased`: it reads "[erased]" (R21)."""

    text: str
    erased: bool = False


@dataclass(frozen=True)
class FieldRow:
    label: str
    before: Value
    after: Value
    changed: bool


@dataclass(frozen=True)
class Shown:
    """An entry as the page lists it: in words, and its record's fields before and after."""

    entry: ReadEntry
    what: str
    record: str
    reason: Value | None
    rows: list[FieldRow]
    has_before: bool
    has_after: bool


def shown_value(value: Any) -> Value:
    """Instants on the league's clock, days with their weekday, yes or no, lists as lists."""
    if value is None:
        return Value("—")
    if isinstance(value, bool):
        return Value("yes" if value else "no")
    if isinstance(value, str):
        if value == ERASED:
            return Value(ERASED, erased=True)
        if INSTANT.fullmatch(value):
            return Value(people_time(datetime.fromisoformat(value.removesuffix("Z"))))
        if DAY.fullmatch(value):
            try:
                return Value(people_date(date.fromisoformat(value)))
            except ValueError:
                return Value(value)
        return Value(value)
    if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        return Value(", ".join(shown_value(v).text for v in value) if value else "none")
    if isinstance(value, dict | list):
        return Value(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))
    return Value(str(value))


def field_rows(before: Any, after: Any) -> list[FieldRow]:
    """The record's fields, each before and after; a field marked changed when both exist and
    differ. A state that is no record (a list, a number) is one field, "value"."""
    olds = before if isinstance(before, dict) else ({} if before is None else {"value": before})
    news = after if isinstance(after, dict) else ({} if after is None else {"value": after})
    names = list(olds) + [name for name in news if name not in olds]
    both = before is not None and after is not None
    return [
        FieldRow(
            label=name.replace("_", " ").capitalize(),
            before=shown_value(olds.get(name)),
            after=shown_value(news.get(name)),
            changed=both and olds.get(name) != news.get(name),
        )
        for name in names
    ]


def shown(entry: ReadEntry) -> Shown:
    record = kind_of(entry.entity) + (f" {entry.entity_id}" if entry.entity_id is not None else "")
    return Shown(
        entry=entry,
        what=action_words(entry.action),
        record=record,
        reason=None if not entry.reason else Value(entry.reason, erased=entry.reason == ERASED),
        rows=field_rows(entry.before, entry.after),
        has_before=entry.before is not None,
        has_after=entry.after is not None,
    )


def with_given(choices: Choices, given: str | None) -> Choices:
    """The choices, and the value a link gave though the log holds none of it (still filtered)."""
    if given and given not in {value for value, _text in choices}:
        return [*choices, (given, given)]
    return choices


def filter_form() -> ApiForm:
    """The API's query schema as the page's filters: lists of what the log holds, date inputs,
    and the record's number when the page was reached from a record."""
    held = audit_choices(db.session(), base.current())
    args = request.args
    labels: dict[str, str | tuple[str, str]] = {"entity": "What changed"}
    if args.get("entity_id", "").strip():
        labels["entity_id"] = ("Record number", "Empty it to see every record of the kind.")
    labels.update(
        {
            "actor": "Who (the key used)",
            "action": "What was done",
            "since": "From (day)",
            "until": "To (day, included)",
            "page": "Page",
        }
    )
    choices = {
        "entity": with_given(
            sorted(((e, kind_of(e)) for e in held.entities), key=lambda c: c[1]), args.get("entity")
        ),
        "actor": with_given([(a, a) for a in held.actors], args.get("actor")),
        "action": with_given(
            sorted(((a, action_words(a)) for a in held.actions), key=lambda c: c[1]), args.get("action")
        ),
    }
    return ApiForm(AuditQuery(), labels, choices=choices, kinds={"since": "date", "until": "date"})


def given_filters() -> dict[str, Any]:
    """The filters the page was asked for, as its query string gave them (for its links)."""
    return {name: request.args[name] for name in FILTERS if request.args.get(name, "").strip()}


def loaded(form: ApiForm) -> tuple[AuditFilters, PageRequest] | None:
    """The query loaded by the API's schema: the filters and the page asked for; None (the form
    holding the refusals by field) when the schema refuses it."""

    def read(data: dict[str, Any]) -> tuple[AuditFilters, PageRequest]:
        data = dict(data)
        data["per_page"] = PER_PAGE
        asked = page_request(data)
        data.pop("format", None)
        return AuditFilters(**data), asked

    found: tuple[AuditFilters, PageRequest] | None = form.submit(request.args, read)
    return found


def page_numbers(found: Page[Any]) -> list[int | None]:
    """The pages a pager links: the first, the last, and two either side of this one (None: a gap)."""
    near = {1, found.pages, *range(found.page - 2, found.page + 3)}
    numbers = sorted(n for n in near if 1 <= n <= found.pages)
    linked: list[int | None] = []
    for n in numbers:
        if linked and n - (linked[-1] or 0) > 1:
            linked.append(None)
        linked.append(n)
    return linked


@base.bp.route("/audit")
@base.signed_in_only
def audit() -> Any:
    """R18: who changed what, newest first, 50 a page, filtered as the API filters it."""
    form = filter_form()
    query = loaded(form)
    found, status = None, 200
    if query is None:
        status = 422
    else:
        found = list_audit_entries(db.session(), base.current(), *query)
    inputs = [i for i in form.inputs(request.args) if i.name != "page"]
    context: Mapping[str, Any] = {
        "form": form,
        "inputs": inputs,
        "found": found,
        "entries": [shown(entry) for entry in found.items] if found else [],
        "pages": page_numbers(found) if found else [],
        "given": given_filters(),
    }
    return base.page("console/audit.html", status, **context)


@base.bp.route("/audit.csv")
@base.signed_in_only
def audit_csv_download() -> Any:
    """The entries the filters keep, every page, as the API's CSV (R18); refused filters: the
    page, with the refusals beside their fields."""
    query = loaded(filter_form())
    if query is None:
        return redirect(url_for("console.audit", **given_filters()))
    session = db.session()
    entries = every_audit_entry(session, base.current(), query[0])
    response: Response = audit_csv(entries, wall_clock.in_league(session).isoformat())
    response.headers["Cache-Control"] = "no-store"
    return response
