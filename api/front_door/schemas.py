"""Schemas of the front door and the API's index: the shape of what goes out."""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from api.schemas import Answer

# The embeddable pages (docs/website.md "Pages for other websites"), as URI templates (RFC 6570): the
# first three need a season and a venue, or a region; the ratings take a region if wanted; the
# night, a venue.
EMBED_STANDINGS = "/embed/seasons/{season_id}/venues/{venue_id}/standings"
EMBED_QUALIFIERS = "/embed/seasons/{season_id}/regions/{region_id}/qualifiers"
EMBED_GAMES = "/embed/regions/{region_id}/games"
EMBED_RATINGS = "/embed/ratings{?region_id}"
EMBED_NIGHT = "/embed/venues/{venue_id}/night"
LINKS = {
    "docs": "/docs",
    "openapi": "/openapi.json",
    "console": "/console/",
    "health": "/health",
    "api": "/api/v1/",
    "embed_standings": EMBED_STANDINGS,
    "embed_qualifiers": EMBED_QUALIFIERS,
    "embed_games": EMBED_GAMES,
    "embed_ratings": EMBED_RATINGS,
    "embed_night": EMBED_NIGHT,
}

API_ROOT = "/api/v1"
# GET /api/v1/: the docs, the spec and the API's main collections (each a path under API_ROOT).
COLLECTIONS = {
    "regions": "Regions, each with its venues (R1).",
    "venues": "Venues: where the games are played, each its own league (R1).",
    "seasons": "Seasons (R2), with each venue's standings and qualifiers under them.",
    "points_charts": "The points charts seasons score by (R7).",
    "players": "Players (R5, R19): search, register, merge (R17).",
    "tournaments": "Reports of tournaments (R3-R8): post, correct, void.",
    "games": "The league's games by week, from the venues' schedules (R2a).",
    "ratings": "The league's skill ratings table (R20).",
    "sanctions": "Warnings, suspensions and venue bans (R15, R16).",
    "player_merges": "Merges of duplicate players, and their undoing (R17).",
    "league_settings": "The league's settings: name, time zone, rules' settings.",
    "api_keys": "API keys for hosts and the office (the office only).",
    "audit_log": "Who changed what (R18; the office only).",
}
API_LINKS = {
    "docs": "/docs",
    "openapi": "/openapi.json",
    **{name: f"{API_ROOT}/{name.replace('_', '-')}" for name in COLLECTIONS},
}


class FrontDoorLinks(Answer):
    docs = fields.String(metadata={"description": "The API's documentation (a page)."})
    openapi = fields.String(metadata={"description": "The OpenAPI document of the API."})
    console = fields.String(metadata={"description": "The web console for hosts and the office."})
    health = fields.String(metadata={"description": "The health check."})
    api = fields.String(metadata={"description": "Where every path of the API begins (its index)."})
    embed_standings = fields.String(
        metadata={"description": "A venue's standings page, to frame: a URI template (RFC 6570)."}
    )
    embed_qualifiers = fields.String(
        metadata={"description": "A region's qualifiers page, to frame: a URI template (RFC 6570)."}
    )
    embed_games = fields.String(
        metadata={"description": "A region's games of the week, to frame: a URI template (RFC 6570)."}
    )
    embed_ratings = fields.String(
        metadata={
            "description": "The skill ratings page (R20), to frame, of the league or of a region: a URI "
            "template (RFC 6570)."
        }
    )

    embed_night = fields.String(
        metadata={
            "description": "A venue's night as it happens (R22), for its TV: a URI template (RFC 6570)."
        }
    )


class FrontDoorOut(Answer):
    name = fields.String(metadata={"description": "The league's name (the league setting `name`)."})
    links = fields.Nested(FrontDoorLinks)


FRONT_DOOR_ANSWER: dict[int, Any] = {
    200: {
        "description": "Links to the docs, the spec, the console, the health check, the API and the "
        "embeddable pages: JSON to an API client (`Accept: application/json`, `*/*` or none), a "
        "small page (no script) to a browser (`Accept: text/html`).",
        "content": {
            "application/json": {"schema": FrontDoorOut},
            "text/html": {"schema": {"type": "string"}},
        },
    }
}


ApiLinks = Answer.from_dict(
    {
        "docs": fields.String(metadata={"description": "The API's documentation (a page)."}),
        "openapi": fields.String(metadata={"description": "The OpenAPI document of the API."}),
        **{
            name: fields.String(metadata={"description": f"{words} A path of the API."})
            for name, words in COLLECTIONS.items()
        },
    },
    name="ApiLinks",
)


class ApiIndexOut(Answer):
    """The API's index: where its documentation, its spec and its main collections are."""

    name = fields.String(metadata={"description": "The league's name (the league setting `name`)."})
    links = fields.Nested(ApiLinks)
