"""The spec as a client contract: what every operation can answer, and the headers it sends.

An apispec plugin completes each operation as flask-smorest adds it, from what the operation
already says (its method, path parameters, roles): the error answers it can give (400, 401, 403,
404, 409, 413, 422, 429), 304 for GETs (every GET answer carries an ETag), and the headers every
answer carries (X-Request-ID; ETag; rate limits; Retry-After on a 429). The views declare their
operationId, schemas and the rest."""

from __future__ import annotations

from typing import Any

from apispec import APISpec, BasePlugin

from models.entities import CHART_KINDS, DOUBLE_QUALIFIER_POLICIES, ROLES, STATUSES, TOURNAMENT_KINDS
from models.rules.discipline import CATEGORIES, KINDS
from models.rules.notices import NOTICE_CODES
from models.rules.qualification import SKIP_REASONS

# The league's enumerations as named schemas: a field whose values are one of these refers to it,
# so a generated client has one TournamentKind for a report it reads and a correction it sends.
ENUMS: dict[str, tuple[str, ...]] = {
    "TournamentKind": TOURNAMENT_KINDS,
    "EntrantStatus": STATUSES,
    "ChartKind": CHART_KINDS,
    "DoubleQualifierPolicy": DOUBLE_QUALIFIER_POLICIES,
    "KeyRole": ROLES,
    "SanctionKind": KINDS,
    "SanctionCategory": CATEGORIES,
    "SkipReason": SKIP_REASONS,
    "NoticeCode": NOTICE_CODES,
}

