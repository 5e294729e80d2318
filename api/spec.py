"""The spec as a client contract: what every operation can answer, and the headers it sends.

An apispec plugin completes each operation as flask-smorest adds it, from what the operation
already says (its method, path parameters, roles) and what its view declares (api/contract.py:
@conflicts, @preconditioned, @links, @csv_too; api/idempotency.py: @idempotent): the error answers it can
give (400, 401, 403, 404, 409, 412, 413, 422, 429), 304 for GETs (every GET answer carries an
ETag), who may call it (`security`: a key optional where the public may), its links, and the
headers every answer carries (X-Request-ID; ETag; rate limits; Retry-After on a 429). The views
declare their operationId, schemas and the rest. Request bodies name no `default` (a generator
would make such a field required); their descriptions say what a field left out means."""

from __future__ import annotations

import json
from copy import deepcopy
from typing import Any

from apispec import APISpec, BasePlugin
from marshmallow import Schema

from api import contract
from api.schemas import Answer
from models.entities import CHART_KINDS, DOUBLE_QUALIFIER_POLICIES, REPORT_KINDS, ROLES, STATUSES
from models.rules.charts import PRESET_NAMES
from models.rules.notices import NOTICE_CODES
from models.rules.qualifiers import SKIP_REASONS
from models.rules.sanctions import CATEGORIES, DOOR_GROUPS, KINDS

# The league's enumerations as named schemas: a field whose values are one of these refers to it,
# so a generated client has one ReportKind for a report it reads and a correction it sends.
ENUMS: dict[str, tuple[str, ...]] = {
    "TournamentKind": REPORT_KINDS,
    "EntrantStatus": STATUSES,
    "ChartKind": CHART_KINDS,
    "ChartPreset": PRESET_NAMES,
    "DoubleQualifierPolicy": DOUBLE_QUALIFIER_POLICIES,
    "KeyRole": ROLES,
    "SanctionKind": KINDS,
    "SanctionCategory": CATEGORIES,
    "DoorGroup": DOOR_GROUPS,
    "SkipReason": SKIP_REASONS,
    "NoticeCode": NOTICE_CODES,
}

HEADERS: dict[str, dict[str, Any]] = {
    "X_REQUEST_ID": {
        "description": "The request's id (the caller's own X-Request-ID when sane); problems name it too.",
        "schema": {"type": "string"},
    },
    "RATELIMIT_LIMIT": {"description": "Requests allowed in the window.", "schema": {"type": "integer"}},
    "RATELIMIT_REMAINING": {"description": "Requests left in the window.", "schema": {"type": "integer"}},
    "RATELIMIT_RESET": {"description": "When the window resets (Unix time).", "schema": {"type": "integer"}},
    "RETRY_AFTER": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer"}},
}
IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The report's ETag from a GET (or an earlier change): 412 if the report changed since.",
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "An ETag from an earlier answer: 304 when nothing changed.",
}
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "maxLength": 255},
    "description": "Retry-safe writes: the same key and body answer the first result again (kept 48 "
    "hours); the same key with another body is a 409.",
}
RATE_HEADERS = {
    "X-RateLimit-Limit": "RATELIMIT_LIMIT",
    "X-RateLimit-Remaining": "RATELIMIT_REMAINING",
    "X-RateLimit-Reset": "RATELIMIT_RESET",
}


def register_headers(spec: Any) -> None:
    """Our headers; flask-smorest registers ETAG itself."""
    for name, header in HEADERS.items():
        spec.components.header(name, header)


def error_headers(status: int) -> dict[str, str]:
    """Headers of an error answer (the shared components of each status)."""
    headers = {"X-Request-ID": "X_REQUEST_ID"}
    if status == 429:
        headers.update({**RATE_HEADERS, "Retry-After": "RETRY_AFTER"})
    return headers


METHODS = ("get", "post", "put", "patch", "delete")
WRITES = ("post", "put", "patch")
# Who may call an operation that names no roles (api/auth.py requires a key of them): anyone, and
# a key may be sent (it can show more, e.g. a player's personal fields to the office). Said once,
# at the root: openapi-python-client reads any operation-level security as "a key is required".
KEY_OPTIONAL: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]


class ContractPlugin(BasePlugin):
    """Completes every operation's answers (see the module's docstring), and names the league's
    enumerations."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        spec.options.setdefault("security", KEY_OPTIONAL)
        self._by_values = {frozenset(values): name for name, values in ENUMS.items()}
        for name, values in ENUMS.items():
            spec.components.schema(name, {"type": "string", "enum": list(values)})

    def schema_helper(self, name: str, definition: dict[str, Any], schema: Any = None, **_: Any) -> None:
        """A property (or list item) with one of the league's enumerations refers to its schema;
        a request body's defaults go into its descriptions."""
        properties = (definition or {}).get("properties", {})
        for prop in properties.values():
            for target in (prop, prop.get("items")):
                if isinstance(target, dict):
                    self._refer(target)
        if is_request_body(schema):
            partial = getattr(schema, "partial", None)  # True, or the names of the partial fields
            for field_name, prop in properties.items():
                describe_default(prop, partial=partial is True or field_name in (partial or ()))

    def _refer(self, prop: dict[str, Any]) -> None:
        values = prop.get("enum")
        named = self._by_values.get(frozenset(v for v in values or () if v is not None))
        if not values or named is None:
            return
        ref = {"$ref": f"#/components/schemas/{named}"}
        nullable = prop.pop("nullable", False)
        for key in ("enum", "type"):
            prop.pop(key, None)
        if nullable or prop:
            prop["allOf"] = [ref]  # a $ref takes no siblings in OpenAPI 3.0
            if nullable:
                prop["nullable"] = True
        else:
            prop.update(ref)

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            if path and method in METHODS:
                complete_operation(path, method, operation)


