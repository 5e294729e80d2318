"""Idempotency-Key: a retried write returns the first answer instead of storing twice."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from flask import Response, json, request
from flask_smorest import Blueprint
from sqlalchemy import delete, select

from api import db
from api.auth import current_actor
from models.base import utcnow
from models.errors import Conflict, InvalidInput
from models.tournaments import IdempotentRequest

HEADER = "Idempotency-Key"
KEEP_FOR = timedelta(hours=48)  # at least the 24 hours API.md promises


def _request_hash() -> str:
    digest = hashlib.sha256()
    for part in (request.method, request.path, request.query_string.decode(), request.mimetype):
        digest.update(part.encode() + b"\0")
    digest.update(request.get_data())
    return digest.hexdigest()


def idempotent(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a write view: the first 2xx answer under a key is stored in the same transaction."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        actor = current_actor()
        if key is None or actor.key_id is None:
            return view(*args, **kwargs)
        key = key.strip()
        if not 1 <= len(key) <= 255:
            raise InvalidInput(
                f"{HEADER} must be 1 to 255 characters.", errors={HEADER: ["1 to 255 characters."]}
            )
        session = db.session()
        fingerprint = _request_hash()
        earlier = session.scalar(
            select(IdempotentRequest).where(
                IdempotentRequest.api_key_id == actor.key_id,
                IdempotentRequest.idempotency_key == key,
                IdempotentRequest.created_at >= utcnow() - KEEP_FOR,
            )
        )
        if earlier is not None:
            if earlier.request_hash != fingerprint:
                raise Conflict(
                    f"The {HEADER} {key!r} was used with another request; use a new key for a new report.",
                    errors={HEADER: ["Already used with a different body."]},
                )
            replay = Response(
                json.dumps(earlier.response_body), status=earlier.status_code, mimetype="application/json"
            )
            replay.headers["Idempotent-Replayed"] = "true"
            return replay
        response: Response = view(*args, **kwargs)
        if 200 <= response.status_code < 300:
            session.execute(
                delete(IdempotentRequest).where(IdempotentRequest.created_at < utcnow() - KEEP_FOR)
            )
            session.add(
                IdempotentRequest(
                    api_key_id=actor.key_id,
                    idempotency_key=key,
                    request_hash=fingerprint,
                    status_code=response.status_code,
                    response_body=response.get_json(),
                )
            )
            session.flush()
        return response

    return Blueprint.doc(
        parameters=[
            {
                "in": "header",
                "name": HEADER,
                "required": False,
                "schema": {"type": "string", "maxLength": 255},
                "description": "Retry-safe writes: the same key and body answer the first result "
                "again (kept 48 hours); the same key with another body is a 409.",
            }
        ]
    )(wrapper)
