"""Who may do what: each permission decided once, here, by name, and called by every service
(and so every door, API or console) that needs it. A refusal is a `Forbidden` (403)."""

from __future__ import annotations

from collections.abc import Iterable

from models.actor import Actor
from models.errors import Forbidden


def require_role(actor: Actor, roles: Iterable[str]) -> None:
    """A key of one of these roles (the HTTP layer answers the public's missing key first)."""
    allowed = tuple(roles)
    if actor.role not in allowed:
        raise Forbidden(f"This needs a key of role {' or '.join(allowed)}; yours is {actor.role}.")


def require_office(actor: Actor, what: str, *, rule: str | None = None) -> None:
    """Only the office (or a command on the server) does `what` ("merges players", …)."""
    if not actor.is_office:
        raise Forbidden(f"Only the office {what}.", rule=rule)


def require_venue(actor: Actor, venue_id: int, why: str) -> None:
    """The office, or a host of this venue (`Actor.acts_for`); `why` says what its hosts may do
    ("a host reports for their own venues")."""
    if not actor.acts_for(venue_id):
        raise Forbidden(f"Your key does not host venue {venue_id}: {why}.")
