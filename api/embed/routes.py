"""Pages for other websites: a venue's standings with its points race, a region's playoff
qualifiers, a region's games of the week and the league's skill ratings, as self-contained HTML
that any site the league allows may frame. They show what the public sees (display names and
points only, R19; two players who share a display name shown with their player numbers,
"Crystal K. #48"), and are cached like the API's answers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from flask import Response, url_for
from flask.views import MethodView

from api import db
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, a_nights_venue, a_season, a_venue, cached_by
from api.embed.chart import NARROW, WIDE, race_chart, rank_label
from api.embed.live import LIVE_SCRIPT
from api.embed.schemas import (
    HTML_ANSWER,
    LIVE_ANSWER,
    QualifiersPageQuery,
    RatingsPageQuery,
    StandingsPageQuery,
    Themed,
)
from api.embed.sparkline import sparkline
from api.html import framed_page
from api.people_dates import people_date, words
from api.schemas import with_labels
from models.actor import PUBLIC
from models.entities import Night, Region, Season
from models.errors import NotFound
from models.freshness.scopes import Scope
from models.freshness.tables import NIGHT_TABLES
from models.rules.qualifiers import Flag, public_reason
from models.rules.schedules import days
from models.services import wall_clock
from models.services.games.queries import region_week
from models.services.lookup import get_or_raise
from models.services.nights.projection import projected_standings
from models.services.nights.queries import night_version, night_view, venue_night
from models.services.qualifiers.queries import qualification_seen_by, season_qualification
from models.services.ratings.queries import histories, rating_table
from models.services.standings.queries import points_race, standings_of

blp = Blueprint(
    "embed",
    __name__,
    url_prefix="/embed",
    template_folder="templates",
    description="Pages for other websites to frame: HTML, no personal data (R19).",
)

# The live page shows the top of the standings if the night ended now: a TV fits about ten rows.
PROJECTED_ROWS = 10

# What a qualifier list's flags say, in words (the public's lists: no age_unverified, R13, R19).
FLAG_LABELS = {
    Flag.TIE_AT_CUT: "Level at the cut",
    Flag.TIE_SETTLED: "Tie settled by draw",
}


@blp.route("/seasons/<id:season_id>/venues/<id:venue_id>/standings")
@cached_by(a_venue)
class StandingsPage(MethodView):
    @blp.doc(operationId="get_standings_page", responses=HTML_ANSWER)
    @blp.arguments(StandingsPageQuery, location="query")
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> Response:
        """A venue's standings and points race, as a page to frame (R11)

        The standings table (rank, T for a tie, display name, points, played, wins) and a chart
        of the leaders' standings points after each tournament, drawn as inline SVG, with its
        figures as a table and in words. Two players of the table who share a display name are
        shown with their player numbers, in the table and the chart ("Crystal K. #48", R19).
        Paste `<iframe src="…" title="Standings"></iframe>`.
        """
        session = db.session()
        table = standings_of(session, season_id, venue_id)
        charted = table.rows[: args["players"]]
        charts = []
        said = words()  # R24: the chart's dates as the league says them
        if charted:
            race = points_race(session, table, [row.player_id for row in charted])
            # Drawn twice: wide, and narrow for phones (the page shows one, by its width).
            charts = [
                race_chart(race, charted, table.venue.name, table.season.name, frame, table.labels, said)
                for frame in (WIDE, NARROW)
            ]
        return framed_page(
            "embed/standings.html",
            args["theme"],
            table=table,
            rows=table.rows[: args["rows"]],
            labels=table.labels,
            charts=charts,
            rank_label=rank_label,
        )


@blp.route("/seasons/<id:season_id>/regions/<id:region_id>/qualifiers")
@cached_by(a_season)
class QualifiersPage(MethodView):
    @blp.doc(operationId="get_qualifiers_page", responses=HTML_ANSWER)
    @blp.arguments(QualifiersPageQuery, location="query")
    def get(self, args: dict[str, Any], season_id: int, region_id: int) -> Response:
        """A region's playoff qualifiers, venue by venue, as a page to frame (R12-R14)

        Each venue's qualifiers in playoff order with their flags, and whether the lists are
        provisional (the season runs), final but not yet published, or published. Two players
        of the page who share a display name are shown with their player numbers (R19).
        """
        session = db.session()
        season = get_or_raise(session, Season, season_id, "season")
        region = get_or_raise(session, Region, region_id, "region")
        if not season.covers_region(region.id):
            raise NotFound(f"Season {season.id} does not cover region {region.id}.")
        found = qualification_seen_by(PUBLIC, season_qualification(session, season, changes=False))
        venues = sorted(
            (venue for venue in found.lists if venue["region_id"] == region.id),
            key=lambda venue: (venue["venue_name"].casefold(), venue["venue_id"]),
        )
        if found.publication is not None:
            status = "Published"
            note = f"on {people_date(found.publication.published_at)}."
            if found.publication.note:
                note += f" {found.publication.note}"
        elif found.provisional:
            status = "Provisional:"
            note = f"the season runs to {people_date(season.ends_on)}, and the lists change with its results."
        else:
            status = "Final, not yet published:"
            note = "the league office publishes the lists after the season."
        names = {venue["venue_id"]: venue["venue_name"] for venue in found.lists}
        played = {
            (venue["venue_id"], row.player_id): row.played
            for venue in venues
            if any(s["reason"] == "too_few_events" for s in venue["skipped"])
            for row in standings_of(session, season.id, venue["venue_id"]).rows
        }
        return framed_page(
            "embed/qualifiers.html",
            args["theme"],
            season=season,
            region=region,
            venues=with_labels(venues),
            list_status=status,
            status_note=note,
            flag_labels=FLAG_LABELS,
            # R13, R14, R19: why each player above the cut is not on a list, in public words.
            reason_words=lambda venue_id, skipped: public_reason(
                str(skipped["reason"]),
                names.get(skipped.get("venue_id") or 0),
                played.get((venue_id, skipped["player"]["id"])),
                season.min_events_to_qualify,
            ),
        )


def subscription(url: str) -> str:
    """A feed's absolute URL as a calendar app subscribes to it: webcal://host/… (werkzeug builds
    only http and https URLs)."""
    return urlsplit(url)._replace(scheme="webcal").geturl()


@blp.route("/regions/<id:region_id>/games")
@cached_by(
    DATA_VERSION,
    why="the schedules' games (no scope covers schedules) and their reports",
    by_host=True,
)
class GamesPage(MethodView):
    @blp.doc(operationId="get_games_page", responses=HTML_ANSWER)
    @blp.arguments(Themed, location="query")
    def get(self, args: dict[str, Any], region_id: int) -> Response:
        """A region's games of this week, by day, as a page to frame (R2a)

        Each night's venue, city and local start (with its zone where it differs from the
        league's), cancelled and moved nights marked, a link to the venue's standings page, and an
        "add to calendar" link that subscribes to the region's calendar feed (`webcal://` on the
        host the page was asked of). Its links open outside the frame (the framing site stays).
        """
        session = db.session()
        region, first, last, games = region_week(session, region_id)
        by_day = [(day, [g for g in games if g.scheduled.date == day]) for day in days(first, last)]
        return framed_page(
            "embed/games.html",
            args["theme"],
            region=region,
            first=first,
            last=last,
            by_day=by_day,
            league_zone=wall_clock.league_zone(session),
            # A subscription (webcal: a calendar app follows the feed), on this host: the cache
            # keys this page by its host too (`@cached_by(..., by_host=True)`).
            calendar=subscription(url_for("calendars.RegionCalendar", region_id=region.id, _external=True)),
        )


@blp.route("/ratings")
@cached_by(DATA_VERSION, why="ratings: no scope covers player_ratings or rating_points")
class RatingsPage(MethodView):
    @blp.doc(operationId="get_ratings_page", responses=HTML_ANSWER)
    @blp.arguments(RatingsPageQuery, location="query")
    def get(self, args: dict[str, Any]) -> Response:
        """The league's skill ratings, as a page to frame (R20)

        The top of the rating table (20 unless told: rank, T for a tie, display name, P for a
        provisional player, rating, rated tournaments) with a sparkline of each player's rating
        after every rated tournament, drawn as inline SVG (described in words for screen
        readers); `region_id` keeps the players with a rated result in that region, as the API's
        table does. Two players of the page who share a display name are shown with their player
        numbers (R19). Paste `<iframe src="…" title="Skill ratings"></iframe>`.
        """
        session = db.session()
        region_id = args.get("region_id")
        table = rating_table(session, region_id)
        region = None if region_id is None else session.get(Region, region_id)
        rows = table[: args["rows"]]
        ids = [row.player.id for row in rows]
        labelled = with_labels(
            [{"id": row.player.id, "display_name": row.player.display_name} for row in rows]
        )
        drawn = histories(session, ids)
        return framed_page(
            "embed/ratings.html",
            args["theme"],
            rows=rows,
            total=len(table),
            region=region,
            labels={player["id"]: player["label"] for player in labelled},
            lines={player: sparkline(points) for player, points in drawn.items()},
        )


def _tonight(session: Any, venue_id: int) -> Night | None:
    """The venue's night (`venue_night`), or None: read once a request (the answer's key and the
    page read it), kept in the request's session."""
    key = ("venue night", venue_id)
    if key not in session.info:
        try:
            session.info[key] = venue_night(session, venue_id)
        except NotFound:
            session.info[key] = None
    night: Night | None = session.info[key]
    return night


