"""R22 in the console: a host opens tonight's game from their home, signs players in (a name
from the venue's list, a new player, a suspended one refused beside the form), draws the seats,
records players out and undoes one; a form posted twice is applied once, and a form from an
older page is refused with the night as it stands. The forms post the API's own actions."""

from __future__ import annotations

import re

from flask import Flask

from tests.builders import Scene, iso, utc_today
from tests.support.console import csrf, signed_in, text_of


def form_fields(page: str, kind: str, player_id: int | None = None) -> dict[str, str]:
    """The hidden fields of the page's form of this kind (of this player's row)."""
    suffix = f"-{player_id}" if player_id is not None else ""
    found = re.search(rf'name="action_id" value="([0-9a-f]+-{kind}{suffix})"', page)
    assert found is not None, (kind, player_id)
    sequence = re.search(r'name="sequence" value="(\d+)"', page)
    assert sequence is not None
    return {"action_id": found.group(1), "sequence": sequence.group(1), "type": kind}


def test_r22_a_host_runs_the_night_from_the_console(app: Flask, scene: Scene) -> None:
    regular = scene.player("Rita R.")
    scene.report([regular, *scene.fillers(3)])  # Rita has played here: known by name
    host = signed_in(app, scene.host.key)
    home = host.get("/console/").get_data(as_text=True)
    assert f'/console/venues/{scene.venue_id}/night"' in home
    opening = host.get(f"/console/venues/{scene.venue_id}/night")
    assert "Open tonight's game" in text_of(opening)
    opened = host.post(
        f"/console/venues/{scene.venue_id}/night", data={"csrf_token": csrf(opening), "session": "1"}
    )
    assert opened.status_code == 302, text_of(opened)
    night_path = opened.headers["Location"]
    page = host.get(night_path)
    token = csrf(page)
    html = page.get_data(as_text=True)
    assert "Start the clock" in html and "Not started" in text_of(page)
    rita_shown = re.search(rf'<option value="([^"]*\(#{regular}\))">', html)
    assert rita_shown is not None

    def act(kind: str, player_id: int | None = None, **more: str) -> tuple[int, str]:
        fields = form_fields(host.get(night_path).get_data(as_text=True), kind, player_id)
        answer = host.post(night_path, data={"csrf_token": token, **fields, **more})
        if answer.status_code == 302:
            return 302, text_of(host.get(night_path))
        return answer.status_code, text_of(answer)

    status, said = act("sign_in", player=rita_shown.group(1))
    assert status == 302 and "Signed in." in said and "Players 1 of 1" in said
    status, said = act("sign_in", player="Nina Newcomer", email="nina@example.org")
    assert status == 302 and "Players 2 of 2" in said
    ted, ula = scene.players("Ted T.", "Ula U.")
    for pid in (ted, ula):
        act("sign_in", player=f"x (#{pid})")
    pete = scene.player("Pete P.")
    scene.office.post(
        "/api/v1/sanctions",
        json={
            "player_id": pete,
            "kind": "suspension",
            "category": "berating",
            "first_day": iso(utc_today()),
            "reason": "Abuse.",
        },
    )
    status, said = act("sign_in", player=f"Pete (#{pete})")
    assert status == 422 and "suspended" in said and "Players 4 of 4" in said
    # R16, R22, words for people: the refusal at the door names the player and says what to do,
    # once, without the API's field names, a rule id first, or an ISO date.
    refused = said[said.index("suspended") - 200 : said.index("suspended") + 300]
    assert "Pete P." in refused
    for api_words in ("override_reason", "player.player_id", "R16:", iso(utc_today())):
        assert api_words not in said, api_words
    assert said.count("is suspended") == 1, said
    status, said = act("seat")
    assert status == 302 and "Seats drawn." in said and "table 1, seat" in said

    # A form posted twice (the phone retried) counts once.
    fields = form_fields(host.get(night_path).get_data(as_text=True), "bust", ted)
    first = host.post(night_path, data={"csrf_token": token, **fields, "player_id": str(ted)})
    again = host.post(night_path, data={"csrf_token": token, **fields, "player_id": str(ted)})
    assert first.status_code == again.status_code == 302
    assert "counted once" in text_of(host.get(night_path))
    night = scene.public.get(f"/api/v1/nights/{night_path.rsplit('/', 1)[1]}").get_json()
    assert night["players_left"] == 3
    # A form from an older page: refused with the night as it stands.
    stale = {**fields, "action_id": fields["action_id"] + "-older", "player_id": str(ula)}
    refused = host.post(night_path, data={"csrf_token": token, **stale})
    assert refused.status_code == 409 and "Another phone changed the night" in text_of(refused)
    status, said = act("undo")
    assert status == 302 and "Undone: Ted T. comes back in." in said and "Players 4 of 4" in said
    assert host.post(night_path, data=fields).status_code == 400  # no CSRF token
