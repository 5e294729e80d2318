"""What a view declares of its contract beyond its schemas and roles, beside its other decorators:

    @conflicts                     it may answer 409
    @preconditioned                it takes If-Match (412 once the record moved on); its answers
                                   carry the record's ETag
    @links(GetPlayer=("get_player", {"player_id": ID}))
                                   what its answer's ids lead to (OpenAPI links)
    @csv_too                       its 200 is CSV too, to `?format=csv` or `Accept: text/csv`

Each stores what it says in the view's flask-smorest doc (`Blueprint.doc`, as `auth.requires`
and `idempotency.idempotent` do); api/spec.py's plugin writes it into the spec, and the tests hold
every answer a view gives to what its spec lists (tests/answers_documented.py)."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

from flask_smorest import Blueprint

F = TypeVar("F", bound=Callable[..., Any])

# Where a link's parameter takes its value: the answer's id, or another of its fields or the
# request's path ("$response.body#/merge_id", "$request.path.season_id").
ID = "$response.body#/id"

# The extensions the plugin reads (and removes) from an operation.
LINKS = "x-links"
PRECONDITIONED = "x-preconditioned"
CSV_TOO = "x-csv-too"


def answers(status: HTTPStatus) -> Callable[[F], F]:
    """The view may answer `status`, with the shared problem+json response of that status."""
    return Blueprint.doc(responses={str(status.value): status.name})


def conflicts(view: F) -> F:
    """It may meet a conflict (409): a name or slot taken, a record already voided, lifted,
    withdrawn, merged or undone, an Idempotency-Key reused with another body."""
    return answers(HTTPStatus.CONFLICT)(view)


def preconditioned(view: F) -> F:
    """A change that may be made against the version read: If-Match, a 412 once it moved on."""
    marked: F = Blueprint.doc(**{PRECONDITIONED: True})(view)
    return answers(HTTPStatus.PRECONDITION_FAILED)(marked)


def links(**leads_to: tuple[str, dict[str, str]]) -> Callable[[F], F]:
    """What the answer's ids lead to (generated clients and schemathesis' stateful phase follow
    them): link name=(target operationId, {its parameter: where its value comes from})."""
    return Blueprint.doc(
        **{
            LINKS: {
                name: {"operationId": target, "parameters": parameters}
                for name, (target, parameters) in leads_to.items()
            }
        }
    )


def csv_too(view: F) -> F:
    """Its 200 answers CSV too (`?format=csv`, or `Accept: text/csv` preferred to JSON): the spec
    lists `text/csv` beside the JSON (JSON first, which generated clients take; they read the
    CSV from the operation's own `..._csv` twin)."""
    marked: F = Blueprint.doc(**{CSV_TOO: True})(view)
    return marked
