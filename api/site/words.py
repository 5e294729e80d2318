"""Words the site says (R24): places, counts, statuses and the public reasons a player above the
cut is not on a qualifier list (R13, R14; the personal ones read "not eligible", R19). Codes and
counts are said by api/words, as everywhere people read them."""

from __future__ import annotations

from api.words import CODES, plural
from models.rules.knockouts import ordinal
from models.rules.qualifiers import public_reason

# A result's status beside its player; "played" goes without saying.
STATUS_WORDS = {code: "" if code == "played" else words for code, words in CODES["status"].items()}

__all__ = ["STATUS_WORDS", "ordinal", "plural", "public_reason"]
