"""The HTTP layer: flask-smorest blueprints, auth, errors as problem+json. No rule logic here."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, current_app, g, request
from flask_smorest import Api
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge
from werkzeug.routing import IntegerConverter

from api import (
    api_keys,
    audit_log,
    auth,
    cache,
    calendars,
    console,
    db,
    emails,
    embed,
    front_door,
    games,
    health,
    league_settings,
    nights,
    people_dates,
    player_merges,
    players,
    points_charts,
    qualifiers,
    ratings,
    regions,
    reports,
    sanctions,
    seasons,
    site,
    standings,
    structures,
    venues,
    webhooks,
    words,
)
from api.cache import hooks as cache_hooks
from api.cache.views import check_declarations
from api.errors import PROBLEM_MIMETYPE, ProblemSchema, http_problem, register_error_handlers
from api.fields import MAX_ID
from api.reports import pictures, sheets
from api.spec import ContractPlugin, error_headers, register_headers
from models.infra import clock

REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# Where a result report may come as a sheet (a host's spreadsheet: CSV, .xlsx or .ods).
CSV_PATHS = re.compile(r"^/api/v1/tournaments(/\d+)?$")


class IdConverter(IntegerConverter):
    """Ids in paths: 1..2^31-1, so an out-of-range id is a plain 404 on every database. Written
    as the service writes them: ASCII digits (not '١' or '１', which Python reads as 1), no
    leading zero (`/seasons/01` is not season 1), at most 10 digits."""

    regex = r"[1-9][0-9]{0,9}"

    def __init__(self, map: Any) -> None:  # noqa: A002 - werkzeug's name
        super().__init__(map, min=1, max=MAX_ID)


class LeagueApi(Api):
    # Document errors as api/errors.py answers them, not as flask-smorest's own JSON Error.
    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        return http_problem(error)

    def _register_responses(self) -> None:
        super()._register_responses()
        register_headers(self.spec)
        for name, response in self.spec.components.responses_lazy.items():
            content = response.get("content", {})
            if self.DEFAULT_RESPONSE_CONTENT_TYPE in content:
                content[PROBLEM_MIMETYPE] = content.pop(self.DEFAULT_RESPONSE_CONTENT_TYPE)
            status = HTTPStatus[name].value if name in HTTPStatus.__members__ else 500
            response["headers"] = {
                header: {"$ref": f"#/components/headers/{component}"}
                for header, component in error_headers(status).items()
            }

    def _register_pagination_header(self) -> None:
        """Lists say their total in the body (api/pagination.py), not in an X-Pagination header."""


def _start_request() -> Response | None:
    g.started = time.perf_counter()
    supplied = request.headers.get("X-Request-ID", "")
    g.request_id = supplied if REQUEST_ID_RE.match(supplied) else uuid.uuid4().hex
    if request.method in ("POST", "PUT", "PATCH") and request.path.startswith("/api/"):
        _refuse_unreadable_body()  # (the console's forms are form data, read by Flask-WTF)
    site = request.blueprint == "site" or request.path == "/"
    if request.path.startswith(("/api/", "/embed/")) or site:
        _refuse_repeated_query_parameters()
    if request.path.startswith("/embed/") or site:
        # Pages for other sites and the league's own (R24): the public's, whatever is sent.
        return cache_hooks.answer_from_cache()
    if not request.path.startswith("/api/"):
        return None
    auth.load_actor()
    return cache_hooks.answer_from_cache()


def _refuse_unreadable_body() -> None:
    """A body must be JSON (or a sheet where a report is posted: CSV, an .xlsx or .ods workbook,
    or application/octet-stream holding one): anything else is a 400. A JSON body
    is read here, once (Flask keeps it for the view), and refused whole when no league body
    could be it: nested deeper than MAX_JSON_DEPTH, or holding a number of more digits than
    Python reads (either would fail every later reader with a 500)."""
    has_body = bool(request.content_length) or "Transfer-Encoding" in request.headers
    if not has_body:
        return
    if request.content_length is None:
        # Sent in chunks, with no length to refuse up front: the body is read to the limit, and
        # one that reaches it is too large (the rest was never read), as a sized one would be.
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        if limit is not None and len(request.get_data(cache=True)) >= limit:
            raise RequestEntityTooLarge()
    takes_sheet = CSV_PATHS.match(request.path) is not None
    if takes_sheet:
        pictures.refuse_picture(request.get_data(cache=True))  # a photo of the sheet, declared as anything
    if request.is_json:
        _refuse_unreasonable_json()
        return
    if takes_sheet and sheets.takes(request.mimetype, request.get_data(cache=True)):
        return
    raise BadRequest(
        "The body must be JSON, sent with Content-Type: application/json"
        + (
            f" (or a result report's sheet: {', '.join(sheets.SHEET_TYPES[:-1])}; "
            f"{sheets.OCTET_STREAM} for a workbook)."
            if takes_sheet
            else "."
        )
    )


def _refuse_repeated_query_parameters() -> None:
    """A query parameter given twice is a 400 naming it: a view reads one value, and an answer
    (and its cache key, and its ETag) must stand for one request."""
    repeated = sorted(name for name in request.args if len(request.args.getlist(name)) > 1)
    if repeated:
        error = BadRequest(f"Query parameter(s) given more than once: {', '.join(repeated)}; send each once.")
        messages = {name: ["Given more than once: send it once."] for name in repeated}
        error.data = {"messages": {"query": messages}}  # type: ignore[attr-defined]
        raise error


# No league body nests deeper than 4 (a report, its rows, a row's new player); 32 leaves room.
MAX_JSON_DEPTH = 32


def _refuse_unreasonable_json() -> None:
    too_deep = f"Nests deeper than {MAX_JSON_DEPTH} levels."
    try:
        body = current_app.json.loads(request.get_data(cache=True))
    except RecursionError:
        raise _body_problem(too_deep) from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's limit on an integer's digits
            raise _body_problem("Holds a number of thousands of digits.") from None
        return  # malformed JSON: each view answers it in its own words
    if json_depth(body) > MAX_JSON_DEPTH:
        raise _body_problem(too_deep)
    where = unpaired_surrogate_at(body)
    if where is not None:
        # JSON's \ud800 escapes can say what no Unicode text holds; no reader can store it.
        raise _body_problem("Holds an unpaired surrogate (\\ud800-\\udfff), which is not text.", where)


def _body_problem(message: str, path: str = "body") -> BadRequest:
    """A 400 naming the body (or the field at `path`), as webargs names what it cannot read."""
    error = BadRequest(message)
    error.data = {"messages": {"json": {path: [message]}}}  # type: ignore[attr-defined]
    return error


def json_depth(value: Any) -> int:
    """How deep containers nest in parsed JSON (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_JSON_DEPTH:
            stack.extend((child, depth + 1) for child in children)
    return deepest


SURROGATE = re.compile("[\ud800-\udfff]")


def unpaired_surrogate_at(value: Any) -> str | None:
    """The path (results.3.full_name) of the first string, key or value, holding an unpaired
    surrogate; None when every string is text."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return path or "body"
        elif isinstance(item, dict):
            for key, child in item.items():
                named = f"{path}.{key}" if path else str(key)
                if SURROGATE.search(str(key)):
                    return named
                stack.append((child, named))
        elif isinstance(item, list):
            stack.extend(
                (child, f"{path}.{index}" if path else str(index)) for index, child in enumerate(item)
            )
    return None


def _finish_request(response: Response) -> Response:
    response.headers["X-Request-ID"] = g.get("request_id", "")
    _log_request(response)
    if request.method in ("GET", "HEAD") and response.status_code == 422:
        cache_hooks.store_refusal(response)
    if request.method not in ("GET", "HEAD") or response.status_code not in (200, 304):
        return response
    # Answers differ by caller (R19), so caches must key on the Authorization header; and they
    # change with any write, so a browser or proxy may keep them but must ask again (ETag, 304).
    response.vary.add("Authorization")
    response.cache_control.no_cache = True
    if "Authorization" in request.headers:
        response.cache_control.private = True
    if response.status_code == 200 and not cache_hooks.store_answer(response):
        response.add_etag()
        response.make_conditional(request)
    return response


# One JSON line per request, on its own logger (docs/operations.md "Logs"): who and what, never a key, a
# body, a query string (a search may hold an email) or any personal value.
request_log = logging.getLogger("league.requests")


def _log_request(response: Response) -> None:
    if not request_log.isEnabledFor(logging.INFO):
        return
    # The API's caller, or the console's signed-in user (the console keeps its own).
    actor = g.get("console_actor") or auth.current_actor()
    started = g.get("started")
    request_log.info(
        json.dumps(
            {
                "time": clock.now().isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "request_id": g.get("request_id"),
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "ms": round((time.perf_counter() - started) * 1000, 2) if started else None,
                "role": actor.role,
                "key_id": actor.key_id,
            },
            separators=(",", ":"),
        )
    )


def init_app(app: Flask) -> Api:
    app.url_map.converters["id"] = IdConverter
    db.init_app(app)
    cache.init_app(app)
    register_error_handlers(app)
    people_dates.init_app(app)  # R24: dates on every page in the league's format
    words.init_app(app)  # refusals and codes in words for people, each rule linked
    api = LeagueApi(
        app,
        spec_kwargs={
            "extra_plugins": [ContractPlugin()],
            # Relative: the paths are on the host that served the spec, whatever its name and
            # port (/docs "Try it out" on any deployment; a client passes its own base URL).
            "servers": [{"url": "/", "description": "The host that serves this spec."}],
            "info": {
                # The project's licence (LICENSE; pyproject.toml says it too).
                "license": {"name": "MIT", "url": "https://opensource.org/license/mit"},
                "description": (
                    "Points, standings and qualifiers for free bar and pub poker leagues. "
                    "Public reads need no key; hosts and the office send "
                    "`Authorization: Bearer <key>`. Errors are application/problem+json."
                ),
            },
        },
    )
    api.register_converter(IdConverter, lambda _c: {"type": "integer", "minimum": 1, "maximum": MAX_ID})
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer", "description": "An API key."}
    )
    for module in (
        front_door,
        health,
        regions,
        venues,
        games,
        calendars,
        points_charts,
        seasons,
        standings,
        qualifiers,
        players,
        ratings,
        player_merges,
        reports,
        sanctions,
        league_settings,
        structures,
        nights,
        webhooks,
        emails,
        api_keys,
        audit_log,
        embed,
        site,
    ):
        api.register_blueprint(module.blp)
    app.register_blueprint(console.bp)  # HTML for hosts and the office: not in the API's spec
    app.register_blueprint(emails.pages)  # R23: the one-click unsubscribe, for people
    app.register_blueprint(emails.subscribe_pages)  # R23: asking for the weekly email, confirming it
    app.before_request(_start_request)
    app.after_request(_finish_request)
    check_declarations(app)  # every GET the cache keys says what it reads
    return api