# Writes that can meet a conflict (409): a name or slot taken, a record already voided, lifted,
# withdrawn, merged or undone, an Idempotency-Key reused with another body.
CONFLICTS = {
    "create_region",
    "create_venue",
    "update_venue",
    "create_points_chart",
    "create_player",
    "update_player",
    "merge_players",
    "undo_player_merge",
    "post_report",
    "correct_report",
    "void_report",
    "create_sanction",
    "lift_sanction",
    "create_disqualification",
    "withdraw_disqualification",
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
# What a created record's id leads to (OpenAPI links: generated clients and schemathesis' stateful
# runs follow them): operation -> {link name: (operation it leads to, that operation's id parameter)}.
# What an answer's ids lead to (OpenAPI links: generated clients and schemathesis' stateful phase
# follow them): operation -> {link: (target operation, {parameter: where its value comes from})}.
ID = "$response.body#/id"
LINKS: dict[str, dict[str, tuple[str, dict[str, str]]]] = {
    "post_report": {
        "GetReport": ("get_report", {"tournament_id": ID}),
        "CorrectReport": ("correct_report", {"tournament_id": ID}),
        "VoidReport": ("void_report", {"tournament_id": ID}),
    },
    "create_player": {
        "GetPlayer": ("get_player", {"player_id": ID}),
        "UpdatePlayer": ("update_player", {"player_id": ID}),
        "GetPlayerSanctions": ("get_player_sanctions", {"player_id": ID}),
        "MergeIntoPlayer": ("merge_players", {"player_id": ID}),
    },
    "merge_players": {
        "GetPlayerMerge": ("get_player_merge", {"merge_id": "$response.body#/merge_id"}),
        "UndoPlayerMerge": ("undo_player_merge", {"merge_id": "$response.body#/merge_id"}),
    },
    "create_sanction": {
        "GetSanction": ("get_sanction", {"sanction_id": ID}),
        "LiftSanction": ("lift_sanction", {"sanction_id": ID}),
    },
    "create_disqualification": {
        "WithdrawDisqualification": (
            "withdraw_disqualification",
            {"season_id": "$request.path.season_id", "disqualification_id": ID},
        ),
    },
    "create_season": {
        "GetSeason": ("get_season", {"season_id": ID}),
        "UpdateSeason": ("update_season", {"season_id": ID}),
        "ListDisqualifications": ("list_disqualifications", {"season_id": ID}),
        "Disqualify": ("create_disqualification", {"season_id": ID}),
    },
    "create_venue": {
        "GetVenue": ("get_venue", {"venue_id": ID}),
        "UpdateVenue": ("update_venue", {"venue_id": ID}),
    },
    "create_region": {"GetRegion": ("get_region", {"region_id": ID})},
    "create_points_chart": {
        "GetPointsChart": ("get_points_chart", {"chart_id": ID}),
        "UpdatePointsChart": ("update_points_chart", {"chart_id": ID}),
    },
    "create_api_key": {"GetApiKey": ("get_api_key", {"key_id": ID})},
}

# Changes that may be made against the version read (If-Match: a 412 once it moved on).
PRECONDITIONED = {"correct_report", "void_report"}
IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The report's ETag from a GET (or an earlier change): 412 if the report changed since.",
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


class ContractPlugin(BasePlugin):
    """Completes every operation's answers (see the module's docstring), and names the league's
    enumerations."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        self._by_values = {frozenset(values): name for name, values in ENUMS.items()}
        for name, values in ENUMS.items():
            spec.components.schema(name, {"type": "string", "enum": list(values)})

    def schema_helper(self, name: str, definition: dict[str, Any], **_: Any) -> None:
        """A property (or list item) with one of the league's enumerations refers to its schema."""
        for prop in (definition or {}).get("properties", {}).values():
            for target in (prop, prop.get("items")):
                if isinstance(target, dict):
                    self._refer(target)

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
        if not path or not operations:
            return
        on_api = path.startswith("/api/")
        # Pages for other sites: public, rate limited, their errors problem+json (or a page, to a
        # browser asking for HTML).
        on_embed = path.startswith("/embed/")
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            # Status codes come as ints or strings: make them strings, as the spec writes them.
            responses: dict[str, Any] = {str(k): v for k, v in operation.get("responses", {}).items()}
            operation["responses"] = responses
            for status, response in responses.items():
                if isinstance(response, dict) and status.startswith("2"):
                    headers = response.setdefault("headers", {})
                    headers["X-Request-ID"] = "X_REQUEST_ID"
                    if on_api or on_embed:
                        headers.update(RATE_HEADERS)
                    if method == "get":
                        headers["ETag"] = "ETAG"
            if operation.pop("x-idempotent", False):
                operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
            if method == "get":
                responses.setdefault("304", "NOT_MODIFIED")
                operation.setdefault("parameters", []).append(
                    {
                        "in": "header",
                        "name": "If-None-Match",
                        "required": False,
                        "schema": {"type": "string"},
                        "description": "An ETag from an earlier answer: 304 when nothing changed.",
                    }
                )
            if not (on_api or on_embed):
                continue
            writes = method in ("post", "put", "patch")
            wanted = (
                {"429": "TOO_MANY_REQUESTS"}
                if on_embed
                else {"401": "UNAUTHORIZED", "429": "TOO_MANY_REQUESTS"}
            )
            if operation.get("x-roles"):
                wanted["403"] = "FORBIDDEN"
            if "{" in path:
                wanted["404"] = "NOT_FOUND"
            if any(p.get("in") == "query" for p in operation.get("parameters", []) if isinstance(p, dict)):
                wanted["400"] = "BAD_REQUEST"  # an unknown query parameter
            if writes:
                wanted.update(
                    {"400": "BAD_REQUEST", "413": "REQUEST_ENTITY_TOO_LARGE", "422": "UNPROCESSABLE_ENTITY"}
                )
            if operation.get("operationId") in CONFLICTS:
                wanted["409"] = "CONFLICT"
            links = LINKS.get(operation.get("operationId", ""))
            done = next((r for status, r in sorted(responses.items()) if status.startswith("2")), None)
            if links and isinstance(done, dict):
                done["links"] = {
                    name: {"operationId": target, "parameters": parameters}
                    for name, (target, parameters) in links.items()
                }
            if operation.get("operationId") in PRECONDITIONED:
                wanted["412"] = "PRECONDITION_FAILED"
                operation.setdefault("parameters", []).append(IF_MATCH)
                for status, response in responses.items():
                    if isinstance(response, dict) and status.startswith("2"):
                        response.setdefault("headers", {})["ETag"] = "ETAG"
            for status, name in wanted.items():
                responses.setdefault(status, name)
