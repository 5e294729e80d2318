"""R5 as pure rules: who each row of a report names, over players already loaded (by id, membership
number, email, a name alone, or a new player). The service only loads them. No database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.identification import (
    IDENTIFIERS,
    Named,
    NameMatches,
    Registered,
    by_name,
    identify,
    name_keys,
    name_only,
    naming_field,
    new_player_problem,
    wanted,
)
from models.rules.players import normalise_name

pytestmark = pytest.mark.rules

TODAY = date(2026, 3, 1)


@dataclass(frozen=True)
class P:
    """A registered player as identification reads one."""

    id: int
    display_name: str
    name_key: str
    merged_into_id: int | None = None


ANN = P(1, "Ann L.", "ann lee")
ANNA = P(2, "Anna L.", "anna lee")
BEN = P(3, "Ben K.", "ben kay")
REGISTERED = Registered(
    by_id={1: ANN, 2: ANNA, 3: BEN},
    by_email={"ann@example.org": ANN, "ben@example.org": BEN},
    by_number={"198001021234": BEN},
)
NOBODY: Registered[P] = Registered({}, {}, {})


def problem(named: Named[P]) -> tuple[str, str | None] | None:
    return None if named.problem is None else (named.problem.path, named.problem.rule)


def message(named: Named[P]) -> str:
    assert named.problem is not None
    return named.problem.message


# What a report names, to be loaded once --------------------------------------------------------


def test_r5_what_the_rows_name_is_gathered_once_normalised() -> None:
    rows = [
        {"player_id": 1},
        {"player_id": 1},
        {"email": " Ann@Example.org "},
        {"membership_number": " 198001021234 "},
        {"new_player": {"full_name": "Cy D", "email": "CY@example.org", "membership_number": "199001011111"}},
        {"player_id": "not a number", "email": 5},
    ]
    found = wanted(rows)
    assert found.ids == {1}
    assert found.emails == {"ann@example.org", "cy@example.org"}
    assert found.numbers == {"198001021234", "199001011111"}


def test_r5_a_name_alone_is_a_row_with_nothing_else_naming_a_player() -> None:
    assert name_only({"full_name": "Ann Lee"})
    assert not name_only({"full_name": "Ann Lee", "email": "ann@example.org"})
    assert not name_only({"full_name": ""})
    assert not name_only({"player_id": 1})
    assert name_keys([{"full_name": "Ann  Lée"}, {"full_name": "ann lee"}, {"player_id": 3}]) == ["ann lee"]


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"player_id": 1, "email": "x@example.org"}, "player_id"),
        ({"membership_number": "1", "email": "x@example.org"}, "membership_number"),
        ({"email": "x@example.org", "full_name": "X"}, "email"),
        ({"new_player": {}}, "new_player"),
        ({"full_name": "Ann"}, "full_name"),
        ({}, "player_id"),
    ],
)
def test_r5_a_problem_names_the_field_the_row_names_its_player_by(row: dict[str, object], field: str) -> None:
    assert naming_field(row) == field


def test_r5_identifiers_are_looked_at_in_order() -> None:
    assert IDENTIFIERS == ("player_id", "membership_number", "email", "new_player")


# By id, membership number, email ----------------------------------------------------------------


def test_r5_by_id() -> None:
    assert identify({"player_id": 2}, "results.0", REGISTERED, TODAY).player == ANNA
    unknown = identify({"player_id": 9}, "results.0", REGISTERED, TODAY)
    assert unknown.player is None and problem(unknown) == ("results.0.player_id", "R5")


def test_r5_by_membership_number_checked_then_looked_up() -> None:
    assert identify({"membership_number": " 198001021234"}, "results.1", REGISTERED, TODAY).player == BEN
    malformed = identify({"membership_number": "12"}, "results.1", REGISTERED, TODAY)
    assert problem(malformed) == ("results.1.membership_number", "R5")
    unknown = identify({"membership_number": "199001011111"}, "results.1", REGISTERED, TODAY)
    assert problem(unknown) == ("results.1.membership_number", "R5")
    assert "199001011111" in message(unknown)


def test_r5_a_membership_number_born_after_today_is_refused() -> None:
    born_tomorrow = identify({"membership_number": "202603021234"}, "results.0", NOBODY, TODAY)
    assert problem(born_tomorrow) == ("results.0.membership_number", "R5")


def test_r5_r19_by_email_with_or_without_a_matching_name() -> None:
    assert identify({"email": "ANN@example.org"}, "results.2", REGISTERED, TODAY).player == ANN
    assert (
        identify({"email": "ann@example.org", "full_name": "Ann Leee"}, "r", REGISTERED, TODAY).player == ANN
    )
    other = identify({"email": "ann@example.org", "full_name": "Ben Kay"}, "results.2", REGISTERED, TODAY)
    assert problem(other) == ("results.2.full_name", "R5")
    # R19: the email's player is not named (no id, no display name).
    assert "another player" in message(other) and "1" not in message(other) and "Ann" not in message(other)


def test_r5_a_new_email_with_a_full_name_registers_the_player() -> None:
    named = identify({"email": " Cy@Example.org", "full_name": "Cy D"}, "results.3", REGISTERED, TODAY)
    assert named.player is None and named.problem is None
    assert named.new == {"full_name": "Cy D", "email": "cy@example.org"}
    alone = identify({"email": "cy@example.org"}, "results.3", REGISTERED, TODAY)
    assert problem(alone) == ("results.3.email", "R5") and alone.new is None


def test_r5_a_row_naming_no_one_is_refused() -> None:
    assert problem(identify({}, "results.4", REGISTERED, TODAY)) == ("results.4", "R5")


# New players ------------------------------------------------------------------------------------


def test_r5_a_new_player_whose_email_is_registered_to_that_name_is_that_player() -> None:
    row = {"new_player": {"full_name": "Ann Lee", "email": "Ann@example.org"}}
    named = identify(row, "results.5", REGISTERED, TODAY)
    assert named.player == ANN and named.new is None and named.problem is None
    assert named.notice is not None and named.notice.code == "existing_player"
    assert named.notice.player_ids == (1,)


def test_r5_a_new_player_whose_email_is_someone_elses_is_refused() -> None:
    row = {"new_player": {"full_name": "Zed Q", "email": "ann@example.org"}}
    assert problem(identify(row, "results.5", REGISTERED, TODAY)) == ("results.5.new_player.email", "R5")


def test_r5_r19_a_new_players_membership_number_is_their_birth_date_and_unused() -> None:
    fresh = {"full_name": "Cy D", "email": "cy@example.org", "membership_number": "199001011111"}
    assert new_player_problem(fresh, "at", REGISTERED, TODAY) is None
    assert new_player_problem({**fresh, "date_of_birth": date(1990, 1, 1)}, "at", REGISTERED, TODAY) is None
    other_birthday = new_player_problem({**fresh, "date_of_birth": date(1990, 1, 2)}, "at", REGISTERED, TODAY)
    assert other_birthday is not None and other_birthday.path == "at.membership_number"
    taken = new_player_problem({**fresh, "membership_number": "198001021234"}, "at", REGISTERED, TODAY)
    assert taken is not None and "another player" in taken.message and taken.rule == "R5"
    assert "3" not in taken.message  # R19: the number's player is not named
    assert (
        new_player_problem({"full_name": "Cy D", "email": "cy@example.org"}, "at", REGISTERED, TODAY) is None
    )
    named = identify({"new_player": {**fresh, "membership_number": "1"}}, "results.6", NOBODY, TODAY)
    assert named.new is not None and problem(named) == ("results.6.new_player.membership_number", "R5")


# A name alone -----------------------------------------------------------------------------------


def test_r5_a_name_alone_names_the_one_player_of_that_name_here() -> None:
    matches = NameMatches(here={"ann lee": [ANN]})
    assert by_name({"full_name": "Ann  LEE"}, "results.0", matches).player == ANN


def test_r5_a_name_alone_shared_here_is_refused_listing_them() -> None:
    twin = P(7, "Ann L.", "ann lee")
    named = by_name({"full_name": "Ann Lee"}, "results.0", NameMatches({"ann lee": [ANN, twin]}))
    assert problem(named) == ("results.0", "R5")
    assert "(#1), Ann L. (#7)" in message(named)
    assert named.problem is not None and not named.problem.identifier_miss


def test_r5_a_near_miss_asks_did_you_mean_among_the_venues_players() -> None:
    pete = P(44, "Pete M.", "pete murphy")
    matches = NameMatches({}, near={"pete murphey": [pete]})
    named = by_name({"full_name": "Pete Murphey"}, "results.0", matches)
    assert problem(named) == ("results.0", "R5")
    assert "did you mean Pete M. (#44)?" in message(named)


def test_r19_a_name_alone_not_played_here_names_others_to_the_office_only() -> None:
    """R19: the players of that name at other venues are listed only when the service loaded
    them (the office); a host's refusal says nothing of them, and counts as an unknown
    identifier against the host's key."""
    office = by_name({"full_name": "Ben Kay"}, "results.0", NameMatches({}, elsewhere={"ben kay": [BEN]}))
    assert problem(office) == ("results.0", "R5")
    assert "other venues (shown to the office only): 3 (Ben K.)" in message(office)
    host = by_name({"full_name": "Ben Kay"}, "results.0", NameMatches({}))
    assert "other venues" not in message(host) and "3" not in message(host)
    assert host.problem is not None and host.problem.identifier_miss


