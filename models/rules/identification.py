"""R5: who each row of a report names, decided over the players already loaded. A row names a
registered player by id, membership number or email (each looked up once for the whole report:
a report may have 10,000 rows), a player by a name alone among those who have played at the
venue (in any season), or a new player to register. models/services/reports/checks.py loads the
players; these decide."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Generic, Protocol, TypeVar

from models.errors import Problem
from models.rules.notices import Notice, existing_player
from models.rules.players import (
    date_of_birth_problem,
    normalise_email,
    normalise_name,
    parse_membership_number,
    similar_names,
)

# How a result row may name its player (R5), in the order they are looked at.
IDENTIFIERS = ("player_id", "membership_number", "email", "new_player")


class Known(Protocol):
    """What identifying reads of a registered player (models/entities/players.Player is one)."""

    @property
    def id(self) -> int: ...

    @property
    def display_name(self) -> str: ...

    @property
    def name_key(self) -> str: ...

    @property
    def merged_into_id(self) -> int | None: ...


# The player type the loaded players have (Player, for the service); the functions need Known.
T = TypeVar("T")
P = TypeVar("P", bound=Known)


@dataclass
class Named(Generic[T]):
    """What one row names (R5): a stored player or a new one, else the problem; maybe a notice."""

    player: T | None = None
    new: dict[str, Any] | None = None
    problem: Problem | None = None
    notice: Notice | None = None


def name_only(row: Mapping[str, Any]) -> bool:
    """R5: the row gives a full name and nothing else that names a player."""
    return bool(row.get("full_name")) and not any(row.get(name) is not None for name in IDENTIFIERS)


def name_keys(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The normalised names of the rows that give a name alone, each once."""
    return sorted({normalise_name(row["full_name"]) for row in rows if name_only(row)})


@dataclass(frozen=True)
class NameMatches(Generic[T]):
    """R5, for rows that give a name alone: the players of each name (normalised) who have played
    at the venue, in any season (`here`); for a name none of them has, the venue's players whose
    names are a near miss (`near`, closest first: "did you mean …"); and, for the office only,
    the players of that name who never played there (`elsewhere`). R19: a host's answer is built
    from `here` and `near` alone, the venue's own players."""

    here: dict[str, list[T]]
    near: dict[str, list[T]] = field(default_factory=dict)
    elsewhere: dict[str, list[T]] = field(default_factory=dict)
    venue_known: bool = True


def _named(player: Known) -> str:
    """A venue's player as a refusal names them to that venue's host: full name and number."""
    return f"{getattr(player, 'full_name', None) or player.display_name} (#{player.id})"


def by_name(row: Mapping[str, Any], at: str, matches: NameMatches[P]) -> Named[P]:
    """R5: a name alone names the one player of that name who has played at the venue, in any
    season; none or several are refused, listing the candidates among the venue's players (and
    for a near miss the closest: "did you mean …"). R19: nothing is said of other venues'
    players, save to the office (`matches.elsewhere`); a name that names no one here counts
    against a host's key as an unknown email does (`identifier_miss`)."""
    name = row["full_name"]
    if not matches.venue_known:
        return Named(
            problem=Problem(at, f"{name!r}: a name alone is looked up among the venue's players.", "R5")
        )
    key = normalise_name(name)
    found = matches.here.get(key, [])
    if len(found) == 1:
        return Named(player=found[0])
    if found:
        listed = ", ".join(_named(p) for p in found)
        message = f"Several players named {name!r} have played at this venue: {listed}; name one by id."
        return Named(problem=Problem(at, message, "R5"))
    near = matches.near.get(key, [])
    guess = f"; did you mean {' or '.join(_named(p) for p in near)}?" if near else "."
    others = matches.elsewhere.get(key, [])
    hint = (
        f" Players of that name at other venues (shown to the office only): "
        f"{', '.join(f'{p.id} ({p.display_name})' for p in others)}."
        if others
        else ""
    )
    message = (
        f"No player named {name!r} has played at this venue{guess} Name them by id, email or "
        f"membership number, or register them with new_player (full_name and email).{hint}"
    )
    return Named(problem=Problem(at, message, "R5", identifier_miss=True))


@dataclass
class Wanted:
    """The ids, emails (normalised) and membership numbers a report's rows give, to be looked up
    once each."""

    ids: set[int] = field(default_factory=set)
    emails: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)


def wanted(rows: Iterable[Mapping[str, Any]]) -> Wanted:
    """R5: what the rows name players by (a new player's email and number too: either may be
    registered already)."""
    found = Wanted()
    for row in rows:
        if isinstance(row.get("player_id"), int):
            found.ids.add(row["player_id"])
        new = row.get("new_player") or {}
        for email in (row.get("email"), new.get("email")):
            if isinstance(email, str):
                found.emails.add(normalise_email(email))
        for number in (row.get("membership_number"), new.get("membership_number")):
            if isinstance(number, str):
                found.numbers.add(number.strip())
    return found


