"""Words the site says (R24): places, counts, statuses and the public reasons a player above the
cut is not on a qualifier list (R13, R14; the personal ones read "not eligible", R19)."""

from __future__ import annotations

from models.rules.knockouts import ordinal

STATUS_WORDS = {
    "played": "",
    "declared_withdrawal": "withdrew",
    "absent": "left without saying (blinded off)",
    "no_show": "signed in, did not play",
}

# R19: a reason drawn from personal or discipline records is "not eligible" in public.
PUBLIC_REASONS = {
    "ineligible": "not eligible",
    "underage": "not eligible",
    "disqualified": "not eligible",
    "suspended": "not eligible",
}


def plural(count: int, noun: str) -> str:
    """ "1 night", "3 nights" (never "1 nights")."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


__all__ = ["PUBLIC_REASONS", "STATUS_WORDS", "ordinal", "plural"]
