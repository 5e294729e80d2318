"""R19, R21, R24: the league's site shows display names only. A league with an erased player, a
suspended one and two players who share a display name is crawled from the front page by every
link of every page (as a search engine would, and as a visitor clicking could), and no page, card
or sitemap holds any player's full name, email, date of birth or membership number. The erased
player shows under their new display name; every page kind was reached."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

from tests.builders import OFFICE_LATE, Scene, ago, days_ago, person, sanctioned, unique_email
from tests.support.league import Caller

HTML = {"Accept": "text/html"}
# Page kinds by path, as the site names them.
KINDS = {
    "front": re.compile(r"^/$"),
    "venue": re.compile(r"^/venues/\d+$"),
    "season": re.compile(r"^/seasons/\d+$"),
    "result": re.compile(r"^/results/\d+$"),
    "player": re.compile(r"^/players/\d+$"),
    "head-to-head": re.compile(r"^/players/\d+/against$"),
    "ratings": re.compile(r"^/ratings$"),
    "search": re.compile(r"^/search$"),
}


class Links(HTMLParser):
    """Every link and form a page offers: hrefs, and a GET form's action with its select's first
    option or its text input's value (what a click on its button sends)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._form: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "a" and named.get("href"):
            self.found.append(str(named["href"]))
        elif tag == "form" and (named.get("method") or "get").lower() == "get":
            self._form = {"action": named.get("action") or "", "fields": {}}
        elif self._form is not None and tag == "select":
            self._form["select"] = named.get("name")
        elif self._form is not None and tag == "option" and self._form.get("select"):
            self._form["fields"].setdefault(self._form["select"], named.get("value") or "")
        elif self._form is not None and tag == "input" and named.get("name"):
            self._form["fields"].setdefault(named["name"], named.get("value") or "k")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._form is not None:
            query = "&".join(f"{k}={v}" for k, v in self._form["fields"].items())
            self.found.append(f"{self._form['action']}?{query}")
            self._form = None


def crawl(public: Caller, start: str = "/", most: int = 400) -> dict[str, Any]:
    """Every page of the site reached from `start` by links (same host, not the API or console),
    its body; cards and the sitemap too."""
    seen: dict[str, Any] = {}
    queue = [start, "/sitemap.xml", "/robots.txt"]
    while queue and len(seen) < most:
        path = queue.pop(0)
        if path in seen:
            continue
        response = public.get(path, headers=HTML)
        assert response.status_code == 200, (
            path,
            response.status_code,
            response.get_data(as_text=True)[:300],
        )
        seen[path] = response
        if response.mimetype != "text/html":
            continue
        parser = Links()
        parser.feed(response.get_data(as_text=True))
        for link in parser.found:
            absolute = urlsplit(urljoin("http://localhost" + path, link))
            if absolute.netloc not in ("localhost", "") or absolute.scheme not in ("http", "https"):
                continue
            target = absolute.path + (f"?{absolute.query}" if absolute.query else "")
            if target.startswith(("/api/", "/console", "/docs", "/openapi", "/email/", "/embed/")):
                continue
            queue.append(target)
        for meta in re.findall(
            r'content="(http://localhost/[^"]+\.png[^"]*)"', response.get_data(as_text=True)
        ):
            queue.append(meta.replace("http://localhost", "").replace("&amp;", "&"))
    return seen


def kind_of(path: str) -> str | None:
    bare = path.split("?")[0]
    return next((kind for kind, pattern in KINDS.items() if pattern.match(bare)), None)


def test_r19_r21_r24_every_page_of_the_site_shows_display_names_only(
    make_scene: Any, public: Caller, office: Caller
) -> None:
    """R19, R21, R24: the crawl reaches every page kind by links from the front page, and no
    page holds a personal value of anyone: not the erased player's (now "Former player N"), the
    suspended one's, or either of two players who share a display name."""
    scene: Scene = make_scene(knockout_points=10, min_events_to_qualify=2)
    crystal_kim = person(scene, "Crystal K.", date_of_birth="1990-04-05", membership_number="199004051234")
    crystal_king = person(scene, "Crystal K.", email=unique_email())
    erased = person(scene, "Eve R.", date_of_birth="1985-07-21", membership_number="198507219876")
    suspended = person(scene, "Sam S.")
    others = scene.add_players(6)
    order = [crystal_kim, erased, suspended, crystal_king, *others]
    first = scene.body(order, days_ago(20), reason=OFFICE_LATE)
    first["results"][1]["knocked_out_by"] = crystal_kim
    scene.posted(first, scene.office)
    scene.posted(
        scene.body([erased, crystal_king, crystal_kim, *others], days_ago(13), reason=OFFICE_LATE),
        scene.office,
    )
    sanctioned(office, suspended, first_day=ago(1), last_day=None, permanent=True)
    assert (
        office.post(f"/api/v1/players/{erased}/erase", json={"reason": "Asked to be forgotten."}).status_code
        == 200
    )
    players = {pid: office.get(f"/api/v1/players/{pid}").get_json() for pid in order}
    # The erased player's personal values, as the office saw them before: from the roster.
    before = {p["id"]: p for p in scene.roster}
    personal = set()
    for pid in order:
        for source in (players[pid], before.get(pid, {})):
            for key in ("full_name", "email", "date_of_birth", "membership_number"):
                value = source.get(key)
                if value:
                    personal.add(str(value))
    personal.add("Crystal Ki")  # a surname past its initial

    seen = crawl(public)
    kinds = Counter(kind_of(path) for path in seen)
    assert {kind for kind in KINDS} <= set(kinds), kinds
    assert any(path.endswith("card.png") for path in seen), sorted(seen)[:20]
    for path, response in seen.items():
        text = response.get_data(as_text=True) if response.mimetype != "image/png" else ""
        for value in personal:
            assert value.casefold() not in text.casefold(), (path, value)
    erased_page = seen[f"/players/{erased}"].get_data(as_text=True)
    assert "Former player" in erased_page
    # Two players who share a display name are told apart by their numbers where both show.
    result_pages = [r.get_data(as_text=True) for p, r in seen.items() if kind_of(p) == "result"]
    assert any(f"Crystal K. #{crystal_kim}" in page for page in result_pages)
