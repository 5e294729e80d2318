"""R23, webhooks: which events a subscription gets, when a failed delivery is tried again, which
addresses a delivery may never reach (server-side request forgery), and an event said as a
Discord or Slack message, its dates said as the league says them (R24). Pure: the services
store, the worker sends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from models.rules.people_dates import DateWords

# Every kind of event, and whether it is personal (only subscriptions the office marked staff).
EVENT_KINDS: dict[str, bool] = {
    "report.posted": False,
    "report.corrected": False,
    "report.voided": False,
    "standings.changed": False,
    "qualifiers.published": False,
    "night.opened": False,
    "night.ended": False,
    "sanction.recorded": True,
    "sanction.lifted": True,
    "sanction.ended": True,
    "webhook.ping": False,
}
STAFF_KINDS = frozenset(kind for kind, staff in EVENT_KINDS.items() if staff)
# Events for this service's own refresher alone, never delivered (a live night's every action:
# its page is computed again once for all its followers).
INTERNAL_KINDS = frozenset({"night.changed"})
# Tries go on for a day from the event: 30 s, 1 min, 2 min, … doubling, at most an hour apart.
FIRST_RETRY = timedelta(seconds=30)
LONGEST_WAIT = timedelta(hours=1)
GIVE_UP_AFTER = timedelta(hours=24)


@dataclass(frozen=True)
class Target:
    """What a subscription wants: kinds, and a venue or a region (neither: the whole league)."""

    events: frozenset[str]
    venue_id: int | None
    region_id: int | None
    staff: bool


def wants(target: Target, kind: str, venue_id: int | None, region_id: int | None, staff_only: bool) -> bool:
    """R23: a subscription gets an event of a kind it names, about its venue or region (an event
    about no venue, e.g. qualifiers published, goes to every subscription of its kind), and an
    event for staff only if the office marked it staff."""
    if kind not in target.events and "*" not in target.events:
        return False
    if staff_only and not target.staff:
        return False
    if target.venue_id is not None and venue_id is not None and venue_id != target.venue_id:
        return False
    return target.region_id is None or region_id is None or region_id == target.region_id


def next_try(created: datetime, attempts: int, now: datetime) -> datetime | None:
    """When to try again after `attempts` failed tries (exponential backoff), or None: a day has
    passed since the event, and the delivery is given up."""
    wait = min(FIRST_RETRY * (2 ** max(attempts - 1, 0)), LONGEST_WAIT)
    when = now + wait
    return None if when > created + GIVE_UP_AFTER else when


# How a chat message says dates when no league's words are given (R24's defaults).
AS_SAID = DateWords()


def recap_lines(data: Mapping[str, Any], words: DateWords = AS_SAID) -> list[str]:
    """A report's recap, as a chat message says it: venue, date (in the league's words, R24),
    entrants, the top three."""
    venue, day = data.get("venue_name", "A venue"), words.day_of(data.get("date"))
    lines = [f"**{venue}**, {day}: {data.get('entrants', 0)} entrants"]
    for row in data.get("top", [])[:3]:
        lines.append(f"{row['place']}. {row['display_name']} ({row['points']} pts)")
    return lines


SAID = {
    "report.posted": "Results are in",
    "report.corrected": "Results corrected",
    "report.voided": "Results voided",
    "standings.changed": "Standings updated",
    "qualifiers.published": "Qualifiers published",
    "night.opened": "Tonight's game is on",
    "night.ended": "Tonight's game is over",
    "sanction.recorded": "A sanction was recorded",
    "sanction.lifted": "A sanction was lifted",
    "sanction.ended": "A sanction ended",
    "webhook.ping": "A test from the league",
}


def chat_text(kind: str, data: Mapping[str, Any], words: DateWords = AS_SAID) -> str:
    """An event as one chat message (Discord, Slack): what happened, and a report's recap; its
    date as the league says dates (R24: the event's data keeps ISO 8601)."""
    head = SAID.get(kind, kind)
    if kind in ("report.posted", "report.corrected"):
        first, *rest = recap_lines(data, words)
        return "\n".join([f"{head}: {first}", *rest])
    where, day = data.get("venue_name"), words.day_of(data.get("date"))
    return f"{head}" + (f": {where}" if where else "") + (f", {day}" if day else "")


def formatted(fmt: str, kind: str, envelope: Mapping[str, Any], words: DateWords = AS_SAID) -> dict[str, Any]:
    """The body a subscription's format asks for: the event as JSON (dates in ISO 8601), or a
    chat message (dates as the league says them, `words`, R24)."""
    if fmt == "discord":
        return {"content": chat_text(kind, envelope["data"], words)[:2000], "allowed_mentions": {"parse": []}}
    if fmt == "slack":
        return {"text": chat_text(kind, envelope["data"], words).replace("**", "*")}
    return dict(envelope)


def unknown_kinds(events: Sequence[str]) -> list[str]:
    return [kind for kind in events if kind != "*" and kind not in EVENT_KINDS]
