"""GET /: the front door. With the league's site on (the default, R24: tests/api/site), a browser
gets the site's front page; with it off, as these tests set it, a browser gets a small page (no
script, the pages' own security headers) linking the docs, the console, the API's index, the
four embeddable pages and the health check; an API client gets the same links as JSON. Both say
the league's name, a league setting the office changes, audited (R18). GET /api/v1/: the API's
index, its docs, spec and collections."""

from __future__ import annotations

import html
import re
from typing import Any

from tests.builders import audit_entries
from tests.support.league import Caller, assert_problem

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
LINKS = {
    "docs": "/docs",
    "openapi": "/openapi.json",
    "console": "/console/",
    "health": "/health",
    "api": "/api/v1/",
    "embed_standings": "/embed/seasons/{season_id}/venues/{venue_id}/standings",
    "embed_qualifiers": "/embed/seasons/{season_id}/regions/{region_id}/qualifiers",
    "embed_games": "/embed/regions/{region_id}/games",
    "embed_ratings": "/embed/ratings{?region_id}",
    "embed_night": "/embed/venues/{venue_id}/night",
}
EMBEDS = ("embed_standings", "embed_qualifiers", "embed_games", "embed_ratings", "embed_night")


def links_of(page: str) -> list[str]:
    return re.findall(r'<a href="([^"]+)"', page)


def site_off(office: Caller) -> None:
    """R24: the league's own site turned off: / is the front door for programs again."""
    assert office.patch("/api/v1/league-settings", json={"site": {"enabled": False}}).status_code == 200


def test_a_browser_gets_a_page_linking_the_docs_the_console_and_the_health_check(
    public: Caller, office: Caller
) -> None:
    site_off(office)
    answer = public.get("/", headers={"Accept": BROWSER})
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    policy = answer.headers["Content-Security-Policy"]
    assert (
        "default-src 'none'" in policy
        and "frame-ancestors 'none'" in policy
        and "style-src 'sha256-" in policy
    )
    assert "script-src" not in policy and answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "Accept" in answer.headers["Vary"]
    page = answer.get_data(as_text=True)
    assert "<title>Poker League</title>" in page and "<h1>Poker League</h1>" in page
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert links_of(page) == ["/console/", "/docs", "/api/v1/", "/openapi.json", "/health"]
    assert all(LINKS[name] in page for name in EMBEDS)
    assert "Five pages any site may frame" in page
    assert "the demo's" not in page  # no demo loaded: the patterns alone
    for link in links_of(page):
        assert public.get(link).status_code in (200, 302), link  # the console asks to sign in


def test_with_the_demo_the_page_links_its_embeddable_pages(
    public: Caller, office: Caller, runner: Any
) -> None:
    """Every frameable page (embed/routes.py's five) has the demo's example; the ratings' is the
    demo's region's table, where the demo's players are (R20: the league's table leaves them out);
    the night's is the demo's night in progress (R22)."""
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    site_off(office)
    page = public.get("/", headers={"Accept": BROWSER}).get_data(as_text=True)
    embeds = [html.unescape(link) for link in links_of(page) if link.startswith("/embed/")]
    assert len(embeds) == 5 and page.count("the demo's") == 5
    (season,) = public.get("/api/v1/seasons").get_json()["items"]
    region = season["region_ids"][0]
    assert embeds[0].startswith(f"/embed/seasons/{season['id']}/venues/")
    assert embeds[1] == f"/embed/seasons/{season['id']}/regions/{region}/qualifiers"
    assert embeds[2] == f"/embed/regions/{region}/games"
    assert embeds[3] == f"/embed/ratings?region_id={region}"
    assert embeds[4].startswith("/embed/venues/") and embeds[4].endswith("/night")
    for link in embeds:
        shown = public.get(link, headers={"Accept": BROWSER})
        assert shown.status_code == 200 and shown.mimetype == "text/html", link
    assert "<polyline" in public.get(embeds[3]).get_data(as_text=True)  # the demo's players, rated


