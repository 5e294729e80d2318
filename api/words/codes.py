"""Codes as words (a part of api/words): sanction kinds and categories, entrant statuses, kinds
of night, skip reasons and flags of a qualifier list, event kinds, chart kinds, roles, …, as
people read them; and the small words: "1 season", one full stop after "Wendy P."."""

from __future__ import annotations

import re
from collections.abc import Iterable

from models.rules.webhooks import SAID as EVENT_WORDS

CODES: dict[str, dict[str, str]] = {
    "sanction_kind": {
        "reminder": "reminder",
        "warning": "warning",
        "suspension": "suspension",
        "venue_ban": "venue ban",
    },
    "sanction_category": {
        "cheating": "cheating",
        "collusion": "collusion",
        "berating": "berating",
        "fighting": "fighting",
        "outside_alcohol": "outside alcohol",
        "gambling": "gambling",
        "bad_etiquette": "bad etiquette",
        "late_arrival": "late arrival",
        "other": "other",
    },
    "status": {
        "played": "played",
        "declared_withdrawal": "withdrew",
        "absent": "absent (left without saying)",
        "no_show": "no-show (signed in, never played)",
    },
    "tournament_kind": {
        "regular": "regular night",
        "playoff": "regional playoff",
        "championship": "championship",
    },
    "skip_reason": {
        "underage": "under the minimum age",
        "disqualified": "disqualified for the season",
        "suspended": "suspended",
        "too_few_events": "too few nights played",
        "qualified_elsewhere": "qualifies at another venue",
        "ineligible": "not eligible",
    },
    "flag": {
        "tie_at_cut": "level at the cut",
        "tie_settled": "level at the cut, settled by the draw",
        "age_unverified": "age unverified",
    },
    "event_kind": {**EVENT_WORDS, "*": "everything"},
    "chart_kind": {"top_fraction": "top of the field", "bands": "bands", "formula": "formula"},
    "preset": {"linear": "linear", "square_root": "square root", "logarithmic": "logarithmic"},
    "delivery_state": {"pending": "waiting to be sent", "delivered": "delivered", "gave_up": "given up"},
    "role": {"office": "office", "host": "host"},
    "consent_source": {
        "door": "at the door",
        "office": "to the league office",
        "online": "online",
        "other": "another way",
        "self": "by themself, from the email's link",
    },
    "bounty": {
        "none": "none",
        "venue_leader": "on the venue's leader",
        "last_winner": "on last night's winner",
    },
    "double_qualifier_policy": {
        "best_rank": "where they rank best",
        "most_played": "where they played most nights",
        "home_venue": "their home venue",
    },
    "schedule_change": {"cancelled": "cancelled", "moved": "moved", "added": "make-up night"},
    "webhook_format": {
        "json": "JSON (the event, signed)",
        "discord": "Discord message",
        "slack": "Slack message",
    },
}
# Every code, whatever its kind: how a code met inside a sentence reads.
ANY_CODE = {code: words for table in CODES.values() for code, words in table.items() if "_" in code}


def in_words(code: str | None, kind: str) -> str:
    """A code of the given kind as people read it ("venue_ban" → "venue ban"); a code this
    module does not know reads with spaces for underscores."""
    if code is None:
        return ""
    return CODES.get(kind, {}).get(str(code), str(code).replace("_", " "))


def choices(kind: str, codes: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """A select's choices: each code, as people read it, capitalised ("Venue ban")."""
    listed = codes if codes is not None else CODES[kind]
    return [(code, in_words(code, kind)[:1].upper() + in_words(code, kind)[1:]) for code in listed]


# Small words ----------------------------------------------------------------------------------


def plural(count: int, noun: str, many: str | None = None) -> str:
    """ "1 season", "3 seasons" (never "1 seasons"); `many` where the plural is not noun + s."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


# A full stop after a full stop that ends a name ("Wendy P.."), never an ellipsis ("...").
DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")


def sentence(text: str) -> str:
    """A sentence with one full stop at its end, whatever its last word ends with: "… of Wendy P."
    (a display name ending in a full stop), never "Wendy P..", and no stop after "?" or "!"."""
    said = DOUBLE_STOP.sub(".", text.strip())
    return said if said.endswith((".", "?", "!", "…")) else said + "."
