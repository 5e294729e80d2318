"""The office's seasons in the console, any season, not only the running one: the list with each
season's state, a new season and a season's settings by the API's own schemas and services (a
change that rescores stored results previewed first, who moves venue by venue, stored only when
confirmed), a past season's standings, missing reports and publications, and its
disqualifications. What the API refuses the pages refuse, beside the field, storing nothing;
hosts may not use them."""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.builders import (
    AUDIT_LOG,
    SEASONS,
    MakeScene,
    Scene,
    ago,
    audit_entries,
    days_ago,
    ended_season,
    read_qualifiers,
)
from tests.support.console import csrf, form_of, links, signed_in, text_of

ALL, NEW = "/console/seasons/all", "/console/seasons/new"


def beside(response: Any) -> dict[str, str]:
    """The refusals written beside the fields of a form, by field."""
    found: dict[str, list[str]] = {}
    page = response.get_data(as_text=True)
    for name, message in re.findall(r'<p class="error" id="([\w.]+)-problem">(.*?)</p>', page, re.S):
        found.setdefault(name, []).append(html.unescape(message))
    return {name: " ".join(messages) for name, messages in found.items()}


def confirmation(response: Any) -> str:
    """The preview's confirmation, as its form carries it."""
    found = re.search(r'name="confirm" type="hidden" value="(\w+)"', response.get_data(as_text=True))
    assert found is not None, text_of(response)
    return found.group(1)


def season_count(scene: Scene) -> int:
    return int(scene.office.get(f"{SEASONS}?per_page=1").get_json()["total"])


def new_season(**fields: Any) -> dict[str, Any]:
    return {"name": "Autumn 2031", "starts_on": ago(-300), "ends_on": ago(-380), **fields}


def test_r2_r9_the_office_makes_a_season_with_its_regions_chart_and_attendance_bonus(
    app: Flask, scene: Scene
) -> None:
    """R2: a season made from the console with every setting of the API's schema: regions ticked
    by name, the chart chosen by name, attendance bonus tiers (R9) typed as rows; the API then
    answers it with those settings, and the audit log has it (R18)."""
    north, south = scene.league.region(name="North Side"), scene.league.region(name="South Side")
    chart = scene.league.chart(name="Flat Forty", fraction="0.4", step=5)
    office = signed_in(app, scene.office.key)
    form = office.get(NEW)
    assert form.status_code == 200
    page = form.get_data(as_text=True)
    assert f'value="{north["id"]}"> North Side' in page and f'value="{chart["id"]}">Flat Forty' in page
    assert "Where they played most nights" in page and 'name="attendance_bonus.0.events"' in page
    made = office.post(
        NEW,
        data={
            "csrf_token": csrf(form),
            "name": "Autumn 2031",
            "starts_on": ago(-300),
            "ends_on": ago(-380),
            "championship_date": ago(-390),
            "region_ids": [str(north["id"]), str(south["id"])],
            "points_chart_id": str(chart["id"]),
            "participation_points": "5",
            "attendance_bonus.0.events": "6",
            "attendance_bonus.0.points": "25",
            "attendance_bonus.1.events": "3",
            "attendance_bonus.1.points": "10",
            "attendance_bonus.2.events": "",
            "count_best": "8",
            "absent_keeps_place_points": "on",
            "cut_fraction": "0.25",
            "min_events_to_qualify": "2",
            "min_age": "18",
            "double_qualifier_policy": "most_played",
            "correction_days": "5",
        },
    )
    assert made.status_code == 302, beside(made) or text_of(made)
    shown = office.get(made.headers["Location"])
    assert "Season Autumn 2031 made" in text_of(shown) and "North Side, South Side" in text_of(shown)
    season = scene.office.get(f"{SEASONS}?per_page=1").get_json()["items"][0]
    assert season["name"] == "Autumn 2031" and sorted(season["region_ids"]) == sorted(
        [north["id"], south["id"]]
    )
    assert season["attendance_bonus"] == [{"events": 6, "points": 25}, {"events": 3, "points": 10}]
    settings = ("points_chart_id", "participation_points", "count_best", "absent_keeps_place_points")
    assert [season[name] for name in settings] == [chart["id"], 5, 8, True]
    assert (season["cut_fraction"], season["min_age"], season["double_qualifier_policy"]) == (
        0.25,
        18,
        "most_played",
    )
    (entry,) = audit_entries(scene.office, f"action=season.create&entity_id={season['id']}")
    assert entry["actor"] == "Office: Test"
    listed = text_of(office.get(ALL))
    assert "Autumn 2031" in listed and "Flat Forty" in listed and "Coming" in listed


