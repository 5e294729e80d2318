"""R23: a player's consent to the weekly email, through HTTP on both databases: recorded, read and
withdrawn by the office or a host of a venue where the player plays (a host of another venue is
refused), with when and by whom, audited without the address; no email, no consent."""

from __future__ import annotations

import json
from typing import Any

from tests.builders import AUDIT_LOG, Scene, audit_entries, unique_name
from tests.support.league import Caller, assert_problem

PLAYERS = "/api/v1/players"


def consent_path(player_id: int) -> str:
    return f"{PLAYERS}/{player_id}/email-consent"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return None if status == 204 else response.get_json()


def played_here(scene: Scene) -> tuple[int, str]:
    """A player with a live result at the scene's venue (a player of its host's venue), and their
    email."""
    player, other = scene.add_players(2)
    scene.report([player, other])
    email = ok(scene.office.get(f"{PLAYERS}/{player}"))["email"]
    return player, email


def test_r23_the_office_records_and_withdraws_consent_audited_without_the_address(scene: Scene) -> None:
    player, email = played_here(scene)
    assert ok(scene.office.get(consent_path(player))) == {
        "player_id": player,
        "consent": False,
        "source": None,
        "given_at": None,
        "given_by": None,
    }
    given = ok(scene.office.put(consent_path(player), json={"source": "office"}))
    assert given["consent"] is True and given["player_id"] == player
    assert given["source"] == "office" and given["given_by"] == "Office: Test"
    assert given["given_at"].endswith("Z")
    assert ok(scene.office.get(consent_path(player))) == given
    # Given again: it stands as first recorded, and is not audited twice.
    assert ok(scene.office.put(consent_path(player))) == given
    assert ok(scene.office.delete(consent_path(player)), 204) is None
    assert ok(scene.office.get(consent_path(player)))["consent"] is False
    assert ok(scene.office.delete(consent_path(player)), 204) is None  # withdrawn already: nothing
    entries = audit_entries(scene.office, f"entity=player&entity_id={player}")
    actions = [e["action"] for e in entries if e["action"].startswith("player.email_consent")]
    assert sorted(actions) == ["player.email_consent", "player.email_consent_withdrawn"]
    ours = [e for e in entries if e["action"].startswith("player.email_consent")]
    assert email not in json.dumps(ours) and "@" not in json.dumps(ours)
    (recorded,) = [e for e in ours if e["action"] == "player.email_consent"]
    assert recorded["after"]["source"] == "office" and recorded["after"]["given_by"] == "Office: Test"
    (withdrawn,) = [e for e in ours if e["action"] == "player.email_consent_withdrawn"]
    assert withdrawn["after"] == {"consent": False, "withdrawn_by": "Office: Test"}


def test_r23_a_host_of_the_players_venue_records_it_at_the_door(scene: Scene) -> None:
    """R23, R19: the host of a venue where the player has a live result keeps their consent; the
    source is the door unless the host says otherwise."""
    player, email = played_here(scene)
    given = ok(scene.host.put(consent_path(player)))
    assert (given["consent"], given["source"], given["given_by"]) == (True, "door", "Host: Crown")
    assert ok(scene.host.get(consent_path(player))) == given
    assert ok(scene.host.delete(consent_path(player)), 204) is None
    assert ok(scene.office.get(consent_path(player)))["consent"] is False
    log = ok(scene.office.get(f"{AUDIT_LOG}?per_page=100&action=player.email_consent"))
    assert [e["actor"] for e in log["items"]] == ["Host: Crown"]
    assert email not in json.dumps(log)


def test_r23_a_host_of_another_venue_is_refused(scene: Scene, public: Caller) -> None:
    """R23: a host of a venue where the player does not play reads and changes nothing (403
    naming R23); the public needs a key (401)."""
    player, _email = played_here(scene)
    stranger = scene.host_for(scene.league.venue()["id"], name="Host: Elsewhere")
    for response in (
        stranger.get(consent_path(player)),
        stranger.put(consent_path(player)),
        stranger.delete(consent_path(player)),
    ):
        assert_problem(response, 403, rule="R23")
    for response in (public.get(consent_path(player)), public.put(consent_path(player))):
        assert_problem(response, 401)
    assert ok(scene.office.get(consent_path(player)))["consent"] is False
    assert audit_entries(scene.office, "action=player.email_consent") == []
    assert_problem(scene.office.get(consent_path(999_999)), 404)


def test_r23_a_player_without_an_email_cannot_consent(scene: Scene) -> None:
    """R23: no address, no weekly email: a 422 naming `email`, nothing recorded."""
    created = scene.league.player(unique_name())
    assert ok(scene.office.patch(f"{PLAYERS}/{created['id']}", json={"email": None}))["email"] is None
    assert_problem(scene.office.put(consent_path(created["id"])), 422, "email", rule="R23")
    assert ok(scene.office.get(consent_path(created["id"])))["consent"] is False
    assert audit_entries(scene.office, "action=player.email_consent") == []


def test_r23_an_unknown_source_is_refused_naming_it(scene: Scene) -> None:
    player, _email = played_here(scene)
    assert_problem(scene.office.put(consent_path(player), json={"source": "carrier pigeon"}), 422, "source")