@dataclass(frozen=True)
class Registered(Generic[T]):
    """The registered players a report's rows name, by id, email and membership number."""

    by_id: dict[int, T]
    by_email: dict[str, T]
    by_number: dict[str, T]


def identify(row: Mapping[str, Any], at: str, named: Registered[P], today: date) -> Named[P]:
    """R5: the player a row names by player_id, membership_number, email (with a full name, a new
    player when the email is new) or new_player, looked at in that order. A problem where an
    email or membership number named no one, or someone other than the row's player, is marked
    `identifier_miss` (R19: counted against the caller's key)."""
    if row.get("player_id") is not None:
        return _by_id(row["player_id"], at, named)
    if row.get("membership_number") is not None:
        return _by_number(row["membership_number"].strip(), at, named, today)
    if row.get("email") is not None:
        return _by_email(normalise_email(row["email"]), row.get("full_name"), at, named)
    if row.get("new_player") is not None:
        return _by_new_player(dict(row["new_player"]), at, named, today)
    message = "Name the player by player_id, membership_number, email or new_player."
    return Named(problem=Problem(at, message, "R5"))


def _by_id(player_id: int, at: str, named: Registered[P]) -> Named[P]:
    found = named.by_id.get(player_id)
    if found is None:
        return Named(problem=Problem(f"{at}.player_id", f"There is no player with id {player_id}.", "R5"))
    return Named(player=found)


def _by_number(number: str, at: str, named: Registered[P], today: date) -> Named[P]:
    try:
        parse_membership_number(number, today=today)
    except ValueError as exc:
        return Named(problem=Problem(f"{at}.membership_number", str(exc), "R5"))
    found = named.by_number.get(number)
    if found is None:
        message = f"No player has membership number {number}."
        return Named(problem=Problem(f"{at}.membership_number", message, "R5", identifier_miss=True))
    return Named(player=found)


def _by_email(email: str, full_name: str | None, at: str, named: Registered[P]) -> Named[P]:
    found = named.by_email.get(email)
    if found is None and full_name:
        # An email with a full name: this player, registered now since the email is new.
        return Named(new={"full_name": full_name, "email": email})
    if found is None:
        message = (
            f"No player has the email {email}; to register them, send new_player with full_name and email."
        )
        return Named(problem=Problem(f"{at}.email", message, "R5", identifier_miss=True))
    if full_name and not same_person(found, full_name):
        problem = Problem(f"{at}.full_name", not_that_player(), "R5", identifier_miss=True)
        return Named(problem=problem)
    return Named(player=found)


def _by_new_player(new: dict[str, Any], at: str, named: Registered[P], today: date) -> Named[P]:
    new["email"] = normalise_email(new["email"])
    found = named.by_email.get(new["email"])
    if found is None:
        return Named(new=new, problem=new_player_problem(new, f"{at}.new_player", named, today))
    if not same_person(found, new["full_name"]):
        problem = Problem(f"{at}.new_player.email", not_that_player(), "R5", identifier_miss=True)
        return Named(problem=problem)
    return Named(player=found, notice=existing_player(at, new["email"], found.id))


def naming_field(row: Mapping[str, Any]) -> str:
    """The field a row names its player by, for a problem's path."""
    return next((name for name in (*IDENTIFIERS, "full_name") if row.get(name) is not None), "player_id")


def same_person(player: Known, full_name: str) -> bool:
    """R5: a name given with a registered email must closely match that player's name, or the
    points would land on someone else."""
    return bool(similar_names(normalise_name(full_name), [(player.id, player.name_key)]))


def not_that_player() -> str:
    """R5, R19: an email given with a name that is not its player's. The player is not named (a
    report's row must not tell its sender whom the league knows by that email)."""
    return (
        "This email is registered to another player, whose name does not match; check the email, "
        "or name that player by email alone."
    )


def new_player_problem(new: Mapping[str, Any], at: str, named: Registered[P], today: date) -> Problem | None:
    """R5: a new player's membership number is their date of birth and a PIN, and unused; a date
    of birth is not after today (R2a: the venue's)."""
    born_given = new.get("date_of_birth")
    if born_given is not None:
        wrong = date_of_birth_problem(born_given, today)
        if wrong is not None:
            return Problem(f"{at}.date_of_birth", wrong)
    number = new.get("membership_number")
    if number is None:
        return None
    try:
        born = parse_membership_number(number, today=today)
    except ValueError as exc:
        return Problem(f"{at}.membership_number", str(exc), "R5")
    if new.get("date_of_birth") not in (None, born):
        return Problem(f"{at}.membership_number", "Does not start with the date of birth given.", "R5")
    owner = named.by_number.get(number)
    if owner is not None:
        message = "Already belongs to another player (R19: not named here)."
        return Problem(f"{at}.membership_number", message, "R5", identifier_miss=True)
    return None
