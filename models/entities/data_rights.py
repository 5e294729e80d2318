"""R21: the players' audit log keys (crypto-shredding) and the list of erasures."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow


class PlayerKey(Base):
    """A player's data key, wrapped by the master key (AUDIT_KEY): every personal value the audit
    log holds about the player is sealed under it. Erasure deletes the row, and with it every such
    value at once (R21), while the entries stay (R18). Not a foreign key: a key outlives nothing
    it could name, and the demo's removal may delete its players."""

    __tablename__ = "player_keys"

    player_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    wrapped_key: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Erasure(Base):
    """A player whose personal data was erased (R21), once (the unique id is the last guard of
    R17a): the list `flask players reapply-erasures` applies again after an older backup is
    restored. It holds no personal value (the reason is in the audit entry)."""

    __tablename__ = "erasures"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(Integer, unique=True)
    erased_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    erased_by: Mapped[str] = mapped_column(String(120))
    erased_by_key_id: Mapped[int | None] = mapped_column(Integer)


class ErasedValue(Base):
    """R21: one personal value of an erased player, as a keyed digest (HMAC-SHA256 under a key
    derived from AUDIT_KEY) of its compact form (`models.rules.mentions`), never the value: a
    later write of free text that names it stores "[erased]" in its place. Without AUDIT_KEY the
    digests tell nothing; with it, only a guess already holding the value can be confirmed."""

    __tablename__ = "erased_values"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
