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
from sqlalchemy.dialects import postgresql, sqlite

from api import db
from api.auth import current_actor
from api.fields import QUERY_TRUE
from models.entities.idempotency import IdempotentRequest
from models.errors import Conflict, InvalidInput, Problem
from models.infra.clock import utcnow

HEADER = "Idempotency-Key"
KEEP_FOR = timedelta(hours=48)  # at least the 24 hours the API promises


def _request_hash() -> str:
    """What makes two requests "the same": method, path, query and the body. A JSON body is
    compared as data, so a client that re-serialises its retry is still recognised."""
    digest = hashlib.sha256()
    for part in (request.method, request.path, request.query_string.decode(), request.mimetype):
        digest.update(part.encode() + b"\0")
    body = request.get_data()
    if request.is_json:
        parsed = request.get_json(silent=True)
        if parsed is not None:
            body = json.dumps(parsed, sort_keys=True, separators=(",", ":")).encode()
    digest.update(body)
    return digest.hexdigest()


def _earlier(key_id: int, key: str) -> IdempotentRequest | None:
    return db.session().scalar(
        select(IdempotentRequest).where(
            IdempotentRequest.api_key_id == key_id,
            IdempotentRequest.idempotency_key == key,
            IdempotentRequest.created_at >= utcnow() - KEEP_FOR,
        )
    )


def _replay(earlier: IdempotentRequest, fingerprint: str, key: str) -> Response:
    if earlier.request_hash != fingerprint:
        raise Conflict(
            f"The {HEADER} {key!r} was used with another request; use a new key for a new report.",
            problems=[Problem(HEADER, "Already used with a different body.")],
        )
    replay = Response(
        json.dumps(earlier.response_body), status=earlier.status_code, mimetype="application/json"
    )
    replay.headers["Idempotent-Replayed"] = "true"
    return replay


def _claim(key_id: int, key: str, fingerprint: str) -> IdempotentRequest | None:
    """R17a: take the key before the write, as a row of this transaction (INSERT … ON CONFLICT DO
    NOTHING on the key's unique constraint): the claim, to be completed with the answer. A retry
    sent meanwhile waits at its own claim until this transaction ends, then finds the answer
    stored (it replays it) or nothing (the first one failed: the retry writes). None: the key is
    taken, by an answer the caller can now read."""
    session = db.session()
    # An answer past KEEP_FOR is forgotten: the key is free again.
    session.execute(
        delete(IdempotentRequest).where(
            IdempotentRequest.api_key_id == key_id,
            IdempotentRequest.idempotency_key == key,
            IdempotentRequest.created_at < utcnow() - KEEP_FOR,
        )
    )
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    claimed = session.execute(
        dialect.insert(IdempotentRequest)
        .values(
            api_key_id=key_id,
            idempotency_key=key,
            request_hash=fingerprint,
            # Not answered yet: completed before this transaction commits, or gone with it.
            status_code=0,
            response_body={},
            created_at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=["api_key_id", "idempotency_key"])
        .returning(IdempotentRequest.id)
    ).scalar()
    return None if claimed is None else session.get(IdempotentRequest, claimed)


def idempotent(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a write view: the key is claimed first (`_claim`), and the first 2xx answer under it
    is stored in the claim, in the same transaction as the write; any other answer leaves the key
    unused (a refusal's rollback takes the claim with it)."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        actor = current_actor()
        dry_run = request.args.get("dry_run", "").lower() in QUERY_TRUE
        if key is None or actor.key_id is None or dry_run:  # a dry run stores nothing to replay
            return view(*args, **kwargs)
        key = key.strip()
        if not 1 <= len(key) <= 255:
            raise InvalidInput.at(HEADER, f"{HEADER} must be 1 to 255 characters.")
        session = db.session()
        fingerprint = _request_hash()
        earlier = _earlier(actor.key_id, key)
        if earlier is not None:
            return _replay(earlier, fingerprint, key)
        claim = _claim(actor.key_id, key, fingerprint)
        if claim is None:  # a retry sent at the same moment: answered while this one waited
            earlier = _earlier(actor.key_id, key)
            if earlier is None:  # not expected: the claim that won is an answer within KEEP_FOR
                raise Conflict(f"The {HEADER} {key!r} was in use at the same moment; send the request again.")
            return _replay(earlier, fingerprint, key)
        response: Response = view(*args, **kwargs)
        if not 200 <= response.status_code < 300:
            session.delete(claim)
            return response
        session.execute(delete(IdempotentRequest).where(IdempotentRequest.created_at < utcnow() - KEEP_FOR))
        claim.status_code = response.status_code
        claim.response_body = response.get_json()
        session.flush()
        return response

    # The Idempotency-Key header is documented by api/spec.py for every operation marked so.
    return Blueprint.doc(**{"x-idempotent": True})(wrapper)
