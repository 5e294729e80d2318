"""R19: names that can be told apart. Crystal Kim and Crystal King are both "Crystal K." by
default; wherever one answer lists both (standings, qualifier lists, a season's lists, reports,
a search, the office's lists, the embedded pages and their chart), each is labelled with their
player number ("Crystal K. #48"), `display_name` staying as registered, and no surname beyond the
initial reaches the public. Players alone with their name in an answer are shown by name alone.
In the console the office is offered a display name of their own for one of them ("Crystal
Kin."), set as the API's PATCH sets it (audited)."""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.builders import (
    SEASONS,
    MakeScene,
    Scene,
    ago,
    audit_entries,
    ended_season,
    qualifiers_path,
    read_qualifiers,
    sanctioned,
)

PLAYERS = "/api/v1/players"
TOURNAMENTS = "/api/v1/tournaments"
SIGN_IN = "/console/sign-in"
# Everyone with a result qualifies: the lists hold both Crystals.
EVERYONE = {"cut_fraction": 1, "min_events_to_qualify": 1}
# A surname beyond its initial, after the first name (what must never reach the public).
SURNAME = re.compile(r"Crystal\s+Ki(m|ng)\b", re.IGNORECASE)


@dataclass
class Crystals:
    scene: Scene
    kim: int
    king: int
    ann: int

    def label(self, player_id: int) -> str:
        return f"Crystal K. #{player_id}"


def crystals_of(scene: Scene) -> Crystals:
    """Crystal Kim, Crystal King (both "Crystal K.") and Ann Lee ("Ann L."), in two reports."""
    kim = int(scene.league.player("Crystal Kim")["id"])
    king = int(scene.league.player("Crystal King")["id"])
    ann = int(scene.league.player("Ann Lee")["id"])
    scene.report([kim, king, ann])
    scene.report([king, ann, kim])
    return Crystals(scene, kim, king, ann)


@pytest.fixture()
def crystals(make_scene: MakeScene) -> Crystals:
    """The three at a venue whose season runs today."""
    return crystals_of(make_scene(**EVERYONE))


@pytest.fixture()
def ended(make_scene: MakeScene) -> Crystals:
    """The three at a venue whose season has ended (its lists can be published)."""
    return crystals_of(make_scene(**ended_season(), **EVERYONE))


def players_in(value: Any) -> list[dict[str, Any]]:
    """Every player (an object with id and display_name) of a JSON answer, however deep."""
    if isinstance(value, dict):
        if "id" in value and "display_name" in value:
            return [value]
        return [p for inner in value.values() for p in players_in(inner)]
    if isinstance(value, list):
        return [p for inner in value for p in players_in(inner)]
    return []


def assert_told_apart(c: Crystals, answer: Any, also: tuple[int, ...] = ()) -> None:
    """Both Crystals are in the answer, each labelled with their number, their display names as
    registered; every other player (Ann) by display name alone."""
    found = players_in(answer)
    ids = {p["id"] for p in found}
    assert {c.kim, c.king, *also} <= ids, ids
    for player in found:
        assert "label" in player, player
        if player["id"] in (c.kim, c.king):
            assert (player["display_name"], player["label"]) == ("Crystal K.", c.label(player["id"]))
        else:
            assert player["label"] == player["display_name"], player


def json_of(response: Any) -> Any:
    assert response.status_code in (200, 201), response.get_data(as_text=True)
    return response.get_json()


# The API ------------------------------------------------------------------------------------------


def test_standings_rows_of_one_display_name_show_their_numbers_r11_r19(crystals: Crystals) -> None:
    """R11, R19: in a venue's standings both Crystals carry their numbers, on every page (the
    labels are the whole table's), and the CSV tells them apart by its player_id column."""
    c, scene = crystals, crystals.scene
    body = scene.standings()
    assert_told_apart(c, body, also=(c.ann,))
    ann = scene.row(c.ann)["player"]
    assert ann == {"id": c.ann, "display_name": "Ann L.", "label": "Ann L."}
    paged = [scene.standings(f"?per_page=1&page={page}")["standings"][0]["player"] for page in (1, 2, 3)]
    assert {p["id"]: p["label"] for p in paged} == {
        c.kim: c.label(c.kim),
        c.king: c.label(c.king),
        c.ann: "Ann L.",
    }
    printed = list(
        csv.DictReader(
            io.StringIO(
                scene.public.get(scene.path() + "?format=csv").get_data(as_text=True).lstrip("\ufeff")
            )
        )
    )
    assert {(row["player_id"], row["display_name"]) for row in printed} == {
        (str(c.kim), "Crystal K."),
        (str(c.king), "Crystal K."),
        (str(c.ann), "Ann L."),
    }


