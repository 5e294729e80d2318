"""The spec as a client contract: what every operation can answer, and the headers it sends.

An apispec plugin completes each operation as flask-smorest adds it, from what the operation
already says (its method, path parameters, roles): the error answers it can give (400, 401, 403,
404, 409, 413, 422, 429), 304 for GETs (every GET answer carries an ETag), and the headers every
answer carries (X-Request-ID; ETag; rate limits; Retry-After on a 429). The views declare their
operationId, schemas and the rest."""

from __future__ import annotations

from typing import Any

from apispec import BasePlugin

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
    """Completes every operation's answers (see the module's docstring)."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any
    ) -> None:
        if not path or not operations:
            return
        on_api = path.startswith("/api/")
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
                    if on_api:
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
            if not on_api:
                continue
            writes = method in ("post", "put", "patch")
            wanted = {"401": "UNAUTHORIZED", "429": "TOO_MANY_REQUESTS"}
            if operation.get("x-roles"):
                wanted["403"] = "FORBIDDEN"
            if "{" in path:
                wanted["404"] = "NOT_FOUND"
            if writes:
                wanted.update(
                    {"400": "BAD_REQUEST", "413": "REQUEST_ENTITY_TOO_LARGE", "422": "UNPROCESSABLE_ENTITY"}
                )
            if operation.get("operationId") in CONFLICTS:
                wanted["409"] = "CONFLICT"
            for status, name in wanted.items():
                responses.setdefault(status, name)
