"""How the site is found and shared (R24): the sitemap and robots.txt for search engines, and the
image cards chat apps show when a venue's standings or a night's result is shared."""

from __future__ import annotations

from datetime import date, datetime
from http import HTTPStatus
from typing import Any

from flask import Response, url_for
from flask.views import MethodView
from markupsafe import escape
from werkzeug.exceptions import NotFound as HttpNotFound

from api import db
from api.cache.views import DATA_VERSION, cached_by
from api.contract import answers
from api.site.cards import card
from api.site.pages import blp, chosen_season, covers, league_today, settings, site_on
from api.site.reads import answer, every
from api.site.schemas import VenuePageQuery
from api.site.words import ordinal, plural
from models.services.site.sitemap import site_pages

# Search engines ----------------------------------------------------------------------------------

# A sitemap file holds at most this many addresses (sitemaps.org); past it, /sitemap.xml is an
# index of numbered parts.
SITEMAP_MOST = 50_000
PAGE_OF_KIND = {
    "venue": ("site.VenuePage", "venue_id"),
    "season": ("site.SeasonPage", "season_id"),
    "result": ("site.ResultPage", "report_id"),
    "player": ("site.PlayerPage", "player_id"),
}
XML = "application/xml"


def _listed() -> list[tuple[str, datetime | None]]:
    """Every page of the site (absolute address, when its data last changed)."""
    front = url_for("front_door.FrontDoorViews", _external=True)
    pages: list[tuple[str, datetime | None]] = [
        (front, None),
        (url_for("site.RatingsPage", _external=True), None),
    ]
    for listed in site_pages(db.session()):
        endpoint, name = PAGE_OF_KIND[listed.kind]
        values: dict[str, Any] = {name: listed.id}
        pages.append((url_for(endpoint, _external=True, **values), listed.changed))
    return pages


def _urlset(pages: list[tuple[str, datetime | None]]) -> Response:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for address, changed in pages:
        when = f"<lastmod>{changed.date().isoformat()}</lastmod>" if changed else ""
        lines.append(f"<url><loc>{escape(address)}</loc>{when}</url>")
    lines.append("</urlset>")
    return Response("\n".join(lines) + "\n", mimetype=XML)


@blp.route("/sitemap.xml")
@cached_by(DATA_VERSION, why="a page of the site naming every season, venue, player and result", by_host=True)
class Sitemap(MethodView):
    @blp.doc(
        operationId="get_sitemap",
        responses={
            200: {"description": "A sitemap (XML).", "content": {XML: {"schema": {"type": "string"}}}}
        },
    )
    @answers(HTTPStatus.NOT_FOUND)
    def get(self) -> Response:
        """Every page of the league's site, for search engines (R24): the front page, the
        ratings, each venue, season, night's result and player, with when each last changed. Past
        50,000 pages, an index of numbered parts (`/sitemap-1.xml`, …)."""
        site_on()
        pages = _listed()
        if len(pages) <= SITEMAP_MOST:
            return _urlset(pages)
        parts = (len(pages) + SITEMAP_MOST - 1) // SITEMAP_MOST
        lines = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ]
        for part in range(1, parts + 1):
            address = url_for("site.SitemapPart", part=part, _external=True)
            lines.append(f"<sitemap><loc>{escape(address)}</loc></sitemap>")
        lines.append("</sitemapindex>")
        return Response("\n".join(lines) + "\n", mimetype=XML)


@blp.route("/sitemap-<id:part>.xml")
@cached_by(DATA_VERSION, why="a page of the site naming every season, venue, player and result", by_host=True)
class SitemapPart(MethodView):
    @blp.doc(
        operationId="get_sitemap_part",
        responses={
            200: {
                "description": "A part of the sitemap (XML).",
                "content": {XML: {"schema": {"type": "string"}}},
            }
        },
    )
    @answers(HTTPStatus.NOT_FOUND)
    def get(self, part: int) -> Response:
        """One part of a large league's sitemap (R24): its pages `(part - 1) × 50,000 + 1` on."""
        site_on()
        pages = _listed()[(part - 1) * SITEMAP_MOST : part * SITEMAP_MOST]
        if not pages:
            raise HttpNotFound(f"The sitemap has no part {part}.")
        return _urlset(pages)


