"""The league's own site (R24): every venue, season, night and player a link away from the front
page, on a phone, for anyone. Each page is the public view (R19: display names only) made from
the API's own answers (api/site/reads.py), cached like them, and says dates in the league's
format. The office turns it off (league setting `site.enabled`): / then shows the front door for
programs, and the other pages are 404s."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from http import HTTPStatus
from typing import Any

from flask import Response, url_for
from flask.views import MethodView

from api.cache.views import DATA_VERSION, cached_by
from api.contract import answers
from api.embed.chart import NARROW, WIDE, race_chart
from api.embed.routes import subscription
from api.embed.theme import THEMES
from api.nights.routes import the_open_nights
from api.site.charts import RaceRow
from api.site.pages import (
    HTML_PAGE,
    TOP_RATINGS,
    WEEKDAYS,
    blp,
    chosen_season,
    covers,
    league_today,
    page,
    running_seasons,
    settings,
    site_on,
    weeks_later,
)
from api.site.reads import answer, every
from api.site.schemas import VenuePageQuery
from api.site.words import STATUS_WORDS, public_reason
from models.freshness.tables import NIGHT_TABLES
from models.rules.race import Race


def front_page() -> Response:
    """The front page's HTML (the front door calls it for browsers while the site is on)."""
    found = settings()
    games = answer("/api/v1/games")
    nights = answer("/api/v1/nights")["items"]
    regions = every("/api/v1/regions")
    venues = every("/api/v1/venues")
    seasons = every("/api/v1/seasons")
    ratings = answer("/api/v1/ratings", {"per_page": TOP_RATINGS})
    live = {night["venue"]["id"]: night for night in nights}
    today = league_today()
    by_region = [
        (region, [v for v in venues if v["region_id"] == region["id"]])
        for region in sorted(regions, key=lambda r: r["name"].casefold())
    ]
    return page(
        "site/front.html",
        found.site_title or found.name,
        f"Standings, results, players and where to play this week in {found.site_title or found.name}.",
        welcome=found.site_welcome,
        games=games,
        live=live,
        nights=nights,
        by_region=[(region, vs) for region, vs in by_region if vs],
        seasons=running_seasons(seasons, today) or seasons[:3],
        ratings=ratings,
        today=today,
    )


@blp.route("/venues/<id:venue_id>")
@cached_by(
    DATA_VERSION,
    why="its schedule (no scope covers it), seasons and standings",
    by_host=True,
    also=the_open_nights,
    also_covers=NIGHT_TABLES,
)  # tonight's game, if on
class VenuePage(MethodView):
    @blp.doc(operationId="get_site_venue", responses=HTML_PAGE)
    @answers(HTTPStatus.NOT_FOUND)
    @blp.arguments(VenuePageQuery, location="query")
    def get(self, args: dict[str, Any], venue_id: int) -> Response:
        """A venue (R24): its standings in the running season (or the season asked for), with
        the points race drawn from the same numbers; its regular games and the next ones; a
        night being played now; its past seasons and reports, each linked."""
        site_on()
        venue = answer(f"/api/v1/venues/{venue_id}")
        seasons = [s for s in every("/api/v1/seasons") if covers(s, venue)]
        games = answer("/api/v1/games", {"venue_id": venue_id})
        today = league_today()
        chosen = chosen_season(seasons, args.get("season"), today)
        table = race = None
        if chosen is not None:
            table = answer(f"/api/v1/seasons/{chosen['id']}/venues/{venue_id}/standings", {"per_page": 500})
            race = answer(f"/api/v1/seasons/{chosen['id']}/venues/{venue_id}/points-race")
        charts = _race_charts(race, venue["name"], chosen["name"] if chosen else "")
        nights = [
            report
            for report in every("/api/v1/tournaments", {"venue_id": venue_id}, most=4)
            if not report.get("voided")
        ]
        open_night = next(
            (n for n in answer("/api/v1/nights")["items"] if n["venue"]["id"] == venue_id), None
        )
        return page(
            "site/venue.html",
            venue["name"],
            f"Standings, results and nights at {venue['name']}"
            + (f", {venue['city']}" if venue.get("city") else "")
            + ".",
            venue=venue,
            seasons=seasons,
            season=chosen,
            table=table,
            charts=charts,
            games=games["items"],
            nights=nights,
            open_night=open_night,
            weekdays=WEEKDAYS,
            # A subscription (webcal:): a calendar app follows the feed.
            calendar=subscription(url_for("calendars.VenueCalendar", venue_id=venue_id, _external=True)),
            series_colours=THEMES["light"].series,
            card=url_for(
                "site.VenueCard", venue_id=venue_id, season=chosen["id"] if chosen else None, _external=True
            )
            if table and table["standings"]
            else None,
        )