def test_qualifier_lists_and_a_seasons_lists_show_their_numbers_r12_r19(ended: Crystals) -> None:
    """R12, R19: a venue's list, the season's lists (venues and regions) and, once published (the
    lists frozen as they were), the official lists and what would change: numbered."""
    c, scene = ended, ended.scene
    assert_told_apart(c, read_qualifiers(scene.public, scene.season_id, scene.venue_id), also=(c.ann,))
    season = read_qualifiers(scene.public, scene.season_id)
    assert_told_apart(c, season["venues"])
    assert_told_apart(c, season["regions"])
    published = scene.office.post(f"{qualifiers_path(scene.season_id)}/publish", json={"settlements": []})
    assert_told_apart(c, json_of(published))
    # A correction after the publication: Ann drops out of the first report; both lists answer.
    first = json_of(scene.office.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}"))["items"][-1]
    corrected = scene.office.put(
        f"{TOURNAMENTS}/{first['id']}",
        json={**scene.body([c.kim, c.king], None), "date": first["date"], "reason": "Ann left."},
    )
    assert_told_apart(c, json_of(corrected))
    for query in ("", "?view=current"):
        assert_told_apart(c, read_qualifiers(scene.public, scene.season_id, query=query))
        assert_told_apart(c, read_qualifiers(scene.public, scene.season_id, scene.venue_id, query))


def test_lists_published_before_a_rename_keep_their_names_and_numbers_r12_r19(ended: Crystals) -> None:
    """R12, R19: a publication keeps the lists as they were: after King is renamed "Crystal Kin."
    the official lists still name both "Crystal K.", so still with their numbers; the lists as
    the results stand now need none."""
    c, scene = ended, ended.scene
    json_of(scene.office.post(f"{qualifiers_path(scene.season_id)}/publish", json={"settlements": []}))
    renamed = scene.office.patch(f"{PLAYERS}/{c.king}", json={"display_name": "Crystal Kin."})
    assert json_of(renamed)["label"] == "Crystal Kin."
    official = read_qualifiers(scene.public, scene.season_id, scene.venue_id)
    shown = {p["id"]: (p["display_name"], p["label"]) for p in players_in(official["qualifiers"])}
    assert shown[c.king] == ("Crystal K.", c.label(c.king)) and shown[c.kim][1] == c.label(c.kim)
    current = read_qualifiers(scene.public, scene.season_id, scene.venue_id, "?view=current")
    now = {p["id"]: p["label"] for p in players_in(current["qualifiers"])}
    assert now == {c.kim: "Crystal K.", c.king: "Crystal Kin.", c.ann: "Ann L."}