def is_request_body(schema: Any) -> bool:
    """A schema that loads what callers send (every answer's schema derives from Answer)."""
    klass = schema if isinstance(schema, type) else type(schema)
    return issubclass(klass, Schema) and not issubclass(klass, Answer)


def describe_default(prop: dict[str, Any], *, partial: bool) -> None:
    """A request field's default, said in words rather than as `default` (openapi-typescript makes
    a property with a default required, in requests too). A PATCH (a partial schema) applies no
    default: a field left out keeps its value."""
    if "default" not in prop:
        return
    default = prop.pop("default")
    if partial:
        return
    said = f"Default when left out: {default if isinstance(default, str) else json.dumps(default)}."
    prop["description"] = f"{prop['description']} {said}" if prop.get("description") else said


def complete_operation(path: str, method: str, operation: dict[str, Any]) -> None:
    """Everything the plugin adds to one operation, from what it and its view declare."""
    # Status codes come as ints or strings: make them strings, as the spec writes them.
    responses: dict[str, Any] = {str(k): v for k, v in operation.get("responses", {}).items()}
    operation["responses"] = responses
    for status, name in error_answers(path, method, operation).items():
        responses.setdefault(status, name)
    if method == "get":
        responses.setdefault("304", "NOT_MODIFIED")
    if operation.pop(contract.CSV_TOO, False):
        operation[contract.CSV_TWIN] = f"{operation['operationId']}_csv"
    successes = [r for s, r in sorted(responses.items()) if s.startswith("2") and isinstance(r, dict)]
    tagged = method == "get" or bool(operation.get(contract.PRECONDITIONED))
    for response in successes:
        response.setdefault("headers", {}).update(success_headers(path, etag=tagged))
    parameters = [*operation.get("parameters", []), *header_parameters(method, operation)]
    if parameters:
        operation["parameters"] = parameters
    links = operation.pop(contract.LINKS, None)
    if links and successes:
        # On what the operation made (a 201), when it makes something: a report's dry run (200)
        # has no id to follow.
        created = responses.get("201")
        (created if isinstance(created, dict) else successes[0])["links"] = links
    if not path.startswith("/api/"):
        operation.setdefault("security", [])  # the health check and embeds read no key


def success_headers(path: str, *, etag: bool) -> dict[str, str]:
    """The headers of every 2xx answer: its request id, the rate limits (API and embeds), and
    the ETag (of a GET, and of a change made against the version read)."""
    headers = {"X-Request-ID": "X_REQUEST_ID"}
    if path.startswith(("/api/", "/embed/")):
        headers.update(RATE_HEADERS)
    if etag:
        headers["ETag"] = "ETAG"
    return headers


def header_parameters(method: str, operation: dict[str, Any]) -> list[dict[str, Any]]:
    """The request headers an operation reads: Idempotency-Key (@idempotent), If-None-Match (a
    GET), If-Match (@preconditioned). Copies: one object in two operations would be a YAML alias
    in openapi.yaml."""
    read = []
    if operation.pop("x-idempotent", False):
        read.append(IDEMPOTENCY_KEY)
    if method == "get":
        read.append(IF_NONE_MATCH)
    if operation.pop(contract.PRECONDITIONED, False):
        read.append(IF_MATCH)
    return deepcopy(read)


def error_answers(path: str, method: str, operation: dict[str, Any]) -> dict[str, str]:
    """The errors an operation can answer beyond those its view declares: from its path (a key
    on /api/, rate limits, ids that may name nothing), its roles, query and body."""
    # Any query parameter given twice is a 400 (api/__init__.py), wherever the cache answers.
    if path.startswith("/embed/") or "site" in operation.get("tags", ()):
        # Pages for other sites and the league's own (R24): public, rate limited.
        wanted = {"400": "BAD_REQUEST", "429": "TOO_MANY_REQUESTS"}
    elif path.startswith("/api/"):
        wanted = {"400": "BAD_REQUEST", "401": "UNAUTHORIZED", "429": "TOO_MANY_REQUESTS"}
    else:
        return {}
    if operation.get("x-roles"):
        wanted["403"] = "FORBIDDEN"
    if "{" in path:
        wanted["404"] = "NOT_FOUND"
    if any(p.get("in") == "query" for p in operation.get("parameters", []) if isinstance(p, dict)):
        wanted["400"] = "BAD_REQUEST"  # an unknown query parameter, too
    if method in WRITES:
        wanted.update(
            {"400": "BAD_REQUEST", "413": "REQUEST_ENTITY_TOO_LARGE", "422": "UNPROCESSABLE_ENTITY"}
        )
    if operation.get("x-idempotent"):
        wanted["409"] = "CONFLICT"  # the key reused with another body
    return wanted
