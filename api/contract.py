"""What a view declares of its contract beyond its schemas and roles, beside its other decorators:

    @conflicts                     it may answer 409
    @preconditioned                it takes If-Match (412 once the record moved on); its answers
                                   carry the record's ETag
    @links(GetPlayer=("get_player", {"player_id": ID}))
                                   what its answer's ids lead to (OpenAPI links)
    @csv_too                       it answers CSV too, to `?format=csv` or `Accept: text/csv`: the
                                   CSV of its `.csv` twin, the operation the spec lists for it

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
# What the plugin writes instead, on the operation: its twin's operationId (its own and `_csv`).
CSV_TWIN = "x-csv-operation"


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
    """It answers CSV too (`?format=csv`, or `Accept: text/csv` preferred to JSON): the CSV of its
    twin, the operation `<operationId>_csv` at its path and `.csv`, which the spec lists as that
    CSV. The operation itself lists JSON alone, so a client generated from the spec types its
    answer as the JSON body (a TypeScript client's `data` is no `object | string`); it names
    its twin in `x-csv-operation`, and the tests hold its CSV answers to the twin's."""
    marked: F = Blueprint.doc(**{CSV_TOO: True})(view)
    return marked
