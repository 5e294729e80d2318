"""R24 through HTTP: the league's own site. The front page links every venue and season; a
venue's points race says the table's numbers; a season's qualifier list says why each skipped
player is not on it in public words (R12-R14, R19); a night's result shows who knocked out whom;
dates read in the league's format (the API keeps ISO 8601); pages are cached with ETags and 304s,
load nothing from elsewhere, and say their title, description, canonical address and card; the
sitemap lists every page; the office turns the site off."""

from __future__ import annotations

import re
from typing import Any

from tests.builders import OFFICE_LATE, Scene, ago, days_ago, iso, person, sanctioned
from tests.support.league import Caller

HTML = {"Accept": "text/html"}
SETTINGS = "/api/v1/league-settings"


def page(caller: Caller, path: str, status: int = 200) -> str:
    response = caller.get(path, headers=HTML)
    assert response.status_code == status, (path, response.status_code, response.get_data(as_text=True)[:400])
    text: str = response.get_data(as_text=True)
    return text


def text_of(html: str) -> str:
    """What a person reads: the page without its tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_r24_the_front_page_links_every_venue_and_season_and_reads_as_a_page(
    scene: Scene, public: Caller
) -> None:
    html = page(public, "/")
    assert f'href="/venues/{scene.venue_id}"' in html
    assert f'href="/seasons/{scene.season_id}"' in html
    assert 'href="/ratings"' in html and 'action="/search"' in html
    response = public.get("/", headers=HTML)
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "http" not in csp and "script-src" not in csp
    assert '<link rel="canonical" href="http://localhost/">' in html
    assert '<meta name="description"' in html and 'property="og:title"' in html
    # A program (JSON) still gets the front door's links.
    links = public.get("/").get_json()
    assert "links" in links


def test_r24_pages_are_cached_with_etags_and_304s(scene: Scene, public: Caller) -> None:
    first = public.get(f"/venues/{scene.venue_id}", headers=HTML)
    assert first.status_code == 200 and first.headers["ETag"]
    again = public.get(f"/venues/{scene.venue_id}", headers={**HTML, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert public.get(f"/venues/{scene.venue_id}", headers=HTML).headers["X-Cache"] == "hit"
    # A report moves the page on.
    a, b = scene.players("Ann A.", "Bea B.")
    scene.posted(scene.body([a, b], days_ago(2)))
    moved = public.get(f"/venues/{scene.venue_id}", headers={**HTML, "If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200 and "Ann A." in moved.get_data(as_text=True)


def test_r8a_r24_a_venues_chart_says_the_tables_points_knockouts_and_bounties_included(
    make_scene: Any, public: Caller
) -> None:
    scene: Scene = make_scene(knockout_points=10, bounty="last_winner", bounty_points=25)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    first = scene.body([a, b, c], days_ago(4))
    first["results"][1]["knocked_out_by"] = a
    first["results"][2]["knocked_out_by"] = a
    scene.posted(first)
    second = scene.body([b, c, a], days_ago(3))
    second["results"][2]["knocked_out_by"] = b  # Ann won last: Bea takes her bounty
    scene.posted(second)
    table = public.get(f"/api/v1/seasons/{scene.season_id}/venues/{scene.venue_id}/standings").get_json()
    html = page(public, f"/venues/{scene.venue_id}")
    figures = html[html.index("The chart's figures") :]
    for row in table["standings"]:
        line = re.search(rf"<th scope=\"row\">{re.escape(row['player']['label'])}</th>(.*?)</tr>", figures)
        assert line is not None, row
        cells = re.findall(r'<td class="n">(\d+)</td>', line.group(1))
        assert int(cells[-1]) == row["points"], (row, cells)
    assert any(row["knockout_points"] >= 35 for row in table["standings"])


def test_r12_r13_r14_r19_r24_a_seasons_lists_say_why_each_player_is_passed_over(
    make_scene: Any, public: Caller, office: Caller
) -> None:
    """Qualified at another venue (R14), too few nights (R13: "1 of 2"), and a suspended player
    (R13) shown as "not eligible" (R19: the reason itself is personal)."""
    scene: Scene = make_scene(min_events_to_qualify=2, cut_fraction=0.5)
    other = scene.league.venue(scene.region["id"], name="The Anchor")
    star, once, banned = person(scene, "Star S."), person(scene, "Once O."), person(scene, "Ban B.")
    fillers = scene.add_players(3)
    for n, day in enumerate((10, 9, 8)):
        order = [star, banned, *fillers] if n else [once, star, banned, *fillers]
        scene.posted(scene.body(order, days_ago(day), reason=OFFICE_LATE), scene.office)
        scene.posted(
            scene.body([star, *fillers], days_ago(day), venue_id=int(other["id"]), reason=OFFICE_LATE),
            scene.office,
        )
    sanctioned(office, banned, first_day=ago(1), last_day=None, permanent=True)
    text = text_of(page(public, f"/seasons/{scene.season_id}"))
    assert "qualified at" in text
    assert "too few nights: 1 of 2" in text
    assert "not eligible" in text
    assert "suspended" not in text.casefold()


def test_r8a_r24_a_nights_result_shows_who_knocked_out_whom(make_scene: Any, public: Caller) -> None:
    scene: Scene = make_scene(knockout_points=10)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    body = scene.body([a, b, c], days_ago(2))
    body["results"][2]["knocked_out_by"] = a
    report = scene.posted(body)
    html = page(public, f"/results/{report['id']}")
    assert f'href="/players/{a}">Ann A.</a></td>' in html
    assert "10 for knockouts" in text_of(html)
    assert '<meta property="og:image" content="http://localhost/results/' in html
    card = public.get(f"/results/{report['id']}/card.png")
    assert card.status_code == 200 and card.mimetype == "image/png" and card.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_r24_dates_read_in_the_leagues_format_and_the_api_keeps_iso(
    scene: Scene, public: Caller, office: Caller
) -> None:
    a, b = scene.players("Ann A.", "Bea B.")
    day = days_ago(2)
    report = scene.posted(scene.body([a, b], day))
    html = text_of(page(public, f"/results/{report['id']}"))
    assert f"{day.day} {day:%b} {day.year}" in html and iso(day) not in html
    assert office.patch(SETTINGS, json={"date_format": "d/M/y"}).status_code == 200
    html = text_of(page(public, f"/results/{report['id']}"))
    assert f"{day.day}/{day.month}/{day.year}" in html
    assert public.get(f"/api/v1/tournaments/{report['id']}").get_json()["date"] == iso(day)


def test_r24_a_player_page_says_where_they_stand_against_the_cut(make_scene: Any, public: Caller) -> None:
    scene: Scene = make_scene(cut_fraction=0.2)
    players = scene.add_players(6)
    scene.posted(scene.body(players, days_ago(2)))
    html = text_of(page(public, f"/players/{players[0]}"))
    assert "1st: in the cut" in html
    html = text_of(page(public, f"/players/{players[3]}"))
    assert re.search(r"4th, \d+ points? behind the cut", html), html[:600]
    # Head to head, chosen from the players met.
    against = page(public, f"/players/{players[0]}/against?other={players[3]}")
    assert "1 night both played" in text_of(against)


def test_r24_the_sitemap_lists_every_page_and_robots_points_to_it(scene: Scene, public: Caller) -> None:
    a, b = scene.players("Ann A.", "Bea B.")
    report = scene.posted(scene.body([a, b], days_ago(2)))
    sitemap = public.get("/sitemap.xml")
    assert sitemap.status_code == 200 and sitemap.mimetype == "application/xml"
    listed = set(re.findall(r"<loc>http://localhost([^<]+)</loc>", sitemap.get_data(as_text=True)))
    assert {"/", "/ratings", f"/venues/{scene.venue_id}", f"/seasons/{scene.season_id}"} <= listed
    assert {f"/results/{report['id']}", f"/players/{a}", f"/players/{b}"} <= listed
    for path in listed:
        assert public.get(path, headers=HTML).status_code == 200, path
    robots = public.get("/robots.txt").get_data(as_text=True)
    assert "Sitemap: http://localhost/sitemap.xml" in robots and "Disallow: /console/" in robots


def test_r24_the_office_turns_the_site_off_and_on(scene: Scene, public: Caller, office: Caller) -> None:
    assert office.patch(SETTINGS, json={"site": {"enabled": False}}).status_code == 200
    front = page(public, "/")
    assert "/docs" in front and 'href="/venues/' not in front  # the front door for programs
    for path in (f"/venues/{scene.venue_id}", f"/seasons/{scene.season_id}", "/ratings", "/sitemap.xml"):
        assert public.get(path, headers=HTML).status_code == 404, path
    assert "Disallow: /" in public.get("/robots.txt").get_data(as_text=True)
    # The API and the embeds stay as they are.
    assert public.get(f"/api/v1/seasons/{scene.season_id}").status_code == 200
    assert (
        public.get(f"/embed/seasons/{scene.season_id}/venues/{scene.venue_id}/standings").status_code == 200
    )
    site = {
        "enabled": True,
        "title": "North Bar Poker",
        "welcome": "Free poker every night.",
        "accent": "#7a1f1f",
    }
    assert office.patch(SETTINGS, json={"site": site}).status_code == 200
    front = page(public, "/")
    assert "North Bar Poker" in front and "Free poker every night." in front and "--accent: #7a1f1f" in front


def test_r24_a_merged_players_page_leads_to_the_survivor(
    scene: Scene, public: Caller, office: Caller
) -> None:
    a, b, c = scene.players("Ann A.", "Ann B.", "Cal C.")
    scene.posted(scene.body([b, c], days_ago(2)))
    assert (
        office.post(
            f"/api/v1/players/{a}/merge", json={"duplicate_id": b, "reason": "Same person"}
        ).status_code
        == 200
    )
    moved = public.get(f"/players/{b}", headers=HTML)
    assert moved.status_code == 301 and moved.headers["Location"].endswith(f"/players/{a}")


def test_r24_unknown_pages_are_404_pages(public: Caller) -> None:
    for path in ("/venues/987654", "/players/987654", "/results/987654", "/seasons/987654"):
        assert public.get(path, headers=HTML).status_code == 404, path
    assert public.get("/players/1/against", headers=HTML).status_code in (400, 422)


def test_r2a_r24_the_venue_page_offers_its_calendar_to_subscribe(scene: Scene, public: Caller) -> None:
    html = page(public, f"/venues/{scene.venue_id}")
    assert f'href="webcal://localhost/api/v1/venues/{scene.venue_id}/calendar.ics"' in html


def test_r13_r14_r19_the_embedded_qualifiers_page_says_why_too(
    make_scene: Any, public: Caller, office: Caller
) -> None:
    """R13, R14, R19: the qualifiers page other sites frame lists the players above the cut who
    are passed over, each with a public reason (its Notes column was empty)."""
    scene: Scene = make_scene(min_events_to_qualify=2, cut_fraction=0.5)
    once = person(scene, "Once O.")
    fillers = scene.add_players(4)
    scene.posted(scene.body([once, *fillers], days_ago(10), reason=OFFICE_LATE), scene.office)
    scene.posted(scene.body(fillers, days_ago(9), reason=OFFICE_LATE), scene.office)
    html = text_of(page(public, f"/embed/seasons/{scene.season_id}/regions/{scene.region['id']}/qualifiers"))
    assert "Once O. 10 Not on the list: too few nights: 1 of 2" in html or "too few nights: 1 of 2" in html


def test_r23_r24_a_player_asks_for_the_weekly_email_from_their_page(scene: Scene, public: Caller) -> None:
    """R23, R24: the player's page offers the weekly email: a form posting the address to the
    service's own page (the answer never says whether the league knows it, R19)."""
    (player,) = scene.add_players(1)
    html = page(public, f"/players/{player}")
    assert 'action="/email/subscribe"' in html and 'name="email"' in html and 'type="email"' in html
    response = public.get(f"/players/{player}", headers=HTML)
    assert "form-action 'self'" in response.headers["Content-Security-Policy"]
