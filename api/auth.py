"""Who is calling: `Authorization: Bearer <key>` names a host or office key; no key is the public."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import g, request
from flask_smorest import Blueprint
from werkzeug.exceptions import Unauthorized

from api import db, throttle
from models.actor import PUBLIC, Actor
from models.services.access import require_role
from models.services.api_keys.writes import authenticate

F = TypeVar("F", bound=Callable[..., Any])

BAD_KEY = "A valid API key is required: Authorization: Bearer <key>."
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def load_actor() -> None:
    """Before each API request: an unknown, revoked or malformed key gets the same 401."""
    header = request.headers.get("Authorization")
    if header is None:
        g.actor = Actor(role="public", name="public", request_id=g.get("request_id"))
        return
    scheme, _, presented = header.partition(" ")
    presented = presented.strip()
    actor = None
    if scheme.lower() == "bearer" and presented and len(presented) <= 200:
        actor = authenticate(db.session(), presented, g.get("request_id"))
    if actor is None:
        # Only wrong keys count against their address, and a valid key is never refused for
        # others' mistakes (a pub's shared Wi-Fi): keys are long and random, so the limit stops
        # floods, not guesses. Counted at once (an atomic increment): of racing wrong keys, only
        # as many as the limit allows get a 401, the rest a 429.
        throttle.take("RATELIMIT_AUTH_FAILURES", request.remote_addr or "unknown")
        raise Unauthorized(BAD_KEY)
    g.actor = actor
    if request.method in WRITES and request.path.startswith("/api/"):
        throttle.take("RATELIMIT_WRITES", "key", str(actor.key_id))


def current_actor() -> Actor:
    actor: Actor = g.get("actor") or PUBLIC
    return actor


def requires(*roles: str) -> Callable[[F], F]:
    """Allow only these roles (host, office); documents the bearer scheme and 401/403 answers."""

    def decorator(func: F) -> F:
        @wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            actor = current_actor()
            if actor.role == "public":
                raise Unauthorized(BAD_KEY)
            require_role(actor, roles)
            return func(*args, **kwargs)

        documented = Blueprint.doc(security=[{"bearerAuth": []}], **{"x-roles": list(roles)})
        return documented(wrapper)

    return decorator


office_only = requires("office")
host_or_office = requires("host", "office")