def test_r2_r7_a_refused_season_is_refused_beside_its_field_and_stores_nothing(
    app: Flask, scene: Scene
) -> None:
    """R2: a last day before the first, and dates overlapping the season of a common region; R7:
    a chart that does not exist (a hand-edited choice); a tier of no number (R9): each refused
    beside its field (422), in the API's words said for people, the form kept; nothing stored. A post without
    its CSRF token is refused whole (400)."""
    office = signed_in(app, scene.office.key)
    form = office.get(NEW)
    before = season_count(scene), len(audit_entries(scene.office, "action=season.create"))
    region = str(scene.region["id"])
    for fields, field, said in (
        (new_season(ends_on=ago(-200)), "ends_on", "Must be on or after the first day."),
        (
            new_season(starts_on=ago(10), ends_on=ago(-10), region_ids=[region]),
            "starts_on",
            f"Overlaps season {scene.season_id}",
        ),
        (new_season(points_chart_id="999999"), "points_chart_id", "There is no points chart with id 999999."),
        (
            new_season(**{"attendance_bonus.0.events": "three", "attendance_bonus.0.points": "5"}),
            "attendance_bonus",
            "Row 1, Nights played: Write a whole number, e.g. 3.",
        ),
        (new_season(cut_fraction="0,2"), "cut_fraction", "Write a number with a point, e.g. 0.3."),
    ):
        refused = office.post(NEW, data={**form_of(form), **fields})
        assert refused.status_code == 422, (field, text_of(refused))
        assert said in beside(refused).get(field, ""), (field, beside(refused))
        assert 'value="Autumn 2031"' in refused.get_data(as_text=True)  # the form as it was
    assert office.post(NEW, data=new_season()).status_code == 400
    assert (season_count(scene), len(audit_entries(scene.office, "action=season.create"))) == before


def standings_by_player(scene: Scene) -> dict[str, tuple[str, int]]:
    """The API's standings of the scene's venue: each player's label, (rank as shown, points)."""
    rows = scene.standings()["standings"]
    return {
        row["player"]["label"]: (f"T{row['rank']}" if row["tied"] else str(row["rank"]), row["points"])
        for row in rows
    }


PREVIEW_ROW = re.compile(
    r'<tr><th scope="row">([^<]*)</th><td data-label="Rank now">([^<]*)</td>'
    r'<td data-label="Rank after">([^<]*)</td><td class="n" data-label="Points now">([^<]*)</td>'
    r'<td class="n" data-label="Points after">([^<]*)</td></tr>'
)


def previewed(response: Any) -> dict[str, tuple[str, str, str, str]]:
    """A preview's moves: each player's label, (rank now, rank after, points now, points after)."""
    rows = PREVIEW_ROW.findall(response.get_data(as_text=True))
    return {html.unescape(label): (was, now, p_was, p_now) for label, was, now, p_was, p_now in rows}