def test_every_frameable_page_is_on_the_front_door(app: Any, public: Caller, office: Caller) -> None:
    """The front door lists every page under /embed/ that the service serves, no fewer, in its
    JSON (URI templates) and on its page."""
    site_off(office)
    served = {rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/embed/")}
    shapes = {re.sub(r"<(?:id:)?(\w+)>", r"{\1}", rule) for rule in served}
    links = public.get("/", headers={"Accept": "application/json"}).get_json()["links"]
    listed = {link.split("{?")[0] for name, link in links.items() if name.startswith("embed_")}
    assert listed == shapes
    page = html.unescape(public.get("/", headers={"Accept": BROWSER}).get_data(as_text=True))
    assert all(link in page for name, link in links.items() if name.startswith("embed_"))


def test_the_apis_index_links_the_docs_the_spec_and_the_collections(public: Caller, office: Caller) -> None:
    """GET /api/v1/ (where the front door's `api` link goes) and GET /api/v1 (the spec's path)
    answer its links, not a 404: the docs, the spec and the main collections, each of which
    answers (the office's own to it)."""
    answer = public.get("/api/v1/")
    assert answer.status_code == 200 and answer.mimetype == "application/json", answer.get_data()
    body = answer.get_json()
    assert list(body) == ["name", "links"] and body["name"] == "Poker League"
    links = body["links"]
    assert links["docs"] == "/docs" and links["openapi"] == "/openapi.json"
    collections = {name: path for name, path in links.items() if path.startswith("/api/v1/")}
    assert {
        "regions",
        "venues",
        "seasons",
        "players",
        "tournaments",
        "ratings",
        "games",
        "sanctions",
        "points_charts",
        "api_keys",
        "audit_log",
    } <= set(collections)
    for name, path in links.items():
        assert office.get(path).status_code == 200, (name, path)
    spec = public.get("/openapi.json").get_json()
    # The spec's path has no trailing slash (Redocly's no-path-trailing-slash); both answer.
    assert spec["paths"]["/api/v1"]["get"]["operationId"] == "get_api_index"
    assert "/api/v1/" not in spec["paths"]
    assert all(path in spec["paths"] for path in collections.values())
    assert public.get("/api/v1").get_json() == body  # the index (it once redirected there)


def test_an_api_client_gets_the_links_as_json(public: Caller, office: Caller) -> None:
    for accept in ("application/json", "*/*", None):
        answer = public.get("/", headers={"Accept": accept} if accept else {})
        assert answer.status_code == 200 and answer.mimetype == "application/json", accept
        body = answer.get_json()
        assert list(body) == ["name", "links"] and body["name"] == "Poker League"
        assert body["links"] == LINKS
    assert public.get("/openapi.json").get_json()["paths"]["/"]["get"]["operationId"] == "get_front_door"
    assert public.get(LINKS["health"]).get_json()["status"] == "ok"
    assert office.get("/", headers={"Accept": "application/json"}).get_json()["links"] == LINKS


def test_a_client_that_takes_neither_is_told_so(public: Caller) -> None:
    problem = assert_problem(public.get("/", headers={"Accept": "text/csv"}), 406)
    assert "application/json or text/html" in problem["detail"]


def test_r18_the_leagues_name_is_a_setting_the_office_changes_audited(
    public: Caller, office: Caller, host_for: Any, league: Any
) -> None:
    assert public.get("/api/v1/league-settings").get_json()["name"] == "Poker League"
    changed = office.patch("/api/v1/league-settings", json={"name": "  River Valley   Poker & <Co> "})
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["name"] == "River Valley Poker & <Co>"
    assert (
        public.get("/", headers={"Accept": "application/json"}).get_json()["name"]
        == "River Valley Poker & <Co>"
    )
    page = public.get("/", headers={"Accept": BROWSER}).get_data(as_text=True)
    assert "<h1>River Valley Poker &amp; &lt;Co&gt;</h1>" in page
    (entry,) = audit_entries(office, "action=league_settings.update")
    assert (entry["before"]["name"], entry["after"]["name"]) == ("Poker League", "River Valley Poker & <Co>")
    assert_problem(office.patch("/api/v1/league-settings", json={"name": "  "}), 422, "name")
    assert_problem(office.patch("/api/v1/league-settings", json={"name": "x" * 121}), 422, "name")
    host = host_for(league.venue()["id"])
    assert_problem(host.patch("/api/v1/league-settings", json={"name": "Mine"}), 403)
    assert public.get("/api/v1/league-settings").get_json()["name"] == "River Valley Poker & <Co>"
