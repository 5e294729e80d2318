"""The league's own site (R24): every venue, season, night and player a link away from the front
page, on a phone, for anyone. Each page is the public view (R19: display names only) made from
the API's own answers (api/site/reads.py), cached like them, and says dates in the league's
format. The office turns it off (league setting `site.enabled`): / then shows the front door for
programs, and the other pages are 404s."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from flask import Response, abort, redirect, request, url_for
from flask.views import MethodView
from werkzeug.exceptions import NotFound as HttpNotFound

from api import db
from api.blueprint import Blueprint
from api.embed.chart import NARROW, WIDE, race_chart
from api.embed.theme import THEMES
from api.html import html_page
from api.site.charts import RaceRow, rating_chart
from api.site.reads import answer, every
from api.site.schemas import HeadToHeadPageQuery, RatingsPageQuery, SearchQuery, VenuePageQuery
from api.site.style import site_css
from api.site.words import PUBLIC_REASONS, STATUS_WORDS, ordinal, plural
from models.entities import LeagueSettings
from models.rules.race import Race
from models.services import wall_clock
from models.services.league_settings.writes import league_settings

blp = Blueprint(
    "site",
    __name__,
    template_folder="templates",
    description="The league's own site for its players (R24): pages, display names only (R19).",
)

HTML_PAGE = {200: {"description": "A page (HTML).", "content": {"text/html": {"schema": {"type": "string"}}}}}
# The rating table's first page on the front page, and a page of the ratings.
TOP_RATINGS, RATINGS_PAGE = 10, 100


@blp.app_template_filter("fromiso")
def from_iso(value: str | date | None) -> date | None:
    """An answer's ISO date as a date (the page says it in the league's words)."""
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(value)


def settings() -> LeagueSettings:
    return league_settings(db.session())


def site_on() -> LeagueSettings:
    """The league's settings, or a 404 when the office turned the site off."""
    found = settings()
    if not found.site_enabled:
        abort(404)
    return found


def page(template: str, title: str, description: str, **context: Any) -> Response:
    """A page of the site: its stylesheet in the league's accent, its title and description (and
    the same for link previews), its canonical address, and dates in the league's words."""
    found = settings()
    words = found.dates
    name = found.site_title or found.name
    canonical = request.base_url
    return html_page(
        template,
        site_css(found.site_accent),
        200,
        frame_ancestors="'none'",
        forms="'self'",
        site_name=name,
        title=title,
        description=description,
        canonical=canonical,
        day=words.day,
        ordinal=ordinal,
        plural=plural,
        **context,
    )


def _iso(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def _running(seasons: list[dict[str, Any]], today: date) -> list[dict[str, Any]]:
    return [s for s in seasons if _iso(s["starts_on"]) <= today <= _iso(s["ends_on"])]  # type: ignore[operator]


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
    today = _league_today()
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
        seasons=_running(seasons, today) or seasons[:3],
        ratings=ratings,
        today=today,
    )


@blp.route("/venues/<id:venue_id>")
class VenuePage(MethodView):
    @blp.doc(operationId="get_site_venue", responses=HTML_PAGE)
    @blp.arguments(VenuePageQuery, location="query")
    def get(self, args: dict[str, Any], venue_id: int) -> Response:
        """A venue (R24): its standings in the running season (or the season asked for), with
        the points race drawn from the same numbers; its regular nights and the next ones; a
        night being played now; its past seasons and nights, each linked."""
        site_on()
        venue = answer(f"/api/v1/venues/{venue_id}")
        seasons = [s for s in every("/api/v1/seasons") if _covers(s, venue)]
        games = answer("/api/v1/games", {"venue_id": venue_id})
        today = _league_today()
        chosen = _chosen_season(seasons, args.get("season"), today)
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
            calendar=url_for("calendars.VenueCalendar", venue_id=venue_id, _external=True),
            series_colours=THEMES["light"].series,
        )


WEEKDAYS = {
    1: "Mondays",
    2: "Tuesdays",
    3: "Wednesdays",
    4: "Thursdays",
    5: "Fridays",
    6: "Saturdays",
    7: "Sundays",
}


def _covers(season: Mapping[str, Any], venue: Mapping[str, Any]) -> bool:
    return not season["region_ids"] or venue["region_id"] in season["region_ids"]


