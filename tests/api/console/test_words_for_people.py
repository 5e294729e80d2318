"""Words for people (api/words), point by point, through the console as a person uses it (the
door's refusal and the layer itself: tests/api/words/): the office's forms naming fields by
their labels (a season's dates, the attendance bonus's columns, a chart's bands and fraction, a
region's name) and linking the rule instead of leading with its id; the office's late night
asked for its reason on the page that asks; sanction kinds and categories, the rating and the
weekly email in words; and the small slips (a name ending in a full stop, "1 seasons", the
office told to ask the office, the weekly email page's meta line, knockouts on the upload, a key
form that made a second key)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from flask import Flask

from models.rules.emails import Digest, Rating, compose
from tests.builders import Scene, days_ago, iso, person, sanctioned, utc_today
from tests.support.console import csrf, form_of, hidden_fields, signed_in, text_of, upload
from tests.support.console_forms import post_forms, said
from tests.support.league import Caller

ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def test_r2_a_seasons_dates_that_do_not_hold_together_read_by_label_with_the_rule_linked(
    app: Flask, scene: Scene
) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get("/console/seasons/new")
    posted = office.post(
        "/console/seasons/new",
        data=form_of(page, name="Backwards", starts_on="2027-03-10", ends_on="2027-03-01"),
    )
    assert posted.status_code == 422
    box, beside = said(posted.get_data(as_text=True))
    words = " ".join([*box, *beside])
    assert "R2:" not in words and "ends_on" not in words and "starts_on" not in words
    assert "The season's settings do not hold together. why?" in box
    assert beside == ["Must be on or after the first day. why?"]
    assert 'href="/console/rules#R2"' in posted.get_data(as_text=True)


def test_r9_attendance_bonus_rows_are_named_by_their_columns(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get(f"/console/seasons/{scene.season_id}/settings")
    data = form_of(page, **{"attendance_bonus.0.events": "five", "attendance_bonus.0.points": "10"})
    posted = office.post(f"/console/seasons/{scene.season_id}/settings", data=data)
    _box, beside = said(posted.get_data(as_text=True))
    assert "Row 1, Nights played: Write a whole number, e.g. 3." in beside
    assert not any("events" in line or "Not a valid" in line for line in beside)


def test_r7_a_charts_bands_and_fraction_are_named_by_their_labels_once(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get("/console/charts")
    for changes, reason in (
        (
            {"kind": "bands", "bands": "9-2: 10"},
            "Line 1, Most entrants: Must be at least the fewest entrants.",
        ),
        ({"kind": "top_fraction", "fraction": "1.5"}, "Write a number above 0, at most 1."),
    ):
        posted = office.post("/console/charts", data={"csrf_token": csrf(page), "name": "Binder", **changes})
        assert posted.status_code == 422
        box, beside = said(posted.get_data(as_text=True))
        assert any(line.startswith(reason) for line in beside), beside
        assert not any(line.startswith(("bands", "fraction")) for line in [*box, *beside])
        assert not any(reason in line for line in box)  # said once, beside its field


def test_an_empty_region_name_asks_for_it_in_words(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get("/console/regions")
    posted = office.post("/console/regions", data={"csrf_token": csrf(page), "name": ""})
    assert posted.status_code == 422
    _box, beside = said(posted.get_data(as_text=True))
    assert beside == ["Fill this in."]


def test_r17_the_office_gives_a_late_nights_reason_on_the_page_that_asks_for_it(
    app: Flask, scene: Scene
) -> None:
    """An upload by the office of a night past the hosts' window, without a reason, is refused
    with the reason's field on the refusal's page; posted with it, the sheet is previewed, and the
    preview stores it with that reason."""
    ann, bob = scene.players("Ann", "Bob")
    office = signed_in(app, scene.office.key)
    late = iso(days_ago(12))
    refused = upload(office, scene.venue_id, f"Place,Player ID\n1,{ann}\n2,{bob}\n", late)
    assert refused.status_code == 422
    words = text_of(refused)
    assert "Give the reason this night is reported now" in words and "(R17)" not in words
    (asking,) = [
        form for form in post_forms(refused.get_data(as_text=True), "") if "late_reason" in form.names()
    ]
    data = asking.filled(late_reason="The host's sheet came by post")
    preview = office.post(asking.action, data=data)
    assert preview.status_code == 200 and "Store the report" in text_of(preview)
    before = scene.stored_reports()
    stored = office.post(f"/console/venues/{scene.venue_id}/report/confirm", data=hidden_fields(preview))
    assert stored.status_code == 302 and scene.stored_reports() == before + 1
    entries = scene.office.get("/api/v1/audit-log?action=tournament.create&per_page=1").get_json()["items"]
    assert entries[0]["reason"] == "The host's sheet came by post"


def test_r16_the_office_lets_a_suspended_player_stand_from_the_refusals_page(
    app: Flask, scene: Scene
) -> None:
    ann, bob = scene.players("Ann", "Bob")
    sanctioned(scene.office, bob, first_day=iso(days_ago(5)), last_day=iso(days_ago(-20)))
    office = signed_in(app, scene.office.key)
    refused = upload(office, scene.venue_id, f"Place,Player ID\n1,{ann}\n2,{bob}\n", iso(days_ago(1)))
    assert refused.status_code == 422
    (asking,) = [
        form for form in post_forms(refused.get_data(as_text=True), "") if "override_reason" in form.names()
    ]
    preview = office.post(asking.action, data=asking.filled(override_reason="He paid the fine early."))
    assert preview.status_code == 200 and "Store the report" in text_of(preview)
    stored = office.post(f"/console/venues/{scene.venue_id}/report/confirm", data=hidden_fields(preview))
    assert stored.status_code == 302
    host = signed_in(app, scene.host.key)
    again = upload(host, scene.venue_id, f"Place,Player ID\n1,{bob}\n2,{ann}\n", iso(days_ago(1)), session=2)
    assert not [f for f in post_forms(again.get_data(as_text=True), "") if "override_reason" in f.names()]


def test_r15_sanction_kinds_and_categories_read_as_words(app: Flask, scene: Scene) -> None:
    wendy = person(scene, "Wendy P.")
    scene.report([wendy, *scene.players("Ann")], days_ago(3))
    office = signed_in(app, scene.office.key)
    page = office.get(f"/console/players/{wendy}/sanctions")
    shown = page.get_data(as_text=True)
    assert '<option value="venue_ban">Venue ban</option>' in shown
    assert '<option value="outside_alcohol">Outside alcohol</option>' in shown
    data = form_of_sanction(page, kind="venue_ban", category="outside_alcohol", venue_id=str(scene.venue_id))
    issued = office.post(f"/console/players/{wendy}/sanctions", data=data)
    assert issued.status_code == 302
    after = office.get(issued.headers["Location"])
    words = text_of(after)
    assert "a venue ban of Wendy P. " in words + " " and "Wendy P.." not in words
    assert (
        "venue ban (outside alcohol)" in words and "venue_ban" not in words and "outside_alcohol" not in words
    )
    door = text_of(signed_in(app, scene.host.key).get(f"/console/venues/{scene.venue_id}/door-list"))
    assert "venue ban (outside alcohol)" in door and "_" not in door


def form_of_sanction(page: Any, **changes: str) -> dict[str, str]:
    return {
        "csrf_token": csrf(page),
        "reason": "Brought a bottle.",
        "first_day": iso(utc_today()),
        "last_day": "",
        **changes,
    }


def test_r20_the_rating_reads_as_what_it_means(app: Flask, scene: Scene) -> None:
    ann, bob = scene.players("Ann", "Bob")
    scene.report([ann, bob], days_ago(3))
    office = signed_in(app, scene.office.key)
    words = text_of(office.get(f"/console/players/{ann}/sanctions"))
    assert "mu" not in words.split() and "sigma" not in words
    assert "how well a player finishes against the players they meet" in words
    assert "after 1 rated night (provisional" in words
    embed = text_of(app.test_client().get("/embed/ratings"))
    assert "mu − 3 sigma" not in embed and "how well a player finishes" in embed


def test_r20_r23_the_weekly_emails_rating_says_what_it_means() -> None:
    digest = Digest("Wendy P.", date(2026, 12, 7), (), (), Rating(Decimal("5.87"), True, 3))
    _subject, body = compose(digest)
    assert "Your rating: 5.87" not in body
    assert (
        "Your skill rating: 5.87 after 3 rated nights (provisional: your rating settles after 5 nights)."
        in body
    )
    assert "how well a player finishes against the players they meet" in body


def test_the_demo_counts_in_words_and_the_office_is_not_told_to_ask_itself(
    app: Flask, office: Caller, runner: Any
) -> None:
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    browser = signed_in(app, office.key)
    page = browser.get("/console/demo")
    words = text_of(page)
    assert re.search(r"\b1 seasons?\b", words) and "1 seasons" not in words
    removed = browser.post(
        "/console/demo", data={"csrf_token": csrf(page), "listed": hidden_fields(page)["listed"]}
    )
    assert removed.status_code == 302
    home = text_of(browser.get("/console/"))
    assert "ask the league office" not in home and "add your league's first venue" in home


def test_the_weekly_email_page_names_the_player_and_the_way_to_another(app: Flask, scene: Scene) -> None:
    ann = scene.player("Ann")
    words = text_of(signed_in(app, scene.office.key).get(f"/console/players/{ann}/weekly-email"))
    assert f"Player number {ann} · Find another player" in words
    assert f"player {ann} · another player" not in words


def test_r8a_the_upload_tells_of_knockouts_and_its_preview_shows_them(app: Flask, scene: Scene) -> None:
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    host = signed_in(app, scene.host.key)
    page = host.get(f"/console/venues/{scene.venue_id}/report")
    assert "Knocked out by" in text_of(page) and "player_id" not in text_of(page)
    sheet = f"Place,Player ID,Knocked out by\n1,{ann},\n2,{bob},{ann}\n3,{cy},{ann}\n"
    preview = upload(host, scene.venue_id, sheet, iso(days_ago(1)))
    assert preview.status_code == 200, text_of(preview)
    cells = (
        r'<tr[^>]*><td>(\d+)</td><th scope="row">(.*?)</th><td>(.*?)</td>'
        r'<td>(.*?)</td><td class="n">(.*?)</td>'
    )
    rows = re.findall(cells, preview.get_data(as_text=True))
    assert [(place, knocker, knockouts) for place, _name, _status, knocker, knockouts in rows] == [
        ("1", "", "2"),
        ("2", "Ann", ""),
        ("3", "Ann", ""),
    ]


def test_the_key_form_is_empty_after_a_key_is_made(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get("/console/keys")
    made = office.post(
        "/console/keys",
        data={"csrf_token": csrf(page), "name": "Host: Anchor, Sam", "venue_id": str(scene.venue_id)},
    )
    assert made.status_code == 200 and "it is not shown again" in text_of(made)
    (field,) = re.findall(r'<input[^>]*name="name"[^>]*>', made.get_data(as_text=True))
    assert 'value="Host: Anchor, Sam"' not in field and "value=" not in field.replace('value=""', "")


def test_the_rules_page_explains_each_rule_a_refusal_links(app: Flask) -> None:
    """A refusal's "why?" opens /console/rules#Rn: every rule of docs/rules.md is there, under
    its id, without a sign-in."""
    page = app.test_client().get("/console/rules")
    shown = page.get_data(as_text=True)
    assert page.status_code == 200
    for rule in ("R1", "R2", "R2a", "R4", "R7", "R9", "R15", "R16", "R17", "R17a", "R20", "R22", "R24"):
        assert f'id="{rule}"' in shown, rule
    assert "<script" not in shown and "Ann plays at the Crown" in text_of(page)


def test_dates_in_refusals_read_in_the_leagues_format(app: Flask, scene: Scene) -> None:
    assert scene.office.patch("/api/v1/league-settings", json={"date_format": "d/M/y"}).status_code == 200
    office = signed_in(app, scene.office.key)
    page = office.get("/console/seasons/new")
    over = office.post(
        "/console/seasons/new",
        data=form_of(
            page, name="Over", starts_on=iso(utc_today()), ends_on=iso(utc_today() + timedelta(days=9))
        ),
    )
    words = text_of(over)
    assert "Overlaps season" in words and not ISO.search(words)
    start = date.fromisoformat(scene.season["starts_on"])
    assert f"{start.day}/{start.month}/{start.year}" in words
