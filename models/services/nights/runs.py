"""What a night's action works with (R22): the night's row locked, its entries, the caller, this
instant and the random source of every draw (`secrets`, never `random`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities import Night, NightAction, NightEntry
from models.errors import Conflict, Problem
from models.rules.nights import ReEntry
from models.rules.notices import Notice
from models.rules.structures import LateRegistration, seconds_played
from models.rules.structures import Structure as Rules
from models.services.lookup import get_or_raise
from models.services.structures.writes import rules_of


class NightMoved(Conflict):
    """R22: the action was made on an older state of the night than the one stored."""

    def __init__(self, night: Night, made_on: int) -> None:
        super().__init__(
            f"The night moved on since this action was made (it was made on state {made_on}, the "
            f"night is at {night.sequence}): redo it on the night as it stands.",
            rule="R22",
            problems=[Problem("sequence", f"The night is at {night.sequence} now.", "R22")],
        )
        self.night = night


@dataclass
class Run:
    """What an action works with: the locked night, its entries, the caller, this instant and
    the random source of every draw (`secrets`)."""

    session: Session
    actor: Actor
    night: Night
    entries: list[NightEntry]
    now: datetime
    rng: secrets.SystemRandom = field(default_factory=secrets.SystemRandom)
    notices: list[Notice] = field(default_factory=list)

    @property
    def rules(self) -> Rules:
        kept = self.night.structure
        return rules_of(kept["levels"], kept.get("breaks", []), kept["starting_chips"])

    @property
    def late_rule(self) -> LateRegistration:
        return LateRegistration(self.night.late_after_level, self.night.late_minutes)

    @property
    def played(self) -> float:
        night = self.night
        return seconds_played(
            night.clock_started_at,
            night.clock_paused_at,
            night.paused_seconds,
            self.now,
            night.clock_moved_seconds,
        )

    @property
    def re_entry(self) -> ReEntry:
        return re_entry_of(self.night)

    def entry(self, player_id: int) -> NightEntry | None:
        return next((e for e in self.entries if e.player_id == player_id), None)

    @property
    def playing(self) -> list[NightEntry]:
        return [e for e in self.entries if e.status == "playing"]


@dataclass
class Applied:
    action: NightAction
    night: Night
    replayed: bool
    notices: list[Notice]


Handler = Callable[[Run, dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]


def re_entry_of(night: Night) -> ReEntry:
    """The re-entry the night was opened with (its venue's then, R22)."""
    return ReEntry(night.re_entry_allowed, night.re_entry_until_break)


def take_night(session: Session, night_id: int) -> Night:
    """The night's row, reloaded under a lock (FOR NO KEY UPDATE; SQLite: its write lock)."""
    get_or_raise(session, Night, night_id, "night")
    query = select(Night).where(Night.id == night_id).with_for_update(key_share=True)
    return session.scalars(query.execution_options(populate_existing=True)).one()


def entries_of(session: Session, night_id: int) -> list[NightEntry]:
    query = select(NightEntry).where(NightEntry.night_id == night_id).order_by(NightEntry.id)
    return list(session.scalars(query))