def _chosen_season(seasons: list[dict[str, Any]], asked: int | None, today: date) -> dict[str, Any] | None:
    if asked is not None:
        found = next((s for s in seasons if s["id"] == asked), None)
        if found is None:
            raise HttpNotFound(f"Season {asked} does not cover this venue.")
        return found
    running = _running(seasons, today)
    if running:
        return running[0]
    started = [s for s in seasons if date.fromisoformat(s["starts_on"]) <= today]
    return max(started, key=lambda s: s["starts_on"], default=None)


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
class SeasonPage(MethodView):
    @blp.doc(operationId="get_site_season", responses=HTML_PAGE)
    def get(self, season_id: int) -> Response:
        """A season (R24): its venues, its qualifier lists where every skipped player says why in
        public words (R12-R14; personal reasons read "not eligible", R19), and the nights still to
        play."""
        site_on()
        season = answer(f"/api/v1/seasons/{season_id}")
        lists = answer(f"/api/v1/seasons/{season_id}/qualifiers")
        venues = {v["id"]: v for v in every("/api/v1/venues")}
        today = _league_today()
        ends = date.fromisoformat(season["ends_on"])
        upcoming = []
        if ends >= today:
            upcoming = answer(
                "/api/v1/games",
                {
                    "from": max(today, date.fromisoformat(season["starts_on"])).isoformat(),
                    "to": min(ends, _weeks_later(today, 8)).isoformat(),
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
            venue_names=names,
            upcoming=[g for g in upcoming if g["season"] and g["season"]["id"] == season_id],
            reason_words=lambda venue_id, skipped: _reason(
                skipped, names, season, played.get((venue_id, skipped["player"]["id"]))
            ),
        )


def _league_today() -> date:
    """Today on the league's wall clock (R2a)."""
    return wall_clock.in_league(db.session())


def _weeks_later(day: date, weeks: int) -> date:
    return day + timedelta(weeks=weeks)


def _reason(
    skipped: Mapping[str, Any], venue_names: Mapping[int, str], season: Mapping[str, Any], played: int | None
) -> str:
    """Why a player above the cut is not on the list, in public words (R13, R14, R19)."""
    reason = skipped["reason"]
    if reason == "qualified_elsewhere":
        elsewhere = skipped.get("venue_id")
        return f"qualified at {venue_names.get(elsewhere, 'another venue')}"
    if reason == "too_few_events":
        least = season["min_events_to_qualify"]
        return (
            f"too few nights: {played} of {least}"
            if played is not None
            else f"too few nights (at least {least})"
        )
    return PUBLIC_REASONS.get(reason, "not eligible")


@blp.route("/results/<id:report_id>")
class ResultPage(MethodView):
    @blp.doc(operationId="get_site_result", responses=HTML_PAGE)
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
        )


@blp.route("/players/<id:player_id>")
class PlayerPage(MethodView):
    @blp.doc(operationId="get_site_player", responses=HTML_PAGE)
    def get(self, player_id: int) -> Response:
        """A player (R24): results season by season, their standing at each venue against the cut,
        their rating and its history, knockouts made and suffered, their nemesis, and a
        head-to-head against anyone they met."""
        site_on()
        profile = answer(f"/api/v1/players/{player_id}")
        if profile.get("merged_into_id"):
            return redirect(url_for("site.PlayerPage", player_id=profile["merged_into_id"]), 301)  # type: ignore[return-value]
        history = answer(f"/api/v1/players/{player_id}/rating-history")
        met = answer(f"/api/v1/players/{player_id}/opponents")["opponents"]
        seasons = {s["id"]: s for s in every("/api/v1/seasons")}
        today = _league_today()
        standing = [_against_the_cut(profile["id"], entry, seasons, today) for entry in profile["seasons"]]
        made = sum(entry["knockouts"] for entry in profile["seasons"])
        suffered = sum(entry.get("knocked_out", 0) for entry in profile["seasons"])
        return page(
            "site/player.html",
            profile["display_name"],
            f"{profile['display_name']}'s results, standings and rating.",
            profile=profile,
            standing=standing,
            chart=rating_chart(history["points"]),
            history=history,
            opponents=met,
            made=made,
            suffered=suffered,
            seasons=seasons,
            status_words=STATUS_WORDS,
        )


