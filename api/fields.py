"""Field types shared by the schemas: strict integers, ids, exact decimals, UTC timestamps, zones."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from decimal import Decimal
from typing import Any

from marshmallow import ValidationError, fields, validate

from models.infra import clock

MAX_ID = 2**31 - 1  # PostgreSQL integer: a larger id can match nothing


# The days the league reasons about. Past these, adding a suspension's length, a week or a season
# to a day would leave the calendar (Python's dates end in 9999): refused as input, never a 500.
EARLIEST_DAY, LATEST_DAY = dt.date(1900, 1, 1), dt.date(2999, 12, 31)


# A day as the API writes it: YYYY-MM-DD in ASCII digits. Python's date.fromisoformat (which
# marshmallow's Date uses) also reads "20261201" and "2026-W48-1"; the API takes one shape only.
YYYY_MM_DD = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class Day(fields.Date):
    """A calendar day (YYYY-MM-DD) from 1900-01-01 to 2999-12-31."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dt.date:
        if isinstance(value, str) and not YYYY_MM_DD.fullmatch(value):
            raise self.make_error("invalid")
        day = super()._deserialize(value, attr, data, **kwargs)
        if not EARLIEST_DAY <= day <= LATEST_DAY:
            raise ValidationError(f"Must be a day from {EARLIEST_DAY} to {LATEST_DAY}.")
        return day


class StrictBool(fields.Boolean):
    """A boolean as JSON writes it: true or false (not "yes", "on", 1 or 0)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


QUERY_TRUE, QUERY_FALSE = frozenset({"true", "1"}), frozenset({"false", "0"})


class QueryBool(fields.Boolean):
    """A boolean in a query string: true or false, or 1 or 0 (not "yes" or "on")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        text = value.lower() if isinstance(value, str) else None
        if text in QUERY_TRUE:
            return True
        if text in QUERY_FALSE:
            return False
        raise self.make_error("invalid")


class StrictInt(fields.Integer):
    """An integer as JSON writes it: no 1.5, no "3", no true."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        result: int = super()._deserialize(value, attr, data, **kwargs)
        return result


QUERY_DIGITS = re.compile(r"-?[0-9]{1,18}")


class QueryInt(fields.Integer):
    """An integer in a query string ("?entrants=12"), refusing "1.5" and "1e3"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        # ASCII digits only: str.isdigit() is true for "٣" and "²", which int() reads or refuses.
        if isinstance(value, str) and not QUERY_DIGITS.fullmatch(value.strip()):
            raise self.make_error("invalid")
        result: int = super()._deserialize(value, attr, data, **kwargs)
        return result


def Id(**kwargs: Any) -> StrictInt:  # noqa: N802 - reads like a type in schemas
    return StrictInt(validate=validate.Range(min=1, max=MAX_ID), **kwargs)


def QueryId(**kwargs: Any) -> QueryInt:  # noqa: N802
    return QueryInt(validate=validate.Range(min=1, max=MAX_ID), **kwargs)


class Text(fields.String):
    """Trimmed text that may not be blank, nor hold control characters (PostgreSQL refuses a NUL)."""

    def __init__(self, max_length: int = 200, **kwargs: Any) -> None:
        super().__init__(validate=validate.Length(min=1, max=max_length), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text: str = super()._deserialize(value, attr, data, **kwargs)
        # One spelling per text: "é" typed as one character or as "e" and an accent is the same.
        text = unicodedata.normalize("NFC", " ".join(text.split()))
        if not text:
            raise ValidationError("May not be blank.")
        if any(unicodedata.category(char) == "Cc" for char in text):
            raise ValidationError("May not contain control characters.")
        return text


class QueryText(fields.String):
    """Free text a query string carries (a search's words, a filter's value): taken as given, but
    never with a control character, a NUL above all, which PostgreSQL refuses in text while
    SQLite takes it (the same request would answer a 422 on one and a 200 on the other). May be
    empty, as a search of nothing."""

    def __init__(self, max_length: int | None = None, **kwargs: Any) -> None:
        super().__init__(validate=validate.Length(max=max_length), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text: str = super()._deserialize(value, attr, data, **kwargs)
        if any(unicodedata.category(char) == "Cc" for char in text):
            raise ValidationError("May not contain control characters (a NUL, a tab, a line break).")
        return text


class Name(Text):
    """A name people read (a player's, a venue's, a key's): no invisible characters either, so
    that two names that look alike are alike. Unicode's format characters (category Cf) are
    refused: right-to-left and other direction marks, zero-width spaces and joiners, soft
    hyphens."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        hidden = sorted({f"U+{ord(char):04X}" for char in text if unicodedata.category(char) == "Cf"})
        if hidden:
            raise ValidationError(f"May not contain invisible characters ({', '.join(hidden)}).")
        return text


class ZoneName(Text):
    """R2a: an IANA time zone name (`America/Chicago`), checked against the zone database; an
    offset such as `+02:00` is refused with the IANA form suggested (it knows no summer time)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("metadata", {}).setdefault("example", "America/Chicago")
        super().__init__(max_length=64, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        name = super()._deserialize(value, attr, data, **kwargs)
        try:
            return clock.check_zone(name)
        except clock.UnknownZone as exc:
            raise ValidationError(str(exc)) from None


# A number as JSON writes one: no sign but minus, digits on both sides of a point, no spaces.
JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


class ExactNumber(fields.Decimal):
    """Read as an exact Decimal (0.3 stays 0.3), written as a JSON number.

    A JSON number is read as written (api/blueprint.py: never through a binary float), and so is
    a string that spells one as JSON does ("0.3"; not "5.", ".5" or " 0.3"). At most
    `max_places` decimal places (the columns are Numeric(5, 4)): a number with more is refused,
    never rounded (by the database, or to 0 past a check constraint).
    """

    def __init__(self, max_places: int = 4, **kwargs: Any) -> None:
        super().__init__(allow_nan=False, **kwargs)
        self.max_places = max_places

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Decimal:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        if isinstance(value, str) and not JSON_NUMBER.fullmatch(value):
            raise ValidationError("Not a number as JSON writes one (e.g. 0.3; not 5., .5 or 0,3).")
        result: Decimal = super()._deserialize(value, attr, data, **kwargs)
        exponent = result.normalize().as_tuple().exponent
        if isinstance(exponent, int) and -exponent > self.max_places:
            written = str(value) if len(str(value)) <= 24 else f"{str(value)[:20]}…"
            raise ValidationError(
                f"At most {self.max_places} decimal places are kept; {written} has {-exponent}: "
                "give it rounded as it should be stored."
            )
        return result

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return exact_number(value)


def exact_number(value: Any) -> int | float | None:
    """How ExactNumber writes a number: an integer when whole (4.00 -> 4), else a float."""
    if value is None:
        return None
    number = Decimal(value).normalize()
    return int(number) if number == number.to_integral_value() else float(number)


class UtcDateTime(fields.DateTime):
    """Timestamps are stored as naive UTC and shown as ISO 8601 with a Z."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return utc_timestamp(value)


def utc_timestamp(value: dt.datetime | None) -> str | None:
    """How UtcDateTime writes a timestamp: ISO 8601 in UTC, to the second, with a Z."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    return str(value.replace(microsecond=0).isoformat() + "Z")
