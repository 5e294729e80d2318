"""A report in a host's words (models/rules/reports.py): the places (R4) and statuses (R6) a
spreadsheet's cells write, as the sheet reader takes them. No database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.reports import STATUS_WORDS, EntrantStatus, place_of_word, status_of_word

pytestmark = pytest.mark.rules

PLAYED, WITHDREW = EntrantStatus.PLAYED, EntrantStatus.DECLARED_WITHDRAWAL
ABSENT, NO_SHOW = EntrantStatus.ABSENT, EntrantStatus.NO_SHOW


@pytest.mark.parametrize(
    ("word", "status"),
    [
        ("withdrew", WITHDREW),
        ("Withdrawn", WITHDREW),
        ("W/D", WITHDREW),
        (" wd ", WITHDREW),
        ("DECLARED", WITHDREW),
        ("absent", ABSENT),
        ("Left", ABSENT),
        ("no show", NO_SHOW),
        ("No-Show", NO_SHOW),
        ("NOSHOW", NO_SHOW),
        ("dns", NO_SHOW),
        ("  No   show ", NO_SHOW),
        ("played", PLAYED),
        ("", PLAYED),
        ("   ", PLAYED),
    ],
)
def test_r6_status_words_as_hosts_write_them(word: str, status: EntrantStatus) -> None:
    assert status_of_word(word) == status


@pytest.mark.parametrize("status", list(EntrantStatus))
def test_r6_the_codes_themselves_read_in_any_case(status: EntrantStatus) -> None:
    assert status_of_word(status.value) == status
    assert status_of_word(f" {status.value.upper()} ") == status
    assert status_of_word(status.value.replace("_", " ")) == status


@pytest.mark.parametrize("word", ["maybe", "w d", "no", "show", "withdraw", "absentee", "left early", "1"])
def test_r6_a_word_that_names_no_status_reads_as_none(word: str) -> None:
    assert status_of_word(word) is None


def test_r6_every_word_of_the_table_is_written_as_it_is_matched() -> None:
    """The table's keys are what a cell reads as (lower case, single spaces, no underscore)."""
    for word, status in STATUS_WORDS.items():
        assert word == " ".join(word.split()).casefold() and "_" not in word
        assert status_of_word(word.upper()) == status


@pytest.mark.parametrize(
    ("word", "place"),
    [
        ("1", 1),
        (" 1 ", 1),
        ("1.", 1),
        ("1st", 1),
        ("2nd", 2),
        ("3rd", 3),
        ("4th", 4),
        ("11th", 11),
        ("21ST", 21),
    ],
)
def test_r4_places_as_hosts_write_them(word: str, place: int) -> None:
    assert place_of_word(word) == place


@pytest.mark.parametrize("word", ["first", "1.5", "-2", "", "1 st", "#1", "\u00b9", "\u0663", "1e3", "1,000"])
def test_r4_a_cell_that_writes_no_place_reads_as_none(word: str) -> None:
    """The report is then refused naming the cell; ASCII digits only (int() would take '٣')."""
    assert place_of_word(word) is None


@given(st.integers(min_value=1, max_value=10_000), st.sampled_from(["", ".", "st", "nd", "rd", "th", "TH"]))
def test_r4_any_place_reads_back_with_any_ending(place: int, ending: str) -> None:
    """The ordinal's ending is read, not checked: "3th" is 3, as a host meant it."""
    assert place_of_word(f" {place}{ending} ") == place
