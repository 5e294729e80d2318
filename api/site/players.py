"""The site's pages about players (R24): a player, a head-to-head, the ratings and the search."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from http import HTTPStatus
from typing import Any

from flask import Response, redirect, url_for
from flask.views import MethodView
from werkzeug.exceptions import NotFound as HttpNotFound

from api.cache.views import DATA_VERSION, cached_by
from api.contract import answers
from api.site.charts import rating_chart
from api.site.pages import HTML_PAGE, RATINGS_PAGE, blp, league_today, page, site_on
from api.site.reads import answer, every
from api.site.schemas import HeadToHeadPageQuery, RatingsPageQuery, SearchQuery
from api.site.words import STATUS_WORDS, ordinal, plural


@blp.route("/players/<id:player_id>")
@cached_by(
    DATA_VERSION,
    why="every season a player played, and ratings (no scope covers them)",
    by_host=True,
)
class PlayerPage(MethodView):
    @blp.doc(
        operationId="get_site_player",
        responses={
            **HTML_PAGE,
            301: {"description": "A record merged away: its survivor's page (R17), in Location."},
        },
    )
    @answers(HTTPStatus.NOT_FOUND)
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
        today = league_today()
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
@cached_by(DATA_VERSION, why="results across every season and venue", by_host=True)
class HeadToHeadPage(MethodView):
    @blp.doc(operationId="get_site_head_to_head", responses=HTML_PAGE)
    @answers(HTTPStatus.NOT_FOUND)
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
@cached_by(DATA_VERSION, why="ratings: no scope covers player_ratings or rating_points", by_host=True)
class RatingsPage(MethodView):
    @blp.doc(operationId="get_site_ratings", responses=HTML_PAGE)
    @answers(HTTPStatus.NOT_FOUND)
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
@cached_by(
    DATA_VERSION, why="players across every season and venue: a new player moves no scope", by_host=True
)
class SearchPage(MethodView):
    @blp.doc(operationId="get_site_search", responses=HTML_PAGE)
    @answers(HTTPStatus.NOT_FOUND)
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