def test_reports_and_a_search_show_their_numbers_r19(crystals: Crystals) -> None:
    """R19: a report (as posted, as read, in the list of reports) and the players a search
    finds: numbered; one player's own page has no one to be told apart from."""
    c, scene = crystals, crystals.scene
    posted = scene.posted(scene.body([c.king, c.kim]), scene.office)
    assert_told_apart(c, posted)
    assert_told_apart(c, json_of(scene.public.get(f"{TOURNAMENTS}/{posted['id']}")))
    assert_told_apart(c, json_of(scene.public.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}")), also=(c.ann,))
    found = json_of(scene.public.get(f"{PLAYERS}?{urlencode({'q': 'Crystal K'})}"))
    assert_told_apart(c, found)
    own = json_of(scene.public.get(f"{PLAYERS}/{c.king}"))
    assert (own["display_name"], own["label"]) == ("Crystal K.", "Crystal K.")


def test_an_answer_numbers_only_the_players_it_lists_r19(crystals: Crystals, make_scene: MakeScene) -> None:
    """R19: the labels are the answer's own: at another venue where Crystal Kim plays beside Ann
    only, she is "Crystal K.", however many Crystal K.s the league has."""
    c = crystals
    away = make_scene()
    away.report([c.kim, c.ann])
    rows = away.rows()
    assert {r["player"]["id"]: r["player"]["label"] for r in rows} == {c.kim: "Crystal K.", c.ann: "Ann L."}


def test_the_offices_lists_show_their_numbers_too_r15_r19(ended: Crystals) -> None:
    """R15, R13, R19: the sanctions and a season's disqualifications list players as the public
    lists do."""
    c, scene = ended, ended.scene
    for player in (c.kim, c.king):
        sanctioned(scene.office, player, "warning", "berating", first_day=ago(1), last_day=ago(1))
        dq = scene.office.post(
            f"{SEASONS}/{scene.season_id}/disqualifications",
            json={"player_id": player, "reason": "Collusion."},
        )
        assert dq.status_code == 201, dq.get_data(as_text=True)
    assert_told_apart(c, json_of(scene.office.get("/api/v1/sanctions?kind=warning&per_page=500")))
    assert_told_apart(c, json_of(scene.office.get(f"{SEASONS}/{scene.season_id}/disqualifications")))


def test_the_embedded_pages_and_the_chart_legend_show_the_numbers_r11_r19(ended: Crystals) -> None:
    """R11, R19: the embedded standings page names both Crystals with their numbers in its table,
    in the chart's legend (a cut name keeps its number: "Cryst… #48") and in the chart's figures
    and words; the qualifiers page in its lists. Ann is "Ann L." everywhere."""
    c, scene = ended, ended.scene
    page = scene.public.get(f"/embed/seasons/{scene.season_id}/venues/{scene.venue_id}/standings")
    assert page.status_code == 200
    text = html.unescape(page.get_data(as_text=True))
    for player_id in (c.kim, c.king):
        assert f'<th scope="row">{c.label(player_id)}</th>' in text
        legends = re.findall(r'<text class="name[^"]*"[^>]*>([^<]*)</text>', text)
        assert sum(legend.endswith(f" #{player_id}") for legend in legends) == 2, legends  # wide and narrow
        assert f"{c.label(player_id)}, " in text  # the chart in words
    assert '<th scope="row">Ann L.</th>' in text and "Ann L. #" not in text
    region = scene.region["id"]
    qualifiers = scene.public.get(f"/embed/seasons/{scene.season_id}/regions/{region}/qualifiers")
    assert qualifiers.status_code == 200
    listed = html.unescape(qualifiers.get_data(as_text=True))
    assert all(f'<th scope="row">{c.label(p)}</th>' in listed for p in (c.kim, c.king))


def test_no_surname_beyond_its_initial_reaches_the_public_r19(ended: Crystals) -> None:
    """R19: whatever the public reads of these two (JSON, CSV, pages), their surnames stay
    hidden: "Crystal K." and a number, never "Crystal Kim" or "Crystal King"."""
    c, scene = ended, ended.scene
    scene.office.post(f"{qualifiers_path(scene.season_id)}/publish", json={"settlements": []})
    paths = [
        scene.path(),
        scene.path() + "?format=csv",
        qualifiers_path(scene.season_id),
        qualifiers_path(scene.season_id) + "?format=csv",
        qualifiers_path(scene.season_id, scene.venue_id) + "?view=current",
        f"{TOURNAMENTS}?venue_id={scene.venue_id}",
        f"{PLAYERS}?{urlencode({'q': 'Crystal'})}",
        f"{PLAYERS}/{c.kim}",
        f"{PLAYERS}/{c.king}",
        f"/embed/seasons/{scene.season_id}/venues/{scene.venue_id}/standings",
        f"/embed/seasons/{scene.season_id}/regions/{scene.region['id']}/qualifiers",
    ]
    for path in paths:
        answer = scene.public.get(path)
        assert answer.status_code == 200, path
        assert not SURNAME.search(html.unescape(answer.get_data(as_text=True))), path
    # The public's search cannot find them by surname either.
    for text in ("Kim", "King", "Crystal Ki"):
        found = json_of(scene.public.get(f"{PLAYERS}?{urlencode({'q': text})}"))["items"]
        assert not {c.kim, c.king} & {p["id"] for p in found}, text


# The console --------------------------------------------------------------------------------------


def text_of(response: Any) -> str:
    page = response.get_data(as_text=True)
    page = page[page.find("<main>") :] if "<main>" in page else page
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def csrf(response: Any) -> str:
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]*)"', response.get_data(as_text=True))
    assert token is not None
    return html.unescape(token.group(1))