def _race_charts(race: Mapping[str, Any] | None, venue: str, season: str) -> list[Any]:
    """The points race drawn from the API's answer (the same numbers as the table), wide and
    narrow, as the embed draws it."""
    if not race or not race["players"] or not race["dates"]:
        return []
    drawn = Race(
        [date.fromisoformat(d) for d in race["dates"]],
        {p["player"]["id"]: p["points"] for p in race["players"]},
    )
    rows = [
        RaceRow(p["player"]["id"], p["player"]["display_name"], p["rank"], p["tied"]) for p in race["players"]
    ]
    labels = {p["player"]["id"]: p["player"]["label"] for p in race["players"]}
    return [race_chart(drawn, rows, venue, season, frame, labels) for frame in (WIDE, NARROW)]  # type: ignore[arg-type]


@blp.route("/seasons/<id:season_id>")
@cached_by(DATA_VERSION, why="every venue's schedule (no scope), standings and lists", by_host=True)
class SeasonPage(MethodView):
    @blp.doc(operationId="get_site_season", responses=HTML_PAGE)
    @answers(HTTPStatus.NOT_FOUND)
    def get(self, season_id: int) -> Response:
        """A season (R24): its venues, its qualifier lists where every skipped player says why in
        public words (R12-R14; personal reasons read "not eligible", R19), and the games still to
        play."""
        site_on()
        season = answer(f"/api/v1/seasons/{season_id}")
        lists = answer(f"/api/v1/seasons/{season_id}/qualifiers")
        venues = {v["id"]: v for v in every("/api/v1/venues")}
        today = league_today()
        ends = date.fromisoformat(season["ends_on"])
        upcoming = []
        if ends >= today:
            upcoming = answer(
                "/api/v1/games",
                {
                    "from": max(today, date.fromisoformat(season["starts_on"])).isoformat(),
                    "to": min(ends, weeks_later(today, 8)).isoformat(),
                },
            )["items"]
        names = {v["venue_id"]: v["venue_name"] for v in lists["venues"]}
        # R13: "too few nights: 3 of 6" needs how many the player played there (the standings').
        played: dict[tuple[int, int], int] = {}
        for listed in lists["venues"]:
            if any(s["reason"] == "too_few_events" for s in listed["skipped"]):
                table = answer(
                    f"/api/v1/seasons/{season_id}/venues/{listed['venue_id']}/standings", {"per_page": 500}
                )
                played |= {
                    (listed["venue_id"], row["player"]["id"]): row["played"] for row in table["standings"]
                }
        return page(
            "site/season.html",
            season["name"],
            f"{season['name']}: venues, qualifiers and the nights still to play.",
            season=season,
            lists=lists,
            venues=venues,
            covered=sorted(
                (v for v in venues.values() if covers(season, v) and v.get("active", True)),
                key=lambda v: v["name"].casefold(),
            ),
            venue_names=names,
            upcoming=[g for g in upcoming if g["season"] and g["season"]["id"] == season_id],
            reason_words=lambda venue_id, skipped: public_reason(
                skipped["reason"],
                names.get(skipped.get("venue_id") or 0),
                played.get((venue_id, skipped["player"]["id"])),
                season["min_events_to_qualify"],
            ),
        )


@blp.route("/results/<id:report_id>")
@cached_by(DATA_VERSION, why="a result's page: the report and its venue's schedule (no scope)", by_host=True)
class ResultPage(MethodView):
    @blp.doc(operationId="get_site_result", responses=HTML_PAGE)
    @answers(HTTPStatus.NOT_FOUND)
    def get(self, report_id: int) -> Response:
        """A night's result (R24): places, points, knockouts and bounties, who knocked out whom,
        each player linked."""
        site_on()
        report = answer(f"/api/v1/tournaments/{report_id}")
        venue = answer(f"/api/v1/venues/{report['venue_id']}")
        season = answer(f"/api/v1/seasons/{report['season_id']}")
        names = {r["player"]["id"]: r["player"]["label"] for r in report["results"]}
        when = settings().dates.day(date.fromisoformat(report["date"]))
        session_note = f" (session {report['session']})" if report["session"] > 1 else ""
        return page(
            "site/result.html",
            f"{venue['name']}, {when}{session_note}",
            f"The result of {venue['name']}'s night of {when}{session_note}: {report['entrants']} players.",
            report=report,
            venue=venue,
            season=season,
            names=names,
            status_words=STATUS_WORDS,
            knockouts_scored=season["knockout_points"] > 0 or season["bounty"] != "none",
            card=url_for("site.ResultCard", report_id=report_id, _external=True),
        )
