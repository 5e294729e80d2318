"""R21 and R19 as pure rules: which values of an audit entry are personal and whose, sealed and
opened again; and how an erased player is named."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.infra import sealing
from models.rules.personal import (
    ERASED,
    SEALED,
    former_player_name,
    mentions,
    open_tree,
    personal_values,
    players_named,
    seal_tree,
    sealed_owners,
)

pytestmark = pytest.mark.rules


def fake_seal(value: Any, owners: list[int]) -> dict[str, Any]:
    return {SEALED: owners, "v": value}


def fake_open(token: dict[str, Any]) -> Any:
    return token["v"]


SNAPSHOT = {
    "id": 7,
    "full_name": "Alicia Wonder",
    "display_name": "Alicia W.",
    "email": "a@example.org",
    "date_of_birth": "1985-07-21",
    "membership_number": "198507211234",
    "home_venue_id": 3,
    "demo": False,
}


def test_r21_every_personal_field_of_a_player_snapshot_is_sealed_under_that_player() -> None:
    sealed = seal_tree(SNAPSHOT, 7, {}, {7}, fake_seal)
    for key in ("full_name", "display_name", "email", "date_of_birth", "membership_number"):
        assert sealed[key] == {SEALED: [7], "v": SNAPSHOT[key]}
    assert sealed["home_venue_id"] == 3 and sealed["demo"] is False and sealed["id"] == 7
    assert open_tree(sealed, fake_open) == SNAPSHOT


def test_r21_a_merge_seals_each_record_under_its_own_player_and_a_value_of_both_under_both() -> None:
    before = {"survivor": {**SNAPSHOT, "id": 7}, "duplicate": {**SNAPSHOT, "id": 8, "email": "b@example.org"}}
    after = {"moved": {"fields": {"email": "b@example.org"}}, "note": "Alicia Wonder again"}
    named = players_named("player", 7, (before, after))
    assert named == {7, 8}
    values = personal_values("player", 7, (before, after))
    sealed_before = seal_tree(before, 7, values, {7, 8}, fake_seal)
    assert sealed_before["duplicate"]["email"][SEALED] == [8]
    sealed_after = seal_tree(after, 7, values, {7, 8}, fake_seal)
    # The taken email is the survivor's now (its dict's owner) …
    assert sealed_after["moved"]["fields"]["email"][SEALED] == [7]
    # … and free text naming them is sealed under both: erasing either shreds it.
    assert sealed_after["note"][SEALED] == [7, 8]
    assert sealed_owners(sealed_after) == {7, 8}


def test_r21_rows_naming_a_player_by_id_carry_free_text_sealed_and_other_values_plain() -> None:
    sanction = {"id": 4, "player_id": 7, "kind": "warning", "reason": "alicia wonder shouted"}
    assert players_named("sanction", 4, (sanction,)) == {7}
    sealed = seal_tree(sanction, None, {7: {"Alicia Wonder"}}, {7}, fake_seal)
    assert sealed["reason"] == {SEALED: [7], "v": "alicia wonder shouted"}
    assert sealed["kind"] == "warning" and sealed["player_id"] == 7


def test_r21_an_erased_players_values_are_left_as_they_are() -> None:
    """Nothing personal is left of an erased player (no key): its new name stays plain."""
    erased = {**SNAPSHOT, "full_name": "", "display_name": "Former player 7", "email": None}
    assert seal_tree(erased, 7, {}, set(), fake_seal) == erased


def test_r21_a_short_name_is_sealed_only_where_it_is_the_whole_text() -> None:
    assert mentions("Al", "al") and not mentions("Alpha's Bar", "Al")
    assert mentions("Seen: Alicia Wonder.", "alicia wonder")


def test_r21_an_erased_player_is_named_former_player_n() -> None:
    assert former_player_name(12) == "Former player 12"


@given(
    st.text(min_size=16),
    st.lists(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=3, unique=True),
)
def test_r21_a_value_sealed_under_players_keys_opens_with_all_of_them_and_with_no_fewer(
    value: str, owners: list[int]
) -> None:
    keys = {owner: bytes([owner % 256]) * 32 for owner in owners}
    token = sealing.seal_value(keys, owners, value)
    assert value not in token
    assert sealing.open_value(keys, owners, token) == value
    for gone in owners:
        with pytest.raises(sealing.Unreadable):
            sealing.open_value({o: k for o, k in keys.items() if o != gone}, owners, token)


def test_r21_a_data_key_is_wrapped_for_its_player_and_no_other() -> None:
    keyring = sealing.Keyring("master " * 8)
    data_key, wrapped = keyring.new_data_key(5)
    assert keyring.unwrap(5, wrapped) == data_key
    with pytest.raises(sealing.Unreadable):
        keyring.unwrap(6, wrapped)
    with pytest.raises(sealing.Unreadable):
        sealing.Keyring("another master key").unwrap(5, wrapped)


def test_r21_two_seals_of_one_value_differ_fresh_nonce() -> None:
    keys = {1: b"k" * 32}
    assert sealing.seal_value(keys, [1], "x") != sealing.seal_value(keys, [1], "x")
    assert ERASED == "[erased]"