def test_r8_r11_r18_a_rescoring_change_shows_who_moves_and_stores_nothing_until_confirmed(
    app: Flask, scene: Scene
) -> None:
    """R8: points for taking part, set on a season with stored nights, rescore them. The page
    first shows, at the venue, every player whose rank or points would change (R11), before and
    after, and the count of results rescored; nothing is stored (standings and audit log as
    they were). Confirmed without the reason a rescoring needs (R18), it is refused beside the
    reason, the preview shown again; confirmed with one, it is saved, the standings are exactly
    what the preview said, and the audit log holds the change with its reason."""
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    fillers = scene.fillers(8)
    scene.report([ann, bob, *fillers])  # 10 entrants: Ann 30, Bob 20
    scene.report([cy, *fillers, bob])  # Cy 30, Bob 0: Bob played twice
    office = signed_in(app, scene.office.key)
    path = f"/console/seasons/{scene.season_id}/settings"
    form = office.get(path)
    assert form.status_code == 200
    before = standings_by_player(scene)
    audited = len(audit_entries(scene.office, "action=season.update"))
    fields = form_of(form, participation_points="10")
    shown = office.post(path, data=fields)
    assert shown.status_code == 200, beside(shown) or text_of(shown)
    words = text_of(shown)
    assert "Not saved yet" in words and "It rescores 20 stored results" in words
    moves = previewed(shown)
    assert moves["Bob"][2:] == ("20", "40") and moves["Ann"][2:] == ("30", "40")
    assert standings_by_player(scene) == before  # nothing stored
    assert len(audit_entries(scene.office, "action=season.update")) == audited
    confirm = confirmation(shown)
    no_reason = office.post(path, data={**fields, "confirm": confirm})
    assert no_reason.status_code == 422 and "say why" in beside(no_reason)["reason"]
    assert previewed(no_reason) == moves and standings_by_player(scene) == before
    saved = office.post(path, data={**fields, "confirm": confirm, "reason": "Reward turnout."})
    assert saved.status_code == 302, beside(saved) or text_of(saved)
    assert "20 stored results rescored" in text_of(office.get(saved.headers["Location"]))
    after = standings_by_player(scene)
    moved = {
        label: (was[0], after[label][0], str(was[1]), str(after[label][1]))
        for label, was in before.items()
        if after[label] != was
    }
    assert moved == moves  # the preview named exactly who moved, and how
    entries = audit_entries(scene.office, "action=season.update")
    assert len(entries) == audited + 1
    assert entries[0]["reason"] == "Reward turnout." and entries[0]["after"]["participation_points"] == 10


def test_r9_r10_a_change_that_moves_no_one_saves_at_once_and_a_changed_confirmation_is_previewed_again(
    app: Flask, scene: Scene
) -> None:
    """A name and the minimum age rescore nothing: saved at once. An attendance bonus (R9) that
    moves players is previewed (no reason needed: it rescores no stored result); a confirmation
    whose fields were changed after the preview (best nights only, R10) is previewed again, not
    saved."""
    ann, bob = scene.players("Ann", "Bob")
    fillers = scene.fillers(8)
    scene.report([ann, *fillers, bob])
    scene.report([*fillers, ann, bob])
    scene.report([bob, ann, *fillers])
    office = signed_in(app, scene.office.key)
    path = f"/console/seasons/{scene.season_id}/settings"
    renamed = office.post(path, data=form_of(office.get(path), name="Winter League", min_age="18"))
    assert renamed.status_code == 302, beside(renamed)
    season = scene.office.get(f"{SEASONS}/{scene.season_id}").get_json()
    assert (season["name"], season["min_age"]) == ("Winter League", 18)
    before = standings_by_player(scene)
    bonus = form_of(office.get(path), **{"attendance_bonus.0.events": "3", "attendance_bonus.0.points": "15"})
    shown = office.post(path, data=bonus)
    assert shown.status_code == 200 and "It rescores" not in text_of(shown)
    assert previewed(shown)["Ann"][2:] == (str(before["Ann"][1]), str(before["Ann"][1] + 15))
    confirm = confirmation(shown)
    again = office.post(path, data={**bonus, "count_best": ["1"], "confirm": [confirm]})
    assert again.status_code == 200 and "Not saved yet" in text_of(again)
    assert standings_by_player(scene) == before
    saved = office.post(path, data={**bonus, "confirm": [confirm]})
    assert saved.status_code == 302, beside(saved)
    assert standings_by_player(scene)["Ann"][1] == before["Ann"][1] + 15


