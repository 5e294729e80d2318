"""Signed-in sessions of the web console: a random token in the browser's cookie stands for an API
key kept here by its id (the key itself never reaches the browser after sign-in)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow


class ConsoleSession(Base):
    __tablename__ = "console_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # sha256 of the cookie's token: a copy of this table opens no session.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    api_key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime, index=True)