def _against_the_cut(
    player_id: int, entry: Mapping[str, Any], seasons: Mapping[int, Any], today: date
) -> dict[str, Any]:
    """Where the player stands at a venue in a season against its cut (R12): "12th, 18 points
    behind the cut with 3 nights left", or "2nd: in the cut", from the venue's own qualifier list
    and its games still to play."""
    season = seasons.get(entry["season_id"])
    place = f"{ordinal(entry['rank'])}{' (tied)' if entry.get('tied') else ''}"
    if season is None:
        return {"entry": entry, "words": place}
    listed = answer(f"/api/v1/seasons/{entry['season_id']}/venues/{entry['venue_id']}/qualifiers")
    ends = date.fromisoformat(season["ends_on"])
    running = date.fromisoformat(season["starts_on"]) <= today <= ends
    nights_left = ""
    if running:
        games = answer(
            "/api/v1/games",
            {"venue_id": entry["venue_id"], "from": today.isoformat(), "to": ends.isoformat()},
        )["items"]
        left = sum(g["sessions"] for g in games if not g["reported"] and not g["cancelled"])
        nights_left = f" with {plural(left, 'night')} left"
    if any(q["player"]["id"] == player_id for q in listed["qualifiers"]):
        return {"entry": entry, "words": f"{place}: in the cut{nights_left}"}
    cut_points = min((q["points"] for q in listed["qualifiers"]), default=None)
    if cut_points is None:
        return {"entry": entry, "words": place}
    behind = cut_points - entry["points"]
    if behind > 0:
        return {"entry": entry, "words": f"{place}, {plural(behind, 'point')} behind the cut{nights_left}"}
    return {"entry": entry, "words": f"{place}, level on points with the cut{nights_left}"}


@blp.route("/players/<id:player_id>/against")
class HeadToHeadPage(MethodView):
    @blp.doc(operationId="get_site_head_to_head", responses=HTML_PAGE)
    @blp.arguments(HeadToHeadPageQuery, location="query")
    def get(self, args: dict[str, Any], player_id: int) -> Response:
        """Two players against each other (R24, R8a): every tournament both played, who finished
        higher, who knocked whom out. The other player is chosen from the list of those met."""
        site_on()
        found = answer(f"/api/v1/players/{player_id}/head-to-head", {"other": args["other"], "per_page": 100})
        met = answer(f"/api/v1/players/{player_id}/opponents")["opponents"]
        me, other = found["player"]["label"], found["other"]["label"]
        return page(
            "site/head_to_head.html",
            f"{me} against {other}",
            f"{me} and {other}: {plural(found['tournaments'], 'tournament')} both played.",
            found=found,
            opponents=met,
        )


@blp.route("/ratings")
class RatingsPage(MethodView):
    @blp.doc(operationId="get_site_ratings", responses=HTML_PAGE)
    @blp.arguments(RatingsPageQuery, location="query")
    def get(self, args: dict[str, Any]) -> Response:
        """The rating table (R20, R24), league-wide or by region, with what a rating means."""
        site_on()
        region_id = args.get("region")
        table = answer(
            "/api/v1/ratings", {"region_id": region_id, "page": args["page"], "per_page": RATINGS_PAGE}
        )
        regions = every("/api/v1/regions")
        region = next((r for r in regions if r["id"] == region_id), None)
        if region_id is not None and region is None:
            raise HttpNotFound(f"There is no region {region_id}.")
        where = f" in {region['name']}" if region else ""
        return page(
            "site/ratings.html",
            f"Ratings{where}",
            f"The league's skill ratings{where}: who plays best, whatever the venue.",
            table=table,
            regions=regions,
            region=region,
            page_number=args["page"],
        )


@blp.route("/search")
class SearchPage(MethodView):
    @blp.doc(operationId="get_site_search", responses=HTML_PAGE)
    @blp.arguments(SearchQuery, location="query")
    def get(self, args: dict[str, Any]) -> Response:
        """Find a player by display name (R24, R19: display names only)."""
        site_on()
        words = args.get("q", "").strip()
        found = answer("/api/v1/players", {"q": words, "per_page": 50})["items"] if words else []
        return page(
            "site/search.html",
            f"Players: {words}" if words else "Find a player",
            "Find a player of the league by the name they play under.",
            words=words,
            found=found,
        )
