"""The one place where errors become HTTP: every error is application/problem+json (RFC 9457), or,
under /embed/ to a browser that asks for HTML, a page saying the same."""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, g, has_request_context, json
from marshmallow import fields
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError
from werkzeug.exceptions import HTTPException, InternalServerError

from api.html import error_page
from api.negotiation import wants_page
from api.schemas import Answer
from models.errors import SHOWN, Conflict, LeagueError, RuleViolation, joined

log = logging.getLogger("league.errors")

PROBLEM_MIMETYPE = "application/problem+json"


class ProblemSchema(Answer):
    """The body of every error, for the spec only: `problem()` writes it."""

    OPTIONAL = ("rule", "errors", "request_id")

    type = fields.String(
        required=True, metadata={"description": "urn:pokerleague:problem:<rule> or about:blank"}
    )
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    rule = fields.String(metadata={"description": "The league rule that refused, e.g. R2."})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "Messages by field path, e.g. results.3.place."},
    )
    request_id = fields.String()


def problem(
    status: int,
    title: str,
    detail: str,
    *,
    errors: Mapping[str, list[str]] | None = None,
    rule: str | None = None,
    headers: Mapping[str, str] | None = None,
    members: Mapping[str, Any] | None = None,
) -> Response:
    """A problem+json answer (RFC 9457); `members`: extension members (a night as it stands)."""
    body: dict[str, Any] = {
        "type": f"urn:pokerleague:problem:{rule}" if rule else "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
    }
    if rule:
        body["rule"] = rule
    if errors:
        body["errors"] = dict(errors)
    request_id = g.get("request_id")
    if request_id:
        body["request_id"] = request_id
    body.update(members or {})
    if has_request_context() and wants_page():
        response = error_page(body, status)
    else:
        response = Response(json.dumps(body), status=status, mimetype=PROBLEM_MIMETYPE)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


# marshmallow's own words, said so that a person knows what to send.
PLAINER = {
    "Not a valid date.": "Not a valid date: use YYYY-MM-DD (e.g. 2026-03-04).",
    "Not a valid datetime.": "Not a valid date and time: use ISO 8601 (e.g. 2026-03-04T21:30:00Z).",
}