def test_r5_a_name_alone_needs_the_reports_venue() -> None:
    named = by_name({"full_name": "Ann Lee"}, "results.0", NameMatches({}, venue_known=False))
    assert problem(named) == ("results.0", "R5")


@given(st.text(min_size=1, max_size=30))
def test_r5_a_name_alone_finds_exactly_the_player_filed_under_its_key(name: str) -> None:
    key = normalise_name(name)
    player = P(5, "X", key)
    named = by_name({"full_name": name}, "results.0", NameMatches({key: [player]}))
    assert named.player == player and named.problem is None


def test_r19_a_miss_of_an_email_or_membership_number_is_marked_and_nothing_else() -> None:
    """R19: the problems a host's key is charged for are exactly the rows whose email or
    membership number was looked up and named nobody, or, in a new player's row, someone else:
    not a malformed number, an unknown id, a name alone, or a new player registered."""

    def miss(row: dict[str, object]) -> bool | None:
        named = identify(row, "results.0", REGISTERED, TODAY)
        return None if named.problem is None else named.problem.identifier_miss

    assert miss({"membership_number": "199001019999"}) is True
    assert miss({"email": "nobody@example.org"}) is True
    assert miss({"email": "ann@example.org", "full_name": "Zed Zebedee"}) is True
    someone_else = {"full_name": "Zed Zebedee", "email": "ben@example.org"}
    assert miss({"new_player": someone_else}) is True
    taken = {"full_name": "Zed Zebedee", "email": "zed@example.org", "membership_number": "198001021234"}
    assert miss({"new_player": taken}) is True
    assert miss({"membership_number": "19900231123"}) is False  # malformed: never looked up
    assert miss({"player_id": 99}) is False
    assert miss({"membership_number": "198001021234"}) is None
    assert miss({"email": "nobody@example.org", "full_name": "Zed Zebedee"}) is None  # a new player
    assert miss({"new_player": {"full_name": "Zed Zebedee", "email": "zed@example.org"}}) is None