def signed_in(app: Flask, key: str) -> FlaskClient:
    browser = app.test_client()
    page = browser.get(SIGN_IN)
    answer = browser.post(SIGN_IN, data={"key": key, "csrf_token": csrf(page)})
    assert answer.status_code == 302, text_of(answer)
    return browser


def prefilled(response: Any, player_id: int) -> str | None:
    """The display name a page's fix form for the player is prefilled with (None: no form)."""
    found = re.search(
        rf'<input id="name-{player_id}" name="display_name" value="([^"]*)"', response.get_data(as_text=True)
    )
    return html.unescape(found.group(1)) if found else None


def fix(browser: FlaskClient, page: Any, player_id: int, name: str, venue_id: int | None = None) -> Any:
    data = {"csrf_token": csrf(page), "display_name": name}
    if venue_id is not None:
        data["venue_id"] = str(venue_id)
    return browser.post(f"/console/players/{player_id}/display-name", data=data)


def test_the_console_standings_number_them_and_the_office_sets_a_distinct_name_r11_r19(
    app: Flask, crystals: Crystals
) -> None:
    """R19: the console's standings show "Crystal K. #48"; the office is offered, for each, a
    display name that shows no more of the surname than tells them apart ("Crystal Ki.",
    "Crystal Kin."). One click sets King's, as the API's PATCH does (audited, R18); then nobody
    is numbered any more, in the console or the API."""
    c, scene = crystals, crystals.scene
    office = signed_in(app, scene.office.key)
    path = f"/console/venues/{scene.venue_id}/standings"
    page = office.get(path)
    assert page.status_code == 200
    words = text_of(page)
    assert c.label(c.kim) in words and c.label(c.king) in words and "Ann L. #" not in words
    assert (prefilled(page, c.kim), prefilled(page, c.king), prefilled(page, c.ann)) == (
        "Crystal Ki.",
        "Crystal Kin.",
        None,
    )
    assert "Set a distinct display name" in words
    done = fix(office, page, c.king, "Crystal Kin.", scene.venue_id)
    assert done.status_code == 302 and done.headers["Location"] == path
    after = office.get(path)
    assert f"Player {c.king} is now shown as Crystal Kin. (was Crystal K.)." in text_of(after)
    assert "#" not in text_of(after).split("Standings,")[1] and prefilled(after, c.kim) is None
    assert json_of(scene.public.get(f"{PLAYERS}/{c.king}"))["display_name"] == "Crystal Kin."
    labels = {r["player"]["id"]: r["player"]["label"] for r in scene.rows()}
    assert labels == {c.kim: "Crystal K.", c.king: "Crystal Kin.", c.ann: "Ann L."}
    (entry,) = audit_entries(scene.office, f"action=player.update&entity_id={c.king}")
    assert entry["actor_role"] == "office"
    assert (entry["before"]["display_name"], entry["after"]["display_name"]) == ("Crystal K.", "Crystal Kin.")


def test_a_host_sees_the_numbers_but_no_full_name_and_no_fix_r19(app: Flask, crystals: Crystals) -> None:
    """R19: the host's standings page numbers the Crystals too, but offers no change and shows no
    full name (the suggestions are made from full names: the office's); a host's post is a 403."""
    c, scene = crystals, crystals.scene
    host = signed_in(app, scene.host.key)
    page = host.get(f"/console/venues/{scene.venue_id}/standings")
    words = text_of(page)
    assert c.label(c.kim) in words and c.label(c.king) in words
    assert prefilled(page, c.kim) is None and "Set a distinct display name" not in words
    assert not SURNAME.search(words)
    refused = host.post(
        f"/console/players/{c.king}/display-name",
        data={"csrf_token": csrf(page), "display_name": "Crystal Kin."},
        headers={"Accept": "text/html"},
    )
    assert refused.status_code == 403
    assert json_of(scene.office.get(f"{PLAYERS}/{c.king}"))["display_name"] == "Crystal K."