def test_r2_r11_r12_a_past_seasons_standings_missing_reports_and_publications_from_the_season_list(
    app: Flask, make_scene: MakeScene
) -> None:
    """A season that ended (R2), its lists published (R12): from the list of every season, its
    page; from it, a venue's standings in that season (R11), chosen from the seasons offered on
    the standings page too; the missing reports of a week of it (the API's); and each publication
    with when, who and the note."""
    past = make_scene(**ended_season())
    ann, bob = past.players("Ann", "Bob")
    past.report([ann, bob, *past.fillers(4)], days_ago(40))
    published = past.office.post(
        f"{SEASONS}/{past.season_id}/qualifiers/publish", json={"note": "Final lists, after the draw."}
    )
    assert published.status_code == 201, published.get_json()
    office = signed_in(app, past.office.key)
    listed = office.get(ALL)
    assert listed.status_code == 200 and "Ended, lists published" in text_of(listed)
    season_page = office.get(links(listed)[past.season["name"]])
    words = text_of(season_page)
    assert "Final lists, after the draw." in words and "Office: Test" in words and "(official)" in words
    standings = office.get(links(season_page)[past.venue["name"]])
    assert standings.status_code == 200
    assert f"{past.season['name']} · 1 tournament" in text_of(standings)
    points = {row["player"]["label"]: row["points"] for row in past.rows()}
    assert f'<th scope="row">Ann</th><td class="n">{points["Ann"]}</td>' in standings.get_data(as_text=True)
    assert office.get(f"/console/venues/{past.venue_id}/standings?season_id=999999").status_code == 404
    today = office.get(f"/console/venues/{past.venue_id}/standings")  # no season runs there today
    # Between seasons it shows the last one there, and says that it is over.
    said = f"No season covers {past.venue['name']} today. The last one, {past.season['name']}, ended on"
    assert said in text_of(today) and f"{past.season['name']} · 1 tournament" in text_of(today)
    missing = office.get(links(season_page)["Missing reports"])
    assert missing.status_code == 200 and 'id="week"' in missing.get_data(as_text=True)
    last_week = re.findall(r'<option value="([\dW-]+)" selected>', missing.get_data(as_text=True))
    api = past.office.get(f"{SEASONS}/{past.season_id}/missing-reports?week={last_week[0]}").get_json()
    assert (past.venue["name"] in text_of(missing)) == bool(api["venues"])
    reported = days_ago(40)
    year, week, _ = reported.isocalendar()
    that_week = office.get(f"{links(season_page)['Missing reports']}?week={year}-W{week:02d}")
    assert "Every active venue of the season reported that week." in text_of(that_week)
    refused = office.get(f"{links(season_page)['Missing reports']}?week=soon")
    assert refused.status_code == 422 and "An ISO week" in text_of(refused)


