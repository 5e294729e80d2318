"""A console form for one of the API's request schemas (regions, venues, schedules, seasons, the
league's settings): its fields shown as inputs, a post read into the very body the API would get,
loaded by the same schema and handed to the same service. So the console accepts what the API
accepts and refuses what it refuses, each refusal beside its field, said in words for people
(api/words: the field by its label, dates in the league's format, the rule linked).

A page names its labels (the office's words, from api/words.FORMS) and, for ids, the choices a
list offers (for a column of a list of rows too, e.g. a night's weekday); the rest follows from
the schema: a day is a date input, a count a number, a yes-or-no a checkbox, a choice of the
schema's values a select, a list of rows (a schedule's nights, attendance tiers) a table of
inputs with room for more."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate
from werkzeug.datastructures import MultiDict

from api.errors import flatten_messages
from api.fields import Day, ExactNumber, StrictBool, StrictInt, ZoneName
from api.words import Label, Said, label_text, told
from models.errors import LeagueError

Choices = list[tuple[str, str]]  # (value, what the office reads)
BLANK_ROWS = 2  # room for this many more rows in a list of rows


@dataclass
class Input:
    """One field of the form, as the template draws it."""

    name: str
    label: str
    help: str
    kind: str  # text, textarea, number, decimal, date, checkbox, select, zone, many, rows
    required: bool
    value: Any = ""
    choices: Choices = field(default_factory=list)
    columns: list[Input] = field(default_factory=list)  # a list of rows: each row's inputs
    rows: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Said] = field(default_factory=list)


def kind_of(schema_field: fields.Field, choices: Choices | None) -> str:
    if isinstance(schema_field, fields.List):
        inner = schema_field.inner
        return "rows" if isinstance(inner, fields.Nested) else "many"
    if choices is not None or one_of(schema_field):
        return "select"
    if isinstance(schema_field, ZoneName):
        return "zone"
    if isinstance(schema_field, StrictBool | fields.Boolean):
        return "checkbox"
    if isinstance(schema_field, Day | fields.Date):
        return "date"
    if isinstance(schema_field, ExactNumber):
        return "decimal"
    if isinstance(schema_field, StrictInt | fields.Integer):
        return "number"
    if length(schema_field) > 300:
        return "textarea"
    return "text"


def one_of(schema_field: fields.Field) -> list[str]:
    for check in schema_field.validators:
        if isinstance(check, validate.OneOf):
            return [str(choice) for choice in check.choices]
    return []


def length(schema_field: fields.Field) -> int:
    for check in schema_field.validators:
        if isinstance(check, validate.Length) and check.max is not None:
            return int(check.max)
    return 0


def typed(kind: str, text: str) -> Any:
    """A typed text as JSON would carry it: a number's digits as an integer (anything else stays
    text, for the schema to refuse by name), the rest as text."""
    if kind in ("number", "select") and text.lstrip("-").isdigit() and len(text) <= 18:
        return int(text)
    return text


@dataclass
class ApiForm:
    """The form of `schema` (the API's request schema), its fields in `labels`' order: each
    label, or (label, help); a list of rows' column labels under `"name.*"`. `choices` offers
    ids from a list (a region, a chart), or a column's values under `"name.column"` (a night's
    weekday by its day name); `values` are what the form shows before a post (an edited record,
    as the API's answer gives it). With `changes_only` (a PATCH) a post sends only the fields it
    changes, and a field emptied is sent as null where the schema takes one. After a refusal,
    `status` is the answer's: 422, or the refusal's own (409 for what happened already).
    `kinds` names an input's kind where the schema's field says less (the audit log's `since` is
    text that takes a date: a date input). A refusal is said in words for people
    (api/words.told): each reason beside its field, named as the form names it ("Row 1, Nights
    played: …"), what no field is blamed for in `box`, once."""

    schema: Schema
    labels: Mapping[str, Label]
    values: Mapping[str, Any] = field(default_factory=dict)
    choices: Mapping[str, Choices] = field(default_factory=dict)
    changes_only: bool = False
    kinds: Mapping[str, str] = field(default_factory=dict)
    problems: dict[str, list[Said]] = field(default_factory=dict)
    box: list[Said] = field(default_factory=list)  # what no field of the form is blamed for
    # Where each refusal points, as the API names it (`schedule.1.starts_at`): a row's cell is
    # marked where its problem is told beside the list.
    paths: set[str] = field(default_factory=set)
    status: int = 422
    blank_rows: int = BLANK_ROWS  # room for more rows in each list of rows

    def inputs(self, posted: MultiDict[str, str] | None = None) -> list[Input]:
        """The inputs, with the posted values (after a refusal) or the record's."""
        return [self._input(name, posted) for name in self.labels if name in self.schema.fields]

    def _input(self, name: str, posted: MultiDict[str, str] | None, prefix: str = "") -> Input:
        schema_field = self.schema.fields[name]
        given = self.labels[name]
        if isinstance(given, str):
            label, help_text = given, ""
        else:
            label, help_text = given[0], given[1] if len(given) > 1 else ""
        choices = self.choices.get(name)
        kind = self.kinds.get(name) or kind_of(schema_field, choices)
        shown = Input(
            name=prefix + name,
            label=label,
            help=help_text,
            kind=kind,
            required=schema_field.required,
            problems=self.problems.get(prefix + name, []),
        )
        if kind == "select":
            shown.choices = (
                choices if choices is not None else [(value, value) for value in one_of(schema_field)]
            )
        if kind == "many":
            shown.choices = choices or []
        if kind == "rows":
            nested = schema_field.inner.schema  # type: ignore[attr-defined]
            shown.columns = [
                Input(
                    name=sub,
                    label=sub.replace("_", " ").capitalize(),
                    help="",
                    kind=kind_of(f, self.choices.get(f"{name}.{sub}")),
                    required=f.required,
                    choices=self.choices.get(f"{name}.{sub}", []),
                )
                for sub, f in nested.fields.items()
            ]
            labels = self.labels.get(f"{name}.*")
            if isinstance(labels, tuple):
                for column, text in zip(shown.columns, labels, strict=False):
                    column.label = text
        if posted is not None:
            shown.value, shown.rows = self._posted(shown, posted)
        else:
            current = self.values.get(name)
            shown.value = current if current is not None else ""
            shown.rows = list(current or []) if kind == "rows" else []
        if kind == "rows":
            # Rows left empty are dropped (the body leaves them out too, so a refusal's "Row N"
            # is the Nth row shown), and room is made for more.
            shown.rows = [row for row in shown.rows if any(v not in (None, "") for v in row.values())]
            shown.rows += [{} for _ in range(self.blank_rows)]
        return shown

    def _posted(self, shown: Input, posted: MultiDict[str, str]) -> tuple[Any, list[dict[str, Any]]]:
        if shown.kind == "many":
            return posted.getlist(shown.name), []
        if shown.kind == "checkbox":
            return posted.get(shown.name) == "on", []
        if shown.kind == "rows":
            return "", rows_posted(shown, posted)
        return posted.get(shown.name, ""), []

    def body(self, posted: MultiDict[str, str]) -> dict[str, Any]:
        """What the post says, as the API's request body."""
        body: dict[str, Any] = {}
        for shown in self.inputs(posted):
            schema_field = self.schema.fields[shown.name]
            if shown.kind == "many":
                value: Any = [typed("number", text) for text in shown.value if text.strip()]
            elif shown.kind == "checkbox":
                value = bool(shown.value)
            elif shown.kind == "rows":
                value = [row_body(shown.columns, row) for row in shown.rows if any(row.values())]
            else:
                text = str(shown.value).strip()
                if not text:
                    # An edit that empties a field (its input sent empty; a field not sent at all
                    # is left as it is) sends null, as the API's client would: taken where the
                    # schema allows it, refused beside the field where it does not.
                    emptied = shown.name in posted and self.values.get(shown.name) not in (None, "")
                    if self.changes_only and emptied:
                        body[shown.name] = None
                    continue
                # A text field's value stays text (a key named "2024" chosen from a list).
                value = text if isinstance(schema_field, fields.String) else typed(shown.kind, text)
            if self.changes_only and same(value, self.values.get(shown.name)):
                continue
            body[shown.name] = value
        return body

    def submit(self, posted: MultiDict[str, str], act: Callable[[dict[str, Any]], Any]) -> Any:
        """The post loaded by the API's schema and given to `act` (the API's service); None, with
        the problems by field (or the refusal's summary), when either refuses."""
        refusal: LeagueError | dict[str, list[str]]
        try:
            return act(self.schema.load(self.body(posted)))
        except ValidationError as wrong:
            refusal = flatten_messages(wrong.messages)
            self.paths = set(refusal)
        except LeagueError as refused:
            refusal = refused
            self.status = refused.status
            self.paths = {problem.path or "body" for problem in refused.problems}
        names = [name for name in self.labels if name in self.schema.fields]
        said = told(refusal, self.said_labels(), fields=names)
        self.problems, self.box = said.beside, said.box
        return None

    def said_labels(self) -> dict[str, str]:
        """Each field's label by its path, a list of rows' columns under `name.*.column` (their
        names from the schema), as a refusal names them."""
        flat = {name: label_text(given) for name, given in self.labels.items() if not name.endswith(".*")}
        for name in self.labels:
            schema_field = self.schema.fields.get(name)
            if isinstance(schema_field, fields.List) and isinstance(schema_field.inner, fields.Nested):
                nested = schema_field.inner.schema
                given = self.labels.get(f"{name}.*")
                columns = given if isinstance(given, tuple) else ()
                for position, column in enumerate(nested.fields):
                    text = (
                        columns[position]
                        if position < len(columns)
                        else column.replace("_", " ").capitalize()
                    )
                    flat[f"{name}.*.{column}"] = text
        return flat


def row_body(columns: list[Input], row: dict[str, str]) -> dict[str, Any]:
    """One row of a list of rows as the API takes it: its filled columns, typed."""
    return {column.name: typed(column.kind, row[column.name]) for column in columns if row.get(column.name)}


def rows_posted(shown: Input, posted: MultiDict[str, str]) -> list[dict[str, Any]]:
    """A list of rows' inputs are named `name.N.column`: the rows, in order."""
    rows: dict[int, dict[str, str]] = {}
    prefix = f"{shown.name}."
    for key, text in posted.items(multi=True):
        if key.startswith(prefix):
            number, _, column = key[len(prefix) :].partition(".")
            if number.isdigit() and len(number) <= 4 and column in {c.name for c in shown.columns}:
                rows.setdefault(int(number), {})[column] = text.strip()
    return [rows[number] for number in sorted(rows)]


def same(value: Any, current: Any) -> bool:
    """Whether a posted value is what the record holds (as its answer writes it)."""
    if value == [] and current is None:
        return True
    if isinstance(current, list) and isinstance(value, list):
        return [strip_none(v) for v in value] == [strip_none(c) for c in current]
    return value == current or str(value) == str(current)


def strip_none(value: Any) -> Any:
    return {k: v for k, v in value.items() if v is not None} if isinstance(value, dict) else value