def the_venue_nights_standings(
    view: Mapping[str, Any], _args: Mapping[str, str], session: Any
) -> Sequence[str]:
    """R22: the live page reads the standings of its night's venue (`a_nights_venue`), and the
    venue's nights (`night:V`: every action of its night moves it, and the refresher with it)."""
    return (*a_nights_venue(_tonight(session, view["venue_id"])), Scope.night(view["venue_id"]))


def a_venue_night(view: Mapping[str, Any], _args: Mapping[str, str], session: Any) -> list[str]:
    """R22: the live page moves with the venue's night: which night, its sequence and clock."""
    night = _tonight(session, view["venue_id"])
    return ["none"] if night is None else [str(night.id), *night_version(session, night.id)]


def minutes(seconds: int | None) -> str:
    """Seconds as a clock shows them: 19:05."""
    return "" if seconds is None else f"{seconds // 60}:{seconds % 60:02d}"


@blp.route("/venues/<id:venue_id>/night")
@cached_by(the_venue_nights_standings, also=a_venue_night, also_covers=NIGHT_TABLES)
class NightPage(MethodView):
    @blp.doc(operationId="get_night_page", responses=LIVE_ANSWER)
    @blp.arguments(Themed, location="query")
    def get(self, args: dict[str, Any], venue_id: int) -> Response:
        """Tonight's game at a venue, for its TV and players' phones (R22)

        The level and blinds, the time left (counted down from the server's time), the next
        level, players left of entrants, the average stack and the places so far, by display
        name (R19); until the clock starts, the seat draw (players look for their seat there);
        what re-entry tonight allows. It asks for itself again every few seconds (a 304 while
        nothing changed), so a TV left on it follows the night, the host's moves of the clock
        too. Today's night at the venue, else its last one.
        """
        session = db.session()
        night = _tonight(session, venue_id) or venue_night(session, venue_id)  # None: its 404
        view = night_view(session, night.id)
        projection = projected_standings(session, view.night)
        return framed_page(
            "embed/night.html",
            args["theme"],
            view=view,
            projection=projection,
            leading=projection.rows[:PROJECTED_ROWS],
            left=view.clock.seconds_left,
            minutes=minutes,
            script=LIVE_SCRIPT,
        )
