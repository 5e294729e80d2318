"""The bumps of scopes since a mark: what the refresher (api/cache/refresher.py) computes again.

Every bump of a scope is recorded where the triggers write `scope_versions` (migration 0037): the
row's `seq` is the number of its latest bump, from one league-wide increasing counter. The
refresher keeps a `Mark` (the highest number it has seen) and asks, each pass, for the scopes
bumped since: `bumped_since`.

A number is taken when the bump is written, before the commit. On SQLite writers take turns, so
numbers become visible in their order. On PostgreSQL they may not: a transaction holding 100
may commit after one holding 101 was seen, and a mark of 101 alone would miss it. So the row
also records its transaction (`xact`), and the mark keeps the transactions that were in progress
when it was taken (`pending`, from the same snapshot as the rows it read). A bump the mark does
not cover is either seen already, or made by a transaction pending then (asked for by `xact`
until it ends), or numbered after the mark was taken (a transaction that had not yet written
then takes its numbers later, and the counter only moves on): none is missed, whatever the
order of the commits, and no number is waited for.

Answers keyed by the league's data version rather than by scopes are filed under `DATA`: a mark
also keeps the data version it saw, and a pass after it moved names `DATA` among the bumped."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Connection, text

# What an answer keyed by the league's data version (no scope) is filed under.
DATA = "data"


@dataclass(frozen=True)
class Mark:
    """Where the refresher stands: the highest bump number it has seen, the transactions in
    progress then (PostgreSQL), and the data version it saw (epoch, version)."""

    seq: int = 0
    pending: tuple[int, ...] = ()
    data: tuple[str, int] | None = None

    def dumps(self) -> bytes:
        return json.dumps({"seq": self.seq, "pending": list(self.pending), "data": self.data}).encode()

    @classmethod
    def loads(cls, value: bytes | None) -> Mark:
        """A mark kept before; none (or unreadable): from the start."""
        if not value:
            return cls()
        try:
            kept = json.loads(value)
            data = kept.get("data")
            return cls(
                int(kept["seq"]),
                tuple(int(x) for x in kept.get("pending", ())),
                None if data is None else (str(data[0]), int(data[1])),
            )
        except (ValueError, KeyError, TypeError, IndexError):
            return cls()


# PostgreSQL: one statement, so the rows and the transactions in progress are of one snapshot.
_POSTGRESQL = text(
    "SELECT 'bump', scope, seq FROM scope_versions WHERE seq > :seq OR xact = ANY(CAST(:pending AS bigint[]))"
    " UNION ALL SELECT 'open', NULL, CAST(CAST(x AS text) AS bigint)"
    " FROM pg_snapshot_xip(pg_current_snapshot()) AS x"
    " UNION ALL SELECT 'data', epoch, version FROM data_version"
)
_SQLITE = text(
    "SELECT 'bump', scope, seq FROM scope_versions WHERE seq > :seq"
    " UNION ALL SELECT 'data', epoch, version FROM data_version"
)


def bumped_since(connection: Connection, mark: Mark) -> tuple[list[str], Mark]:
    """The scopes bumped since `mark` (and `DATA` when the data version moved), the latest
    bumped last; and the mark to keep once their answers are computed again. A mark of another
    epoch (a backup restored: numbers may repeat) counts from the start."""
    scopes, new = _bumped(connection, mark)
    if mark.data is not None and new.data is not None and new.data[0] != mark.data[0]:
        scopes, new = _bumped(connection, Mark())
    return scopes, new


def _bumped(connection: Connection, mark: Mark) -> tuple[list[str], Mark]:
    postgresql = connection.dialect.name == "postgresql"
    statement = _POSTGRESQL if postgresql else _SQLITE
    params = {"seq": mark.seq, "pending": list(mark.pending)} if postgresql else {"seq": mark.seq}
    bumps: list[tuple[int, str]] = []
    pending: list[int] = []
    data = mark.data
    for kind, name, number in connection.execute(statement, params):
        if kind == "bump":
            bumps.append((int(number), str(name)))
        elif kind == "open":
            pending.append(int(number))
        else:
            data = (str(name), int(number))
    scopes = [scope for _seq, scope in sorted(bumps)]
    if data != mark.data:
        scopes.append(DATA)
    seq = max([mark.seq, *(number for number, _scope in bumps)])
    return scopes, Mark(seq, tuple(sorted(pending)), data)
