"""GET /: the front door. A browser (one that asks for HTML) gets a small page linking the docs,
the console, the embeddable pages and the health check; an API client gets the same links as
JSON. Both say the league's name (the league setting `name`). GET /api/v1 (or /api/v1/): the
API's index, its docs, spec and main collections, as JSON."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from flask import Response, json, request
from flask.views import MethodView
from sqlalchemy.orm import Session
from werkzeug.exceptions import NotAcceptable

from api import db
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import answers
from api.embed.theme import stylesheet
from api.front_door.schemas import (
    API_LINKS,
    EMBED_GAMES,
    EMBED_NIGHT,
    EMBED_QUALIFIERS,
    EMBED_STANDINGS,
    FRONT_DOOR_ANSWER,
    LINKS,
    ApiIndexOut,
)
from api.html import html_page
from api.nights.routes import the_open_nights
from api.site.routes import front_page
from models.freshness.tables import NIGHT_TABLES
from models.services.demo.queries import demo_example, demo_night_venue
from models.services.lookup import league_settings

blp = Blueprint(
    "front_door", __name__, template_folder="templates", description="The front door: where everything is."
)

OFFERED = ["application/json", "text/html"]


def wanted() -> str:
    """What the caller asked for: HTML (a browser), or JSON (an API client; no Accept: JSON); a
    406 when it takes neither."""
    if "Accept" not in request.headers:
        return "application/json"
    kind = request.accept_mimetypes.best_match(OFFERED)
    if kind is None:
        raise NotAcceptable("This answers application/json or text/html: send Accept naming one.")
    return str(kind)


def _demo_examples(session: Session) -> dict[str, str]:
    """The embeddable pages of the demo, when there is one: links to try."""
    demo = demo_example(session)
    if demo is None:
        return {}
    return {
        "standings": EMBED_STANDINGS.format(season_id=demo.season_id, venue_id=demo.venue_id),
        "qualifiers": EMBED_QUALIFIERS.format(season_id=demo.season_id, region_id=demo.region_id),
        "games": EMBED_GAMES.format(region_id=demo.region_id),
        # The league's table leaves the demo's players out: the demo's region shows them.
        "ratings": f"/embed/ratings?region_id={demo.region_id}",
        **({"night": EMBED_NIGHT.format(venue_id=night)} if (night := demo_night_venue(session)) else {}),
    }


@blp.route("/")
# The site's front page names its own address, and the nights being played now (R22, R24).
@cached_by(
    DATA_VERSION,
    why="tonight's games, from the schedules (no scope covers them)",
    by_host=True,
    also=the_open_nights,
    also_covers=NIGHT_TABLES,
)
class FrontDoorViews(MethodView):
    @blp.doc(operationId="get_front_door", responses=FRONT_DOOR_ANSWER)
    @answers(HTTPStatus.NOT_ACCEPTABLE)
    def get(self) -> Response:
        """The league's site for people, or where everything is for programs (R24)

        A browser (asking for HTML) gets the league's own site's front page: where to play this
        week, the nights being played now, the venues by region, the running seasons, the top of
        the rating table and a player search; with the site turned off (league setting
        `site.enabled`), the front door: the docs, the spec, the console, the health check. An API
        client (JSON) always gets the front door's links.
        """
        kind = wanted()
        session = db.session()
        settings = league_settings(session)
        name = settings.name
        if kind == "text/html" and settings.site_enabled:
            response = front_page()  # R24: the league's own site, for people
        elif kind == "text/html":
            response = html_page(
                "front_door/index.html",
                stylesheet("light"),
                200,
                frame_ancestors="'none'",
                theme="light",
                name=name,
                links=LINKS,
                examples=_demo_examples(session),
            )
        else:
            body = {"name": name, "links": LINKS}
            response = Response(json.dumps(body), mimetype="application/json")
        response.vary.add("Accept")
        return response


# Declared without the trailing slash (a path ends with none in the spec), served with one too:
# `/api/v1/` is the path a person types, and the front door's link.
@blp.route("/api/v1", strict_slashes=False)
@cached_by(DATA_VERSION, why="the API's index: links and the league's name, asked rarely")
class ApiIndexViews(MethodView):
    @blp.doc(operationId="get_api_index")
    @blp.response(200, ApiIndexOut)
    def get(self) -> dict[str, Any]:
        """The API's index: its documentation, its spec and its main collections

        Every path of the API begins with `/api/v1/`; this answers where to go from there, as
        the front door (`GET /`) does for the whole service.
        """
        return {"name": league_settings(db.session()).name, "links": API_LINKS}
