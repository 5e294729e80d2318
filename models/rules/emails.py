"""R23, email: when a week's digest is due, what it says, when a failed send is tried again, the
signed link that refuses every message in one click, and the message (with its signed one-time
link) by which a player confirms that they asked for the weekly email themself. Pure: the services
gather the facts and send; nothing here reads a clock or the database (the time is handed in)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from enum import StrEnum

from models.rules.people_dates import DateWords
from models.rules.ratings import RATING_MEANS, rating_words


class ConsentSource(StrEnum):
    """Where a player asked for the weekly email."""

    DOOR = "door"  # at the venue, to its host
    OFFICE = "office"  # to the league office
    ONLINE = "online"  # a form of the league's own
    OTHER = "other"
    SELF = "self"  # the player themself, by the link of a confirmation email


CONSENT_SOURCES = tuple(source.value for source in ConsentSource)
# What the office or a host may record (a player's own confirmed link is recorded by the link).
RECORDED_SOURCES = tuple(source for source in CONSENT_SOURCES if source != ConsentSource.SELF)

# The league's kinds of email (R23): the weekly digest, and the one message that asks a player to
# confirm that they want it (sent only when someone asks for it for the player's address).
DIGEST = "digest"
CONFIRM = "confirm"
# The week's digests are due from Monday at this time on the league's clock (R2a).
DIGEST_DUE_AT = time(8, 0)

# A failed send is tried again after 1 min, 2, 4, … at most an hour apart, and given up a day after
# the message was composed.
FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=1)
GIVE_UP_AFTER = timedelta(hours=24)

# An unsubscribe link works this long after the message carrying it was sent.
TOKEN_LIFETIME = timedelta(days=60)
# Salt of the unsubscribe links' signing key: a key made from the app's secret for this use
# alone, so no other signature of the app is ever a valid link (and no link another signature).
TOKEN_SALT = b"pokerleague.email.unsubscribe.v1"
# A confirmation link works once, for this long after it was made; its key has a salt of its own
# (an unsubscribe link is never a confirmation link, nor the other way round).
CONFIRM_LIFETIME = timedelta(days=7)
CONFIRM_SALT = b"pokerleague.email.confirm.v1"
# A confirmation's one-time code: 32 hex digits (128 random bits), made by the service.
CONFIRM_CODE = re.compile(r"[0-9a-f]{32}")


# The week ------------------------------------------------------------------------------------


def digest_week(local: datetime) -> tuple[date, str] | None:
    """The week whose digest is due at this wall-clock moment of the league: its Monday and its
    key ("2026-W51"); None on a Monday before DIGEST_DUE_AT (this week's is not due yet, and
    last week's is no longer worth sending)."""
    monday = local.date() - timedelta(days=local.weekday())
    if local.date() == monday and local.time() < DIGEST_DUE_AT:
        return None
    year, week, _day = monday.isocalendar()
    return monday, f"{year}-W{week:02d}"


# Retries -------------------------------------------------------------------------------------


def next_try(created: datetime, attempts: int, now: datetime) -> datetime | None:
    """When to try again after `attempts` failed tries (exponential backoff), or None: a day has
    passed since the message was composed, and it is given up."""
    wait = min(FIRST_RETRY * (2 ** max(attempts - 1, 0)), LONGEST_WAIT)
    retry = now + wait
    return None if retry - created > GIVE_UP_AFTER else retry


# The unsubscribe link --------------------------------------------------------------------------


class BadToken(ValueError):
    """An unsubscribe token that is forged, damaged or expired; `expired` tells which."""

    def __init__(self, message: str, expired: bool = False) -> None:
        super().__init__(message)
        self.expired = expired


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _signature(secret: str, payload: str, salt: bytes) -> bytes:
    key = hmac.new(secret.encode(), salt, hashlib.sha256).digest()
    return hmac.new(key, payload.encode(), hashlib.sha256).digest()


def _signed(secret: str, text: str, salt: bytes) -> str:
    payload = _b64(text.encode())
    return f"{payload}.{_b64(_signature(secret, payload, salt))}"


def _opened(secret: str, token: str, salt: bytes) -> tuple[str, str]:
    """The two parts ("what.issued") a token signed with this salt says; else BadToken."""
    payload, _, signature = token.partition(".")
    try:
        given = _unb64(signature)
        what, _, issued = _unb64(payload).decode("ascii").partition(".")
    except (ValueError, UnicodeError):
        raise BadToken("The link is damaged.") from None
    if not hmac.compare_digest(given, _signature(secret, payload, salt)):
        raise BadToken("The link is not one the league made.")
    return what, issued


def _unexpired(issued: str, now: datetime, lifetime: timedelta) -> None:
    if not issued.isdigit():
        raise BadToken("The link is damaged.")
    if _seconds(now) - int(issued) > lifetime.total_seconds():
        raise BadToken("The link has expired.", expired=True)


@dataclass(frozen=True)
class LinkToken:
    """What an unsubscribe link names: the player, when it was issued (whole seconds since the
    epoch), and the consent it was sent under (its `given_at`, in microseconds since the epoch;
    None in a link made before links named their consent)."""

    player_id: int
    issued: int
    consented: int | None


def unsubscribe_token(secret: str, player_id: int, issued: datetime, consented: datetime) -> str:
    """A signed token naming the player, when it was issued (a UTC timestamp, whole seconds) and
    the consent the message is sent under (its `given_at`, to the microsecond): R23, the link
    withdraws that consent only."""
    payload = _b64(f"{player_id}.{_seconds(issued)}.{_microseconds(consented)}".encode())
    return f"{payload}.{_b64(_signature(secret, payload, TOKEN_SALT))}"


def read_token(secret: str, token: str, now: datetime, lifetime: timedelta = TOKEN_LIFETIME) -> LinkToken:
    """What a token names, if its signature holds and it has not expired; else BadToken."""
    payload, _, signature = token.partition(".")
    try:
        given = _unb64(signature)
        fields = _unb64(payload).decode("ascii").split(".")
    except (ValueError, UnicodeError):
        raise BadToken("The link is damaged.") from None
    if not hmac.compare_digest(given, _signature(secret, payload, TOKEN_SALT)):
        raise BadToken("The link is not one the league made.")
    if len(fields) not in (2, 3) or not all(field.isdigit() for field in fields):
        raise BadToken("The link is damaged.")
    player, issued = int(fields[0]), int(fields[1])
    if _seconds(now) - issued > lifetime.total_seconds():
        raise BadToken("The link has expired.", expired=True)
    return LinkToken(player, issued, int(fields[2]) if len(fields) == 3 else None)


def sent_under(link: LinkToken, given_at: datetime) -> bool:
    """R23: whether the link was sent under the consent given at `given_at`: the consent it
    names; or, for a link naming none (made before links did), a consent given no later than
    the link was issued. A consent given again after a withdrawal is a new one: an old link
    leaves it alone."""
    if link.consented is not None:
        return link.consented == _microseconds(given_at)
    return _seconds(given_at) <= link.issued


def confirm_token(secret: str, code: str, issued: datetime) -> str:
    """R23: the signed one-time link of a confirmation email: its code and when it was made."""
    return _signed(secret, f"{code}.{_seconds(issued)}", CONFIRM_SALT)


def token_confirmation(secret: str, token: str, now: datetime, lifetime: timedelta = CONFIRM_LIFETIME) -> str:
    """The confirmation code a token names, if its signature holds and it has not expired (7
    days); else BadToken. Whether it was used already is the database's to say."""
    code, issued = _opened(secret, token, CONFIRM_SALT)
    if not CONFIRM_CODE.fullmatch(code):
        raise BadToken("The link is damaged.")
    _unexpired(issued, now, lifetime)
    return code


def _seconds(instant: datetime) -> int:
    """Whole seconds since the epoch of a UTC instant (naive, as the columns store it, or aware)."""
    return _microseconds(instant) // 1_000_000


def _microseconds(instant: datetime) -> int:
    """Microseconds since the epoch of a UTC instant (naive, as the columns store it, or aware)."""
    naive = instant if instant.tzinfo is None else instant.astimezone(UTC).replace(tzinfo=None)
    return (naive - datetime(1970, 1, 1)) // timedelta(microseconds=1)


# The digest ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """Where the player stands at one venue this season, and the venue's cut (R11, R12)."""

    venue: str
    season: str
    rank: int
    tied: bool
    points: int
    played: int
    quota: int
    # The points of the last player inside the cut (None: nobody qualifies there yet).
    cut_points: int | None
    inside: bool
    elsewhere: bool  # qualifies from another venue (R14)


@dataclass(frozen=True)
class Game:
    """One of the player's venues' nights in the coming week (R2a: its local date and start)."""

    day: date
    starts_at: str
    venue: str
    cancelled: bool


@dataclass(frozen=True)
class Rating:
    """The player's rating (R20)."""

    rating: Decimal
    provisional: bool
    tournaments: int


@dataclass(frozen=True)
class Digest:
    display_name: str
    monday: date
    standings: tuple[Standing, ...]
    games: tuple[Game, ...]
    rating: Rating | None


def cut_words(standing: Standing) -> str:
    """How far the player is from the venue's cut (R12), in words."""
    if standing.inside:
        return "inside the cut"
    if standing.elsewhere:
        return "qualifying from another venue"
    if standing.cut_points is None:
        return "no one is inside the cut yet"
    gap = standing.cut_points - standing.points
    if gap > 0:
        return f"{gap} point{'s' if gap != 1 else ''} from the cut"
    return "level with the cut" if gap == 0 else "above the cut's points, but not on the list"


# How an email says dates when no league's words are given (R24's defaults).
AS_SAID = DateWords()


def compose(digest: Digest, words: DateWords = AS_SAID) -> tuple[str, str]:
    """The digest's subject and plain-text body, its dates and times as the league says them
    (`words`, R24). The subject names no one (it is seen in lists and logs); the unsubscribe
    footer is added as each message is sent (`with_footer`)."""
    subject = f"Your week in the league: {words.day(digest.monday)}"
    lines = [f"Hello {digest.display_name},", "", "Where you stand this season:"]
    if not digest.standings:
        lines.append("- No results this season yet.")
    for s in digest.standings:
        rank = f"{s.rank}{' (tied)' if s.tied else ''}"
        lines.append(
            f"- {s.venue} ({s.season}): rank {rank} with {s.points} points ({s.played} played). "
            f"Top {s.quota} qualify: you are {cut_words(s)}."
        )
    lines += ["", "Nights at your venues in the coming week:"]
    if not digest.games:
        lines.append("- None scheduled.")
    for g in digest.games:
        when = f"{words.day(g.day)}, {words.hour(g.starts_at)}"
        lines.append(f"- {when}, {g.venue}{' (cancelled)' if g.cancelled else ''}")
    lines.append("")
    if digest.rating is None:
        lines.append("Your skill rating: not rated yet; it starts with your first night in the league.")
    else:
        r = digest.rating
        lines.append(f"Your skill rating: {rating_words(r.rating, r.tournaments, r.provisional, you=True)}.")
    lines.append(f"The skill rating is the league's, not a venue's: {RATING_MEANS}.")
    return subject, "\n".join(lines) + "\n"


def with_footer(body: str, unsubscribe_url: str, given_on: date, words: DateWords = AS_SAID) -> str:
    """The body with why the player gets it (since when: a local date, said as the league says
    dates, R24) and the one-click way to stop it."""
    asked = words.day(given_on)
    return (
        f"{body}\n--\nYou get this weekly email because you asked for it ({asked}).\n"
        f"To stop it, open this link: {unsubscribe_url}\n"
    )


def compose_confirmation(display_name: str, until: str) -> tuple[str, str]:
    """R23: the message asking a player to confirm the weekly email, sent because someone asked
    for it for their address (`POST /api/v1/email-subscriptions`). The subject names no one; the
    one-time link is added as it is sent (`with_confirm_link`), with `until` (when it stops
    working) said in the league's way of saying dates (R24)."""
    subject = "Confirm the league's weekly email"
    body = (
        f"Hello {display_name},\n\n"
        "Someone, we hope you, asked for the league's weekly email for this address: where you "
        "stand at your venues, how far you are from the cut, your venues' nights in the coming "
        "week and your rating.\n\n"
        f"To get it, open the link below and press the button on the page. It works once, until "
        f"{until}.\n\n"
        "If you did not ask for it, do nothing: without your confirmation nothing more is sent.\n"
    )
    return subject, body


def with_confirm_link(body: str, confirm_url: str) -> str:
    """The confirmation's body with its one-time link."""
    return f"{body}\n{confirm_url}\n"