def flatten_messages(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """webargs/marshmallow nest messages by field; answers name fields by path: results.3.place."""
    flat: dict[str, list[str]] = {}
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            name = str(key)
            if name == "_schema":
                name = ""
            path = ".".join(part for part in (prefix, name) if part)
            flat.update(flatten_messages(value, path))
    elif isinstance(messages, list | tuple) and all(isinstance(m, str) for m in messages):
        flat.setdefault(prefix or "body", []).extend(PLAINER.get(str(m), str(m)) for m in messages)
    elif isinstance(messages, list | tuple):
        for item in messages:
            flat.update(flatten_messages(item, prefix))
    else:
        flat.setdefault(prefix or "body", []).append(str(messages))
    return flat


def _webargs_errors(error: HTTPException) -> dict[str, list[str]]:
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or {}
    flat: dict[str, list[str]] = {}
    # Messages come by location (json, query, headers, ...); the field path is what a caller needs.
    for _location, by_field in messages.items():
        flat.update(flatten_messages(by_field))
    return flat


def _unknown_query_parameters(error: HTTPException) -> list[str]:
    """The query parameters an operation does not take (webargs names them "Unknown field.")."""
    messages = (getattr(error, "data", None) or {}).get("messages") or {}
    query = messages.get("query") or {}
    return sorted(name for name, texts in query.items() if texts == ["Unknown field."])


def _summary(errors: Mapping[str, list[str]]) -> str:
    """The first few fields' first messages, joined once (`models.errors.joined`)."""
    parts = [f"{field}: {msgs[0]}" for field, msgs in list(errors.items())[:SHOWN]]
    return joined(parts, more=len(errors) - SHOWN)


def http_problem(error: HTTPException) -> Response:
    status = error.code or 500
    headers = {}
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="league"'
    allowed = getattr(error, "valid_methods", None)
    if status == 405 and allowed:
        headers["Allow"] = ", ".join(allowed)
    if status == 429:
        headers.update(dict(error.get_headers()))
        headers.pop("Content-Type", None)
    unknown = _unknown_query_parameters(error)
    if status == 422 and unknown:
        detail = f"Unknown query parameter(s): {', '.join(unknown)}; see the operation's parameters."
        return problem(
            400, "Bad request", detail, errors={name: ["Unknown query parameter."] for name in unknown}
        )
    errors = _webargs_errors(error)
    if status == 422 and errors:
        return problem(422, "Invalid input", _summary(errors), errors=errors, headers=headers)
    if status == 400 and errors:
        return problem(400, "Bad request", _summary(errors), errors=errors, headers=headers)
    detail = error.description or error.name
    if status == 413:
        detail = "The request body is larger than this service accepts."
    if status >= 500:
        detail = "The service failed to answer; the error was logged with this request's id."
    return problem(status, error.name, detail, headers=headers)


def league_problem(error: LeagueError) -> Response:
    return problem(error.status, error.title, error.detail, errors=error.errors, rule=error.rule)


# A database guard (a trigger of migrations/versions) can send nothing but a message, so by
# contract its message starts with the rule it guards: "R2: seasons that … may not overlap".
GUARD_MESSAGE = re.compile(r"^(R\d+[a-z]?): (.+)$", re.MULTILINE)
# The guards of these rules refuse what changed meanwhile (a record merged away): a 409.
CONFLICT_GUARDS = frozenset({"R17", "R17a"})
# Unique indexes that guard a rule, by the names each database gives a violation of them.
UNIQUE_GUARDS = {
    ("uq_player_merges_live_duplicate", "player_merges.duplicate_id"): (
        "R17",
        "That player was merged at the same moment: a record merged away is not merged again "
        "until its merge is undone.",
    ),
    ("uq_distinct_players_low_id_high_id", "distinct_players.low_id"): (
        "R17a",
        "These two players were recorded as different people at the same moment: once is enough.",
    ),
}
# PostgreSQL's deadlock_detected and serialization_failure: a change that met another at the same
# moment (the lock order of models/services/locks.py is there so that none happens).
CONCURRENT = frozenset({"40P01", "40001"})


def logged(error: DBAPIError) -> str:
    """What the service log may say of a database error: its SQLSTATE and the table, column and
    constraint it names, never its message's values (PostgreSQL's DETAIL says "Key (email)=(…)
    already exists", and some messages quote the value given) nor the statement's parameters (the
    engine hides them: models/infra/db.make_engine). SQLite's messages name constraints only."""
    orig = getattr(error, "orig", None)
    diag = getattr(orig, "diag", None)
    if diag is None:
        first = next(iter(str(orig if orig is not None else error).splitlines()), "")
        return f"{type(orig if orig is not None else error).__name__}: {first}"
    said = [
        f"{name}={value}"
        for name, value in (
            ("sqlstate", getattr(orig, "sqlstate", None)),
            ("table", diag.table_name),
            ("column", diag.column_name),
            ("constraint", diag.constraint_name),
        )
        if value
    ]
    return f"{type(orig).__name__} {' '.join(said)}"


def database_problem(error: DBAPIError) -> Response:
    """A constraint the database enforced after the service's own checks (e.g. a race)."""
    message = str(getattr(error, "orig", error))
    guard = GUARD_MESSAGE.search(message)
    if guard is not None:
        kind = Conflict if guard.group(1) in CONFLICT_GUARDS else RuleViolation
        return league_problem(kind(guard.group(2).strip(), rule=guard.group(1)))
    if getattr(getattr(error, "orig", None), "sqlstate", None) in CONCURRENT or (
        "database is locked" in message
    ):
        log.warning("concurrent change: %s", logged(error))
        return league_problem(
            Conflict("The request met a change of the same records made at the same moment; send it again.")
        )
    if isinstance(error, IntegrityError):
        for names, (rule, text) in UNIQUE_GUARDS.items():
            if any(name in message for name in names):
                return league_problem(Conflict(text, rule=rule))
    if isinstance(error, DataError):
        # A value the database cannot hold (out of range, a NUL byte): the caller's input.
        log.info("data error: %s", logged(error))
        return problem(
            422,
            "Invalid input",
            "A value in the request cannot be stored (out of range, or holding a control character).",
        )
    if isinstance(error, IntegrityError):
        log.info("integrity error: %s", logged(error))
        return problem(409, "Conflict", "The request conflicts with data stored meanwhile; read and retry.")
    # Logged as any unexpected error, but by what `logged` says (a traceback's last line would be
    # the error's whole message).
    log.error(
        "unexpected database error (request %s): %s\n%s",
        g.get("request_id"),
        logged(error),
        "".join(traceback.format_tb(error.__traceback__)),
    )
    return http_problem(InternalServerError())


def unexpected_problem(error: Exception) -> Response:
    log.exception("unexpected error (request %s)", g.get("request_id"), exc_info=error)
    return http_problem(InternalServerError())


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(LeagueError, league_problem)
    app.register_error_handler(DBAPIError, database_problem)
    app.register_error_handler(HTTPException, http_problem)
    app.register_error_handler(Exception, unexpected_problem)
