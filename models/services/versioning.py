"""The league's data version (models/entities/service.py): read before a cached answer, renewed
after a restore."""

from __future__ import annotations

import secrets

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from models.entities.service import DataVersion

# A session that only reads (a GET's) may carry in its `info`, under MEMO, a mapping in which
# what it computes is kept under the data version it read: it holds no uncommitted change of its
# own, so nothing it keeps can be taken for another transaction's data. A writer never has one.
MEMO = "memo"


def data_version(session: Session) -> tuple[str, int]:
    """(epoch, version) as this transaction sees it. Read it first: whatever the answer then reads
    is at least as new, so an answer is never filed under a newer version than its data."""
    row = session.execute(select(DataVersion.epoch, DataVersion.version)).one()
    return row.epoch, row.version


def renew_epoch(session: Session) -> str:
    """After restoring a backup, versions repeat: a new epoch retires every cached answer."""
    epoch = secrets.token_hex(16)
    session.execute(update(DataVersion).values(epoch=epoch, version=DataVersion.version + 1))
    return epoch
