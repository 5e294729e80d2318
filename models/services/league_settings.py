"""League-wide settings (R15's minimum suspension lengths, the league's zone and name, …): read
them, and change them audited."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.discipline import LeagueSettings
from models.services.audit import record_update, snapshot

SETTING_NAMES = (
    "name",
    "min_suspension_days",
    "min_outside_alcohol_months",
    "max_entrants",
    "embed_frame_ancestors",
    "timezone",
    "erase_inactive_after_months",
)


def league_settings(session: Session) -> LeagueSettings:
    """The one row of settings; the migration creates it, and it is made again if ever missing."""
    settings = session.get(LeagueSettings, 1)
    if settings is None:
        settings = LeagueSettings(id=1)
        session.add(settings)
        session.flush()
    return settings


def update_league_settings(session: Session, actor: Actor, changes: dict[str, Any]) -> LeagueSettings:
    """R15, R18: the office changes the settings; the change is audited with before and after.
    Sanctions already issued keep the terms they were issued with."""
    settings = league_settings(session)
    before = snapshot(settings)
    for name in SETTING_NAMES:
        if name in changes:
            setattr(settings, name, changes[name])
    session.flush()
    record_update(
        session,
        actor,
        "league_settings.update",
        "league_settings",
        settings.id,
        before=before,
        after=snapshot(settings),
    )
    return settings
