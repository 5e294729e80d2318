"""The one clock of the service (R2a). Only this module reads the time: the instant (UTC, for
timestamps) and the date on a wall clock in a named zone (for the rules' dates). Which zone a
venue or the league is in is a service matter (models/services/wall_clock.py); tests freeze time here.

Zones are IANA names (`America/Chicago`), read from the zone database the `tzdata` package ships,
so a machine without system zone data knows them too. `LEAGUE_TIMEZONE` in the environment names
the league's zone until the office sets one (unset: UTC)."""

from __future__ import annotations

import os
import re
from datetime import UTC, date, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DEFAULT_ZONE = "UTC"
ZONE_ENVIRONMENT = "LEAGUE_TIMEZONE"
# An offset such as `+02:00`, `UTC-5` or `GMT+1`: not a zone (it knows no summer time).
_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*[+-]\s*\d{1,2}(?::?\d{2})?$", re.IGNORECASE)


class UnknownZone(ValueError):
    """A name that is not an IANA zone; the message says what to give instead."""


def now() -> datetime:
    """This instant, in UTC (aware)."""
    return datetime.now(UTC)


def utcnow() -> datetime:
    """This instant as a naive UTC timestamp, as the columns store it."""
    return now().replace(tzinfo=None)


def today_in(zone: str) -> date:
    """The date on a wall clock in `zone` now (R2a)."""
    return now().astimezone(zone_info(zone)).date()


def local_time(instant: datetime, zone: str) -> datetime:
    """A stored instant (naive UTC, or aware) as the wall clock in `zone` shows it."""
    aware = instant if instant.tzinfo is not None else instant.replace(tzinfo=UTC)
    return aware.astimezone(zone_info(zone))


def default_zone() -> str:
    """The league's zone until the office sets one: `LEAGUE_TIMEZONE`, else UTC."""
    return os.environ.get(ZONE_ENVIRONMENT, "").strip() or DEFAULT_ZONE


@lru_cache(maxsize=64)
def zone_info(name: str) -> ZoneInfo:
    """The zone named `name`, or UnknownZone saying why not and what to give instead."""
    check_zone(name)
    return ZoneInfo(name)


@lru_cache(maxsize=256)
def check_zone(name: str) -> str:
    """`name` when it is an IANA zone name; otherwise UnknownZone with a suggestion."""
    if _OFFSET.match(name.strip()):
        raise UnknownZone(
            f"{name!r} is an offset from UTC, not a time zone: give the IANA name of the place, "
            "such as America/Chicago or Europe/London, so summer time is followed."
        )
    if name in _known_zones():
        return name
    near = [zone for zone in sorted(_known_zones()) if zone.lower() == name.strip().lower()]
    hint = f" Did you mean {near[0]}?" if near else ""
    raise UnknownZone(
        f"{name!r} is not a time zone of the IANA database: give a name such as America/Chicago, "
        f"Europe/London or Pacific/Auckland.{hint}"
    )


NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})


@lru_cache(maxsize=1)
def _known_zones() -> frozenset[str]:
    # Not places: the system's own zone (a link to whatever the server is set to), tzdata's
    # "Factory" (a placeholder whose abbreviation says "-00"), and the POSIX rules template.
    zones = set(available_timezones()) - NOT_PLACES
    for name in ("UTC", "Etc/UTC"):
        try:
            ZoneInfo(name)
            zones.add(name)
        except ZoneInfoNotFoundError:  # pragma: no cover - tzdata always has them
            pass
    return frozenset(zones)