def test_a_fix_without_its_token_or_with_a_bad_name_changes_nothing_r19(
    app: Flask, crystals: Crystals
) -> None:
    """R19: a post without its CSRF token is refused whole (400); an empty name or one the API
    would refuse (an invisible character) is refused, saying so; the name stays."""
    c, scene = crystals, crystals.scene
    office = signed_in(app, scene.office.key)
    page = office.get(f"/console/venues/{scene.venue_id}/standings")
    tokenless = office.post(f"/console/players/{c.king}/display-name", data={"display_name": "Crystal Kin."})
    assert tokenless.status_code == 400
    for bad in ("", "Crystal\u200bKin."):
        answer = fix(office, page, c.king, bad, scene.venue_id)
        assert answer.status_code == 302
        assert "Not changed:" in text_of(office.get(answer.headers["Location"])), bad
    assert json_of(scene.office.get(f"{PLAYERS}/{c.king}"))["display_name"] == "Crystal K."
    assert audit_entries(scene.office, f"action=player.update&entity_id={c.king}") == []


def test_the_duplicates_page_offers_two_people_a_distinct_name_r5_r19(app: Flask, scene: Scene) -> None:
    """R5, R19: Crystal King, registered after Crystal Kim, is listed as a possible duplicate of
    her; they share "Crystal K.", so beside the merge the office may instead give King a display
    name of her own ("Crystal Kin."), and is taken back to the duplicates."""
    kim = int(scene.league.player("Crystal Kim")["id"])
    king = int(scene.league.player("Crystal King")["id"])
    office = signed_in(app, scene.office.key)
    page = office.get("/console/duplicates")
    assert page.status_code == 200
    assert f"Merge {king} into {kim}" in text_of(page)
    assert prefilled(page, king) == "Crystal Kin."
    done = fix(office, page, king, "Crystal Kin.")
    assert done.status_code == 302 and done.headers["Location"] == "/console/duplicates"
    again = office.get("/console/duplicates")
    assert prefilled(again, king) is None and "is now shown as Crystal Kin." in text_of(again)


def test_the_console_door_list_in_three_groups_with_full_names_r16_r19(
    app: Flask, crystals: Crystals, make_scene: MakeScene
) -> None:
    """R16, R19: the door list page names each barred player in full, then as the standings show
    them and by number, in three labelled groups (played here, elsewhere in the region, the rest
    of the league), as lines that wrap on a phone (no table) and print compactly on one sheet."""
    c, scene = crystals, crystals.scene
    neighbour = int(scene.league.venue(scene.region["id"], name="The Neighbour")["id"])
    (bea,) = scene.players("Bea")
    scene.posted(scene.body([bea, c.ann], None, venue_id=neighbour), scene.office)
    stranger = int(scene.league.player("Dora Faraway")["id"])
    for player in (c.kim, c.king, bea, stranger):
        sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(1))
    host = signed_in(app, scene.host.key)
    page = host.get(f"/console/venues/{scene.venue_id}/door-list")
    words = text_of(page)
    here = words.index("Played here (2)")
    region = words.index(f"Played elsewhere in {scene.region['name']} (1)")
    league = words.index("The rest of the league (1)")
    assert here < region < league
    assert words.index(f"Crystal Kim · Crystal K. #{c.kim} · suspension (fighting)") < region
    assert here < words.index(f"Crystal King · Crystal K. #{c.king}") < region
    bea_name = next(p["full_name"] for p in scene.roster if p["id"] == bea)
    assert region < words.index(f"{bea_name} · Bea #{bea}") < league
    assert league < words.index(f"Dora Faraway · Dora F. #{stranger}")
    markup = page.get_data(as_text=True)
    assert "<table" not in markup.split("<main>")[1]
    assert ".door li{padding:1px 0;break-inside:avoid}" in markup  # compact rows on paper