@blp.route("/robots.txt")
@cached_by(DATA_VERSION, why="the site's robots.txt, made from its host and settings", by_host=True)
class Robots(MethodView):
    @blp.doc(
        operationId="get_robots",
        responses={
            200: {"description": "robots.txt", "content": {"text/plain": {"schema": {"type": "string"}}}}
        },
    )
    @answers(HTTPStatus.NOT_FOUND)
    def get(self) -> Response:
        """What search engines may read (R24): the site, not the console or the API; and where
        the sitemap is. With the site off, nothing."""
        lines = ["User-agent: *"]
        if settings().site_enabled:
            lines += ["Allow: /", "Disallow: /console/", "Disallow: /api/", "Disallow: /email/"]
            lines.append(f"Sitemap: {url_for('site.Sitemap', _external=True)}")
        else:
            lines.append("Disallow: /")
        return Response("\n".join(lines) + "\n", mimetype="text/plain")


# Cards for link previews -------------------------------------------------------------------------

PNG = "image/png"
CARD_ANSWER = {
    200: {
        "description": "An image card (PNG, 1200 × 630).",
        "content": {PNG: {"schema": {"type": "string", "format": "binary"}}},
    }
}


@blp.route("/venues/<id:venue_id>/card.png")
@cached_by(DATA_VERSION, why="a venue's card: its schedule (no scope) and its standings", by_host=True)
class VenueCard(MethodView):
    @blp.doc(operationId="get_site_venue_card", responses=CARD_ANSWER)
    @answers(HTTPStatus.NOT_FOUND)
    @blp.arguments(VenuePageQuery, location="query")
    def get(self, args: dict[str, Any], venue_id: int) -> Response:
        """A venue's standings as an image card, for link previews in chat apps (R24): the top
        five of the running season (or the season asked for), display names only (R19)."""
        found = site_on()
        venue = answer(f"/api/v1/venues/{venue_id}")
        seasons = [s for s in every("/api/v1/seasons") if covers(s, venue)]
        chosen = chosen_season(seasons, args.get("season"), league_today())
        rows: list[tuple[str, str, str]] = []
        subtitle = "No season yet"
        if chosen is not None:
            table = answer(f"/api/v1/seasons/{chosen['id']}/venues/{venue_id}/standings", {"per_page": 5})
            rows = [
                (f"{'T' if r['tied'] else ''}{r['rank']}", r["player"]["label"], plural(r["points"], "pt"))
                for r in table["standings"]
            ]
            subtitle = f"Standings, {chosen['name']}: {plural(table['tournaments'], 'night')}"
        image = card(found.site_title or found.name, found.site_accent, venue["name"], subtitle, rows)
        return Response(image, mimetype=PNG)


@blp.route("/results/<id:report_id>/card.png")
@cached_by(DATA_VERSION, why="a result's card: the report and its venue's schedule (no scope)", by_host=True)
class ResultCard(MethodView):
    @blp.doc(operationId="get_site_result_card", responses=CARD_ANSWER)
    @answers(HTTPStatus.NOT_FOUND)
    def get(self, report_id: int) -> Response:
        """A night's result as an image card, for link previews in chat apps (R24): the venue,
        the date and the top five, display names only (R19)."""
        found = site_on()
        report = answer(f"/api/v1/tournaments/{report_id}")
        venue = answer(f"/api/v1/venues/{report['venue_id']}")
        when = found.dates.day(date.fromisoformat(report["date"]))
        session_note = f", session {report['session']}" if report["session"] > 1 else ""
        rows = [
            (ordinal(r["place"]), r["player"]["label"], plural(r["points"], "pt"))
            for r in sorted(report["results"], key=lambda r: r["place"])[:5]
        ]
        subtitle = f"{when}{session_note}: {plural(report['entrants'], 'player')}"
        image = card(found.site_title or found.name, found.site_accent, venue["name"], subtitle, rows)
        return Response(image, mimetype=PNG)
