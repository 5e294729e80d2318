"""The stored answers of idempotent requests (not league data: no data-version triggers)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow


class IdempotentRequest(Base):
    """A write answered under an Idempotency-Key: a retry with the same key and body gets the
    same answer without storing anything again. Scoped to the API key; kept 48 hours
    (`api/idempotency.py`, the only code that uses it)."""

    __tablename__ = "idempotent_requests"
    __table_args__ = (UniqueConstraint("api_key_id", "idempotency_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    api_key_id: Mapped[int] = mapped_column(Integer)
    idempotency_key: Mapped[str] = mapped_column(String(255))
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response_body: Mapped[Any] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
