"""Pages for other websites (GET /embed/...): a venue's standings with its points race, and a
region's qualifiers, as self-contained HTML. What they show is what the API shows the public
(R11, R12, R19); the race's figures are the standings of each evening (R9, R10); they may be
framed by the sites the league allows; they are cached like the API's answers; bad options and
unknown ids are clear errors, as a page to a browser."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
import time_machine

from tests.builders import MakeScene, Scene, ago, days_ago, iso, read_qualifiers, said
from tests.support.league import League, assert_problem
from tests.support.local_dates import CHICAGO, LocalLeague, ok, utc

HTML = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}  # as a browser asks


@dataclass
class Page:
    """What a test reads of a page: its tables (rows of cell texts), the SVG's line paths and
    names, its text, its <style>."""

    tables: list[list[list[str]]] = field(default_factory=list)
    paths: dict[str, list[str]] = field(default_factory=dict)  # by chart: wide, narrow
    names: dict[str, list[str]] = field(default_factory=dict)
    text: str = ""
    style: str = ""
    tags: set[str] = field(default_factory=set)
    desc: str = ""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.cell: list[str] | None = None
        self.texts: list[str] = []
        self.chart = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.page.tags.add(tag)
        if tag == "svg":
            self.chart = attributes.get("class", "").split()[-1]
        if tag in ("path", "circle", "line", "br", "meta"):  # empty elements
            if tag == "path" and "line" in attributes.get("class", "").split():
                self.page.paths.setdefault(self.chart, []).append(attributes["d"])
            return
        self.stack.append((tag, attributes))
        if tag == "table":
            self.page.tables.append([])
        elif tag == "tr":
            self.page.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.page.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1][0] == "style"):
            self.texts.append(data)
        if self.cell is not None:
            self.cell.append(data)
        if not self.stack:
            return
        tag, attributes = self.stack[-1]
        if tag == "style":
            self.page.style += data
        elif tag == "desc" and self.chart == "wide":
            self.page.desc += data
        elif tag == "text" and "name" in attributes.get("class", "").split():
            self.page.names.setdefault(self.chart, []).append(data)


def read(response: Any) -> Page:
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    assert response.mimetype == "text/html"
    reader = _Reader()
    reader.feed(response.get_data(as_text=True))
    reader.page.text = " ".join(" ".join(reader.texts).split())
    return reader.page


def standings_page(scene: Scene, query: str = "", **kwargs: Any) -> Any:
    return scene.public.get(
        f"/embed/seasons/{scene.season_id}/venues/{scene.venue_id}/standings{query}", **kwargs
    )


def api_standings(scene: Scene, as_of: str | None = None) -> list[dict[str, Any]]:
    query = f"?as_of={as_of}" if as_of else ""
    path = f"/api/v1/seasons/{scene.season_id}/venues/{scene.venue_id}/standings{query}"
    rows: list[dict[str, Any]] = scene.public.get(path).get_json()["standings"]
    return rows


def level_pairs(scene: Scene) -> list[int]:
    """Ann, Bob, Cy and Dee in two reports: Ann and Bob each win one and are second in the other,
    Cy and Dee each third once and fourth once: level on every R11 step, two by two."""
    ann, bob, cy, dee = scene.players("Ann", "Bob", "Cy", "Dee")
    scene.report([ann, bob, cy, dee], days_ago(20))
    scene.report([bob, ann, dee, cy], days_ago(10))
    return [ann, bob, cy, dee]


def test_standings_page_is_the_public_standings_with_ties_marked_and_a_line_per_charted_player_r11(
    scene: Scene,
) -> None:
    """R11: the table's rows are the API's (rank, T for players level on every step, display
    name, points, played, wins), the leaders first; the chart draws one line per charted player
    through every tournament day, names them, and says it all in words."""
    level_pairs(scene)
    page = read(standings_page(scene, "?players=3"))
    header, *rows = page.tables[0]
    assert header == ["Rank", "Player", "Points", "Played", "Wins"]
    expected = [
        [
            f"T{r['rank']}" if r["tied"] else str(r["rank"]),
            r["player"]["display_name"],
            str(r["points"]),
            str(r["played"]),
            str(r["wins"]),
        ]
        for r in api_standings(scene)
    ]
    assert rows == expected
    assert [row[0] for row in rows] == ["T1", "T1", "T3", "T3"]
    # Drawn wide, and narrow for phones: each a path per charted player, through both days.
    assert sorted(page.paths) == ["narrow", "wide"]
    for chart in ("wide", "narrow"):
        assert len(page.paths[chart]) == 3 and all(path.count("L") == 1 for path in page.paths[chart])
        assert page.names[chart] == [row[1] for row in rows[:3]]
    assert "after each of 2 tournaments" in page.desc and "T1. Ann, " in page.desc
    assert {"table", "caption", "th", "svg", "title", "desc", "details"} <= page.tags
    assert "script" not in page.tags and "img" not in page.tags and "link" not in page.tags


def test_the_race_is_each_evenings_standings_with_best_of_and_attendance_bonus_r9_r10(
    make_scene: MakeScene,
) -> None:
    """R9, R10: a charted player's figure after each tournament day is their standings points as
    of that day (the API's `as_of`), with only the best results counted and the bonus once
    reached; the last figure is the table's."""
    scene = make_scene(count_best=2, attendance_bonus=[{"events": 3, "points": 25}])
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    days = [days_ago(40), days_ago(30), days_ago(20), days_ago(10)]
    for day, order in zip(
        days, ([ann, bob, cy], [bob, cy, ann], [cy, ann, bob], [ann, cy, bob]), strict=True
    ):
        scene.report(order, day)
    page = read(standings_page(scene, "?players=3"))
    figures = page.tables[1]
    assert len(figures[0]) == 1 + len(days)
    for name, *points in figures[1:]:
        for day, shown in zip(days, points, strict=True):
            expected = next(
                r["points"] for r in api_standings(scene, iso(day)) if r["player"]["display_name"] == name
            )
            assert int(shown) == expected, (name, day)
    assert [row[-1] for row in figures[1:]] == [str(r["points"]) for r in api_standings(scene)[:3]]


def test_rows_players_and_theme_options(scene: Scene) -> None:
    level_pairs(scene)
    two = read(standings_page(scene, "?rows=2&players=0"))
    assert len(two.tables[0]) == 3 and "svg" not in two.tags
    assert "the top 2 of 4 players" in two.text
    dark = standings_page(scene, "?theme=dark")
    light = standings_page(scene)
    assert "--bg:#14171b" in read(dark).style and "--bg:#ffffff" in read(light).style
    assert dark.headers["Content-Security-Policy"] != light.headers["Content-Security-Policy"]


@pytest.mark.parametrize(
    ("query", "status", "field"),
    [
        ("?rows=0", 422, "rows"),
        ("?rows=501", 422, "rows"),
        ("?players=11", 422, "players"),
        ("?theme=blue", 422, "theme"),
        ("?rows=x", 422, "rows"),
        ("?colour=red", 400, "colour"),
    ],
)
def test_bad_options_are_refused_naming_the_option_as_a_page_to_a_browser(
    scene: Scene, query: str, status: int, field: str
) -> None:
    """A value out of range is a 422 and an unknown option a 400, as in the API, naming it:
    problem+json, or a page saying the same to a browser (which asks for HTML)."""
    problem = assert_problem(standings_page(scene, query), status)
    assert field in problem["errors"]
    page = standings_page(scene, query, headers=HTML)
    assert page.status_code == status and page.mimetype == "text/html"
    assert (
        field in page.get_data(as_text=True) and "frame-ancestors" in page.headers["Content-Security-Policy"]
    )


def test_unknown_or_uncovered_ids_are_a_404_page(scene: Scene, make_scene: MakeScene) -> None:
    other = make_scene()  # another region, which the scene's season does not cover
    paths = [
        f"/embed/seasons/999999/venues/{scene.venue_id}/standings",
        f"/embed/seasons/{scene.season_id}/venues/999999/standings",
        f"/embed/seasons/{scene.season_id}/venues/{other.venue_id}/standings",
        f"/embed/seasons/999999/regions/{scene.region['id']}/qualifiers",
        f"/embed/seasons/{scene.season_id}/regions/999999/qualifiers",
        f"/embed/seasons/{scene.season_id}/regions/{other.region['id']}/qualifiers",
        "/embed/seasons/01/regions/1/qualifiers",
    ]
    for path in paths:
        assert_problem(scene.public.get(path), 404)
        page = scene.public.get(path, headers=HTML)
        assert page.status_code == 404 and page.mimetype == "text/html", path
        assert "<h1>not found</h1>" in page.get_data(as_text=True).lower()


def test_pages_may_be_framed_by_the_sites_the_office_allows_and_run_nothing(scene: Scene) -> None:
    """No X-Frame-Options; a Content-Security-Policy that allows only the page's own stylesheet
    (by its hash) and inline SVG, framed by `*` until the office names sites."""
    level_pairs(scene)
    response = standings_page(scene)
    page = read(response)
    policy = response.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in response.headers
    assert policy.endswith("frame-ancestors *") and "default-src 'none'" in policy
    digest = base64.b64encode(hashlib.sha256(page.style.encode()).digest()).decode()
    assert f"style-src 'sha256-{digest}'" in policy
    allowed = "https://pub.example.org https://*.league.example"
    changed = scene.office.patch(
        "/api/v1/league-settings", json={"embed_frame_ancestors": f"  {allowed.upper()} "}
    )
    assert changed.status_code == 200 and changed.get_json()["embed_frame_ancestors"] == allowed
    assert standings_page(scene).headers["Content-Security-Policy"].endswith(f"frame-ancestors {allowed}")
    qualifiers = scene.public.get(f"/embed/seasons/{scene.season_id}/regions/{scene.region['id']}/qualifiers")
    assert qualifiers.headers["Content-Security-Policy"].endswith(f"frame-ancestors {allowed}")


@pytest.mark.parametrize(
    "value",
    ["", "https://a.example/path", "'none' https://a.example", "a.example; script-src *", '"*"', "x" * 2001],
)
def test_a_bad_frame_ancestors_setting_is_refused_naming_it(scene: Scene, value: str) -> None:
    refused = scene.office.patch("/api/v1/league-settings", json={"embed_frame_ancestors": value})
    assert "embed_frame_ancestors" in assert_problem(refused, 422)["errors"]
    assert scene.public.get("/api/v1/league-settings").get_json()["embed_frame_ancestors"] == "*"


def test_pages_are_cached_and_revalidated_like_the_api(scene: Scene) -> None:
    """An ETag and Cache-Control: no-cache; the same ETag is a 304; a new report is a new page."""
    level_pairs(scene)
    first = standings_page(scene)
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    again = standings_page(scene)
    assert again.get_data() == first.get_data() and again.headers["ETag"] == etag
    assert standings_page(scene, headers={"If-None-Match": etag}).status_code == 304
    scene.report(scene.add_players(2), days_ago(5))
    changed = standings_page(scene, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_pages_show_no_personal_data_whoever_asks_r19(scene: Scene) -> None:
    """R19: display names and points only, even when an office key is sent."""
    private = scene.league.player(
        "Priya Privatova",
        display_name="Priya P.",
        email="priya.embed@example.org",
        membership_number="198507211234",
    )
    scene.report([private["id"], *scene.players("Otto")], days_ago(3))
    for caller in (scene.public, scene.office):
        for path in (
            f"/embed/seasons/{scene.season_id}/venues/{scene.venue_id}/standings",
            f"/embed/seasons/{scene.season_id}/regions/{scene.region['id']}/qualifiers",
        ):
            text = read(caller.get(path)).text
            assert "Priya P." in text
            assert not [
                value for value in ("Privatova", "priya.embed", "198507211234", "1985-07-21") if value in text
            ]


def test_region_qualifiers_page_lists_each_venues_qualifiers_with_status_and_flags_r12(
    scene: Scene,
) -> None:
    """R12: every venue of the region the season covers, by name, its qualifiers as the API lists
    them (rank, name, points, flags in words); provisional while the season runs."""
    second = scene.league.venue(scene.region["id"], name="Zebra Bar")
    players = scene.add_players(10)
    scene.report(players, days_ago(20))
    scene.report(list(reversed(players)), days_ago(19), venue_id=second["id"])
    page = read(scene.public.get(f"/embed/seasons/{scene.season_id}/regions/{scene.region['id']}/qualifiers"))
    assert "Provisional:" in page.text
    api = read_qualifiers(scene.public, scene.season_id)
    lists = sorted(
        (v for v in api["venues"] if v["region_id"] == scene.region["id"]),
        key=lambda v: v["venue_name"].casefold(),
    )
    assert len(page.tables) == len(lists) == 2
    words = {
        "tie_at_cut": "Level at the cut",
        "tie_settled": "Tie settled by draw",
        "age_unverified": "Age not verified",
    }
    for table, venue in zip(page.tables, lists, strict=True):
        assert table[1:] == [
            [
                str(q["rank"]),
                q["player"]["display_name"],
                str(q["points"]),
                " ".join(words[f] for f in q["flags"]),
            ]
            for q in venue["qualifiers"]
        ]
        assert venue["venue_name"] in page.text


def test_published_lists_say_so_with_the_day_and_flags_in_words_r12(make_scene: MakeScene) -> None:
    """R12: once the office publishes, the page shows the published lists and the day; a tie at
    the cut that the office settled by draw is flagged in words."""
    scene = make_scene(starts_on=ago(80), ends_on=ago(10), championship_date=ago(5))
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    filler = scene.add_players(7)
    # A quota of 2 (10 entrants): Ann first, Bob and Cy level on every step for the second place.
    scene.report([ann, bob, cy, *filler], days_ago(30))
    scene.report([ann, cy, bob, *filler], days_ago(25))
    settlement = [{"venue_id": scene.venue_id, "player_id": cy}]
    published = scene.office.post(
        f"/api/v1/seasons/{scene.season_id}/qualifiers/publish", json={"settlements": settlement}
    )
    assert published.status_code == 201, published.get_json()
    (venue,) = [v for v in published.get_json()["venues"] if v["venue_id"] == scene.venue_id]
    assert [q["player"]["id"] for q in venue["qualifiers"]] == [ann, cy]
    page = read(scene.public.get(f"/embed/seasons/{scene.season_id}/regions/{scene.region['id']}/qualifiers"))
    assert f"Published on {said(days_ago(0))}." in page.text  # R24: in the league's words
    assert page.tables[0][2][1] == "Cy" and "Tie settled by draw" in page.tables[0][2][3]
    assert "Level at the cut and left out: Bob (30 points)." in page.text


@time_machine.travel(utc("2026-12-02T18:00"), tick=False)  # Wednesday 2 December, noon in Chicago
def test_r2a_a_regions_games_page_lists_the_weeks_nights_by_day(league: League, host_for: Any) -> None:
    """The week's nights by day (venue, city, local start, marked when cancelled), each venue
    linked to its standings page, an "add to calendar" link to the region's feed; framed, themed
    and cached like the other pages."""
    here = LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-01-31")
    crown = int(league.venue(here.region_id, name="The Crown", city="Riverton")["id"])
    lion = int(league.venue(here.region_id, name="Red Lion", city="Millbrook")["id"])
    tuesday = {"weekday": 2, "starts_at": "19:00", "sessions": 1}
    friday = {"weekday": 5, "starts_at": "20:30", "sessions": 1}
    ok(here.office.put(f"/api/v1/venues/{crown}/schedule", json={"schedule": [tuesday]}))
    ok(here.office.put(f"/api/v1/venues/{lion}/schedule", json={"schedule": [friday]}))
    cancel = {"kind": "cancelled", "date": "2026-12-04", "note": "Closed"}
    ok(here.office.post(f"/api/v1/venues/{lion}/schedule-exceptions", json=cancel), 201)
    path = f"/embed/regions/{here.region_id}/games"
    response = here.office.client.get(path, headers=HTML)
    page = read(response)
    body = response.get_data(as_text=True)
    assert "Tue 1 Dec 2026" in page.text and "Sun 6 Dec 2026" in page.text  # R24
    text = page.text.replace(" ,", ",")
    assert "19:00 The Crown, Riverton" in text and "20:30 Red Lion, Millbrook Cancelled Closed" in text
    assert f'href="/embed/seasons/{here.season_id}/venues/{crown}/standings"' in body
    assert f'href="webcal://localhost/api/v1/regions/{here.region_id}/calendar.ics"' in body
    assert "script" not in page.tags
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and policy.endswith("frame-ancestors *")
    dark = read(here.office.client.get(f"{path}?theme=dark"))
    assert dark.style != page.style
    etag = response.headers["ETag"]
    assert here.office.client.get(path, headers={"If-None-Match": etag, **HTML}).status_code == 304
    assert_problem(here.office.client.get(f"{path}?theme=neon"), 422, "theme")
    assert here.office.client.get("/embed/regions/999999/games", headers=HTML).status_code == 404