def test_r13_the_office_disqualifies_a_player_and_withdraws_it_with_a_reason(
    app: Flask, make_scene: MakeScene
) -> None:
    """R13: the season's players offered by name (or found by the search), one disqualified with
    a reason: the API's list skips them as disqualified. Disqualified twice: refused beside the
    player (409), nothing stored. Withdrawn after a page naming the player, with a reason (none:
    refused beside it); withdrawn again: refused (R17a). Posts without the CSRF token: 400."""
    past = make_scene(**ended_season())
    ann, bob = past.players("Ann", "Bob")
    newcomer = past.player("Zed Newcomer")
    past.report([ann, bob, *past.fillers(8)], days_ago(40))
    office = signed_in(app, past.office.key)
    path = f"/console/seasons/{past.season_id}/disqualifications"
    page = office.get(path)
    assert page.status_code == 200 and "No one is disqualified" in text_of(page)
    body = page.get_data(as_text=True)
    assert re.search(rf'<option value="{ann}">Ann \([^)]*\), player {ann}</option>', body)
    assert f'value="{newcomer}"' not in body  # not played in the season: found by name
    assert f'value="{newcomer}"' in office.get(f"{path}?q=newcomer").get_data(as_text=True)
    token = csrf(page)
    missing = office.post(path, data={"csrf_token": token, "player_id": str(ann)})
    assert missing.status_code == 422 and "Fill this in." in beside(missing)["reason"]
    assert office.post(path, data={"player_id": str(ann), "reason": "No token."}).status_code == 400
    done = office.post(path, data={"csrf_token": token, "player_id": str(ann), "reason": "Collusion."})
    assert done.status_code == 302
    assert "Disqualified: Ann" in text_of(office.get(done.headers["Location"]))
    lists = read_qualifiers(past.office, past.season_id, past.venue_id, "?view=current")
    assert {s["player"]["id"]: s["reason"] for s in lists["skipped"]}[ann] == "disqualified"
    twice = office.post(path, data={"csrf_token": token, "player_id": str(ann), "reason": "Again."})
    assert twice.status_code == 409 and "Already disqualified" in beside(twice)["player_id"]
    (item,) = past.office.get(f"{SEASONS}/{past.season_id}/disqualifications").get_json()["items"]
    listed = office.get(path)
    confirm = office.get(links(listed)["Withdraw…"])
    assert confirm.status_code == 200 and "Withdraw the disqualification of Ann" in text_of(confirm)
    token = csrf(confirm)
    withdraw = f"{path}/{item['id']}/withdraw"
    refused = office.post(withdraw, data={"csrf_token": token, "reason": ""})
    assert refused.status_code == 422 and "reason" in beside(refused)
    assert office.post(withdraw, data={"reason": "No token."}).status_code == 400
    withdrawn = office.post(withdraw, data={"csrf_token": token, "reason": "Cleared on appeal."})
    assert withdrawn.status_code == 302
    assert "Withdrawn: the disqualification of Ann" in text_of(office.get(withdrawn.headers["Location"]))
    (item,) = past.office.get(f"{SEASONS}/{past.season_id}/disqualifications").get_json()["items"]
    assert item["withdraw_reason"] == "Cleared on appeal."
    again = office.post(withdraw, data={"csrf_token": token, "reason": "Twice."})
    assert again.status_code == 409 and "Already withdrawn" in beside(again)["reason"]
    entries = audit_entries(past.office, "entity=disqualification")
    assert sorted(e["action"] for e in entries) == ["disqualification.create", "disqualification.withdraw"]


def test_hosts_may_not_use_the_seasons_pages(app: Flask, scene: Scene) -> None:
    """The seasons' pages are the office's: a host is refused (403) reading and posting, and
    nothing is stored."""
    player = scene.player("Ann")
    item = scene.office.post(
        f"{SEASONS}/{scene.season_id}/disqualifications", json={"player_id": player, "reason": "Test."}
    ).get_json()
    host = signed_in(app, scene.host.key)
    season = f"/console/seasons/{scene.season_id}"
    token = csrf(host.get(f"/console/venues/{scene.venue_id}/report"))
    for path in (
        ALL,
        NEW,
        season,
        f"{season}/settings",
        f"{season}/missing-reports",
        f"{season}/disqualifications",
        f"{season}/disqualifications/{item['id']}/withdraw",
    ):
        assert host.get(path).status_code == 403, path
        assert host.post(path, data={"csrf_token": token, "name": "Host's", "reason": "x"}).status_code in (
            403,
            405,
        ), path
    assert scene.office.get(f"{SEASONS}/{scene.season_id}").get_json()["name"] == scene.season["name"]
    assert len(scene.office.get(f"{AUDIT_LOG}?entity=season").get_json()["items"]) == 1


def test_every_seasons_page_labels_its_fields_and_has_one_heading(app: Flask, scene: Scene) -> None:
    """For keyboards and screen readers: on each page one h1; each input, select and text area
    has a label (by `for`, around it, or its own aria-label in a table of rows)."""
    office: FlaskClient = signed_in(app, scene.office.key)
    season = f"/console/seasons/{scene.season_id}"
    for path in (
        ALL,
        NEW,
        season,
        f"{season}/settings",
        f"{season}/missing-reports",
        f"{season}/disqualifications",
    ):
        answer = office.get(path)
        assert answer.status_code == 200, path
        page = answer.get_data(as_text=True)
        assert page.count("<h1") == 1 and "<script" not in page, path
        labelled = set(re.findall(r'<label[^>]*for="([^"]+)"', page))
        for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", page):
            if 'type="hidden"' in tag or "aria-label=" in tag or 'type="checkbox"' in tag:
                continue
            field_id = re.search(r'id="([^"]+)"', tag)
            assert field_id and field_id.group(1) in labelled, (path, tag)
