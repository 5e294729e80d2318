"""API keys: who may call what (public, host, office); only the SHA-256 of a key is stored. And
the web console's sign-ins, each standing for a key."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Enum, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.entities.base import Base
from models.infra.clock import utcnow

# The roles a key may have: models/actor.Role's OFFICE and HOST (entities import no actor).
ROLES = ("office", "host")


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    role: Mapped[str] = mapped_column(
        Enum(*ROLES, name="key_role", native_enum=False, create_constraint=True)
    )
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The first characters of the key, so the office can tell keys apart without the secret.
    key_prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime)

    venue_links: Mapped[list[ApiKeyVenue]] = relationship(
        cascade="all, delete-orphan", order_by="ApiKeyVenue.venue_id"
    )

    @property
    def venue_ids(self) -> list[int]:
        return [link.venue_id for link in self.venue_links]


class ApiKeyVenue(Base):
    __tablename__ = "api_key_venues"

    api_key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id", ondelete="CASCADE"), primary_key=True)
    venue_id: Mapped[int] = mapped_column(ForeignKey("venues.id"), primary_key=True, index=True)


class ConsoleSignIn(Base):
    """A sign-in to the web console: a random token in the browser's cookie stands for an API key
    kept here by its id (the key itself never reaches the browser after sign-in). The table keeps
    its first name, console_sessions."""

    __tablename__ = "console_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # sha256 of the cookie's token: a copy of this table opens no sign-in.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    api_key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime, index=True)
