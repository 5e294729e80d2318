"""R23, webhooks: which events a subscription gets (and, made without a list, which its format
wants), when a failed delivery is tried again, and an event said as a Discord or Slack message:
one message a change, its dates said as the league says them (R24). Pure: the services store,
the worker sends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from models.rules.people_dates import DateWords
from models.rules.players import player_labels

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
# Tries go on for a day from the event: 30 s, 1 min, 2 min, … doubling, at most an hour apart.
FIRST_RETRY = timedelta(seconds=30)
LONGEST_WAIT = timedelta(hours=1)
GIVE_UP_AFTER = timedelta(hours=24)
# Formats whose receiver is a chat channel: one message a change, said for people.
CHAT_FORMATS = frozenset({"discord", "slack"})
# What a subscription made without a list of events hears. A chat channel gets a message for each
# report posted, corrected or voided, each saying what it changed; never a second "Standings
# updated" for the same report. The json default is the one the console always ticked.
CHAT_EVENTS = ("report.posted", "report.corrected", "report.voided")
JSON_EVENTS = ("report.posted", "standings.changed")


def default_events(fmt: str) -> list[str]:
    """R23: the events a new subscription of format `fmt` hears unless the office names others."""
    return list(CHAT_EVENTS if fmt in CHAT_FORMATS else JSON_EVENTS)


@dataclass(frozen=True)
class Target:
    """What a subscription wants: kinds, and a venue or a region (neither: the whole league)."""

    events: frozenset[str]
    venue_id: int | None
    region_id: int | None
    staff: bool
    format: str = "json"


@dataclass(frozen=True)
class Told:
    """An event as the subscriptions choose it: its kind, venue, region, and whether it is for
    staff alone."""

    kind: str
    venue_id: int | None = None
    region_id: int | None = None
    staff_only: bool = False


def wants(
    target: Target,
    kind: str,
    venue_id: int | None,
    region_id: int | None,
    staff_only: bool,
    beside: Told | None = None,
) -> bool:
    """R23: a subscription gets an event of a kind it names, about its venue or region (an event
    about no venue, e.g. qualifiers published, goes to every subscription of its kind), and an
    event for staff only if the office marked it staff. An event told `beside` another of the same
    change (the standings a report moved, beside the report) does not reach a chat channel that
    hears that other one: a change is one message in a chat."""
    if kind not in target.events and "*" not in target.events:
        return False
    if staff_only and not target.staff:
        return False
    if target.venue_id is not None and venue_id is not None and venue_id != target.venue_id:
        return False
    if target.region_id is not None and region_id is not None and region_id != target.region_id:
        return False
    if beside is not None and target.format in CHAT_FORMATS:
        return not wants(target, beside.kind, beside.venue_id, beside.region_id, beside.staff_only)
    return True


def next_try(created: datetime, attempts: int, now: datetime) -> datetime | None:
    """When to try again after `attempts` failed tries (exponential backoff), or None: a day has
    passed since the event, and the delivery is given up."""
    wait = min(FIRST_RETRY * (2 ** max(attempts - 1, 0)), LONGEST_WAIT)
    when = now + wait
    return None if when > created + GIVE_UP_AFTER else when


# How a chat message says dates when no league's words are given (R24's defaults).
AS_SAID = DateWords()
TOP = 3
# A chat message's list of knockouts stops near this many characters ("… and 12 more"): Discord
# takes 2,000 in all.
KNOCKOUTS_ROOM = 1200

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
REPORT_EVENT_KINDS = frozenset({"report.posted", "report.corrected", "report.voided"})


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _labels(data: Mapping[str, Any]) -> dict[int, str]:
    """R19: the players a report's message names, each by display name, with the player number
    where two of them share one."""
    named: list[tuple[int, str]] = []
    for row in data.get("top") or []:
        named.append((row["player_id"], row["display_name"]))
    for row in data.get("knockouts") or []:
        named += [(row["player_id"], row["display_name"]), (row["by_player_id"], row["by_display_name"])]
    return player_labels(named)


def where_and_when(data: Mapping[str, Any], words: DateWords = AS_SAID) -> str:
    """The venue and the date in the league's words (R24), "**The Crown**, Tue 1 Dec 2026"; then
    the session when the venue held more than one that date ("session 2"), and a kind other
    than regular ("playoff")."""
    said = f"**{data.get('venue_name') or 'A venue'}**"
    day = words.day_of(data.get("date"))
    if day:
        said += f", {day}"
    session = data.get("session") or 1
    if session > 1 or (data.get("sessions") or 1) > 1:
        said += f", session {session}"
    if data.get("kind") not in (None, "regular"):
        said += f", {data['kind']}"
    return said


def recap_lines(data: Mapping[str, Any], words: DateWords = AS_SAID) -> list[str]:
    """A report's recap, as a chat message says it: where and when (`where_and_when`), the
    entrants, the top three, and who knocked out whom (R8a)."""
    names = _labels(data)
    lines = [f"{where_and_when(data, words)}: {data.get('entrants', 0)} entrants"]
    for row in (data.get("top") or [])[:TOP]:
        lines.append(f"{row['place']}. {names[row['player_id']]} ({row['points']} pts)")
    knockouts = knockouts_said(data.get("knockouts") or [], names)
    if knockouts:
        lines.append(f"Knockouts: {knockouts}")
    return lines


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def knockouts_said(rows: Sequence[Mapping[str, Any]], names: Mapping[int, str]) -> str:
    """R8a: "Bea B. knocked out Ann A. and Cal C.; Ann A. knocked out Dee D.": each knocker (the
    best placed first) with the players they knocked out (by place); "" when none. A long list
    stops near KNOCKOUTS_ROOM characters, saying how many more there were."""
    by_knocker: dict[int, list[Mapping[str, Any]]] = {}
    places: dict[int, int] = {}
    for row in sorted(rows, key=lambda r: r["place"]):
        by_knocker.setdefault(row["by_player_id"], []).append(row)
        places.setdefault(row["by_player_id"], row.get("by_place") or 0)
    parts: list[str] = []
    told = 0
    for knocker in sorted(by_knocker, key=lambda k: (places[k], k)):
        outs = by_knocker[knocker]
        part = f"{names[knocker]} knocked out {_and([names[row['player_id']] for row in outs])}"
        if parts and sum(len(p) + 2 for p in parts) + len(part) > KNOCKOUTS_ROOM:
            break
        parts.append(part)
        told += len(outs)
    said = "; ".join(parts)
    more = len(rows) - told
    return said + (f"; and {more} more" if more else "")


def _pairs(rows: Sequence[Mapping[str, Any]] | None) -> list[tuple[int, int]]:
    return sorted((row["player_id"], row["by_player_id"]) for row in rows or [])


def _same_place(old: Mapping[str, Any], new: Mapping[str, Any] | None) -> bool:
    return new is not None and (old["player_id"], old["points"]) == (new["player_id"], new["points"])


def _change_lines(data: Mapping[str, Any], words: DateWords) -> list[str]:
    """R17: what a correction changed, from the report as it was (`previous`) to what it is: its
    venue, date, session, entrants, each of the top three places (who held it, with what), and
    the knockouts. A change below them reads as such. Nothing when the event does not say what
    the report was."""
    was = data.get("previous")
    if not isinstance(was, Mapping):
        return []
    names = {**_labels(was), **_labels(data)}
    changed: list[str] = []
    if was.get("venue_id") != data.get("venue_id"):
        changed.append(f"the venue (was {was.get('venue_name')})")
    if was.get("date") != data.get("date"):
        changed.append(f"the date (was {words.day_of(was.get('date'))})")
    if was.get("session") != data.get("session"):
        changed.append(f"the session (was {was.get('session')})")
    if was.get("entrants") != data.get("entrants"):
        changed.append(f"entrants (was {was.get('entrants')})")
    after = {row["place"]: row for row in data.get("top") or []}
    for old in (was.get("top") or [])[:TOP]:
        if not _same_place(old, after.get(old["place"])):
            changed.append(f"{ordinal(old['place'])} (was {names[old['player_id']]}, {old['points']} pts)")
    if _pairs(was.get("knockouts")) != _pairs(data.get("knockouts")):
        changed.append("the knockouts" if data.get("knockouts") else "the knockouts (none now)")
    said = "; ".join(changed) if changed else "places or points below the top three"
    return [f"What changed: {said}"]


def chat_text(kind: str, data: Mapping[str, Any], words: DateWords = AS_SAID) -> str:
    """An event as one chat message (Discord, Slack): what happened, and a report's recap; a
    correction with what it changed, a void with what no longer counts (R17). Its date as the
    league says dates (R24: the event's data keeps ISO 8601)."""
    head = SAID.get(kind, kind)
    if kind == "report.voided":
        top = (data.get("top") or [])[:1]
        won = f", won by {_labels(data)[top[0]['player_id']]}" if top else ""
        return (
            f"{head}: {where_and_when(data, words)}: {data.get('entrants', 0)} entrants{won}\n"
            "These results no longer count toward the standings."
        )
    if kind in REPORT_EVENT_KINDS:
        first, *rest = recap_lines(data, words)
        more = _change_lines(data, words) if kind == "report.corrected" else []
        return "\n".join([f"{head}: {first}", *rest, *more])
    where, day = data.get("venue_name"), words.day_of(data.get("date"))
    return f"{head}" + (f": {where}" if where else "") + (f", {day}" if day else "")


def formatted(fmt: str, kind: str, envelope: Mapping[str, Any], words: DateWords = AS_SAID) -> dict[str, Any]:
    """The body a subscription's format asks for: the event as JSON (dates in ISO 8601), or a
    chat message (dates as the league says them, `words`, R24)."""
    if fmt == "discord":
        return {"content": chat_text(kind, envelope["data"], words)[:2000], "allowed_mentions": {"parse": []}}
    if fmt == "slack":
        # Slack reads &, < and > as its own markup (<!channel> would call everyone): escaped.
        text = chat_text(kind, envelope["data"], words).replace("&", "&amp;")
        return {"text": text.replace("<", "&lt;").replace(">", "&gt;").replace("**", "*")}
    return dict(envelope)


def unknown_kinds(events: Sequence[str]) -> list[str]:
    return [kind for kind in events if kind != "*" and kind not in EVENT_KINDS]
