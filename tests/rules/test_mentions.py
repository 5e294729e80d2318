"""R21 as pure rules: a personal value is found in free text and in a display name however it is
spelled (case, accents, punctuation, look-alike letters of another script, a date in another
form, a possessive), and replaced by "[erased]" without touching the words around it."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.mentions import (
    birth_forms,
    compact,
    dates_in,
    holds,
    names_someone,
    scrub_text,
    value_forms,
)

pytestmark = pytest.mark.rules

NAME = "Zelda Quixote-Marlowe"
BORN = date(1988, 7, 14)
FORMS = (
    value_forms(NAME) | value_forms("zelda.qm@example.org") | value_forms(BORN) | value_forms("198807140042")
)


@pytest.mark.parametrize(
    "spelling",
    [
        "Zelda Quixote-Marlowe",
        "ZELDA QUIXOTE MARLOWE",
        "zelda quixote marlowe.",
        "Zélda Quixote–Marlowe",  # an accent, an en dash
        "Ζelda Quixote-Marlowe",  # a Greek capital zeta
        "Zеlda Quixote-Marlowe",  # a Cyrillic e
    ],
)
def test_r21_every_spelling_of_a_name_is_one_compact_value(spelling: str) -> None:
    assert compact(spelling) == "zeldaquixotemarlowe"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Congratulations Zelda Quixote-Marlowe, our champion!", "Congratulations [erased], our champion!"),
        ("Birthday night for ZELDA QUIXOTE MARLOWE", "Birthday night for [erased]"),
        ("Make-up for zelda quixote-marlowe's cup", "Make-up for [erased]'s cup"),
        ("Pushed her (member 198807140042).", "Pushed her (member [erased])."),
        ("Mail <Zelda.QM@example.org>", "Mail <[erased]>"),
        ("Born 14/07/1988, typed as the date", "Born [erased], typed as the date"),
        ("born July 14, 1988.", "born [erased]."),
        ("DOB 1988-07-14", "DOB [erased]"),
        ("Closed for the darts final", "Closed for the darts final"),
        ("Zelda questions the ruling", "Zelda questions the ruling"),
    ],
)
def test_r21_scrub_replaces_each_value_and_keeps_the_rest(text: str, kept: str) -> None:
    assert scrub_text(text, FORMS) == kept


def test_r21_a_value_within_a_word_erases_the_whole_text() -> None:
    assert scrub_text("see mail:zelda.qm@example.org", FORMS) == "[erased]"
    assert scrub_text("xx198807140042xx", FORMS) == "[erased]"


def test_r21_dates_are_read_in_their_common_forms() -> None:
    assert BORN in dates_in("on 14.07.1988") and BORN in dates_in("on 07/14/1988")
    assert BORN in dates_in("19880714") and BORN in dates_in("14 Jul 1988")
    assert dates_in("on 31/02/1988") == set()
    assert {"19880714", "14071988", "07141988", "14july1988", "july141988"} <= birth_forms(BORN)


@pytest.mark.parametrize(
    "name",
    ["Zelda Quixote-Marlowe.", "Zelda Quixote", "Quixote-Marlowe", "zelda.qm", "Zelda", "19880714", "Zed M."],
)
def test_r21_a_display_name_of_a_part_of_her_values_names_her(name: str) -> None:
    own = [NAME, "zelda.qm@example.org", BORN, "Zed M."]
    assert names_someone(name, own, [])


def test_r21_a_display_name_equal_to_another_players_value_names_them() -> None:
    assert names_someone("Pete  Murphy.", [], ["Pete Murphy"])
    assert not names_someone("Pete", [], ["Pete Murphy"])
    assert not names_someone("Former player 12", [NAME, BORN], ["Pete Murphy"])


@given(st.text(max_size=80))
def test_r21_scrubbing_text_without_her_values_changes_nothing(text: str) -> None:
    if not holds(text, FORMS):
        assert scrub_text(text, FORMS) == text


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40))
def test_r21_scrubbed_text_never_holds_a_value(prefix: str) -> None:
    scrubbed = scrub_text(f"{prefix} Zelda Quixote-Marlowe {prefix}", FORMS)
    assert scrubbed is not None and not holds(scrubbed.replace("[erased]", " "), FORMS)
