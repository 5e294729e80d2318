"""Words the site says (R24): places, counts, statuses and the public reasons a player above the
cut is not on a qualifier list (R13, R14; the personal ones read "not eligible", R19)."""

from __future__ import annotations

from models.rules.knockouts import ordinal
from models.rules.qualifiers import public_reason

STATUS_WORDS = {
    "played": "",
    "declared_withdrawal": "withdrew",
    "absent": "left without saying (blinded off)",
    "no_show": "signed in, did not play",
}


def plural(count: int, noun: str) -> str:
    """ "1 night", "3 nights" (never "1 nights")."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


__all__ = ["STATUS_WORDS", "ordinal", "plural", "public_reason"]
