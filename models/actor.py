"""Who is calling: the public, a host bound to venues, the office, or a command on the server."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    """Who may act: the public, a host, the office, or a command on the server. An API key is
    a host's or the office's (models/entities/access.ROLES)."""

    PUBLIC = "public"
    HOST = "host"
    OFFICE = "office"
    SYSTEM = "system"


ACTOR_ROLES = tuple(role.value for role in Role)


@dataclass(frozen=True)
class Actor:
    role: str  # a Role: public, host, office or system (the command line)
    name: str
    key_id: int | None = None
    venue_ids: frozenset[int] = field(default_factory=frozenset)
    request_id: str | None = None

    @property
    def is_office(self) -> bool:
        return self.role in ("office", "system")

    @property
    def is_host(self) -> bool:
        return self.role == "host"

    def hosts_venue(self, venue_id: int | None) -> bool:
        return venue_id is not None and venue_id in self.venue_ids


PUBLIC = Actor(role=Role.PUBLIC, name="public")
SYSTEM = Actor(role=Role.SYSTEM, name="command line")
