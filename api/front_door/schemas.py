"""Schemas of the front door: the shape of what goes out."""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from api.schemas import Answer

# The embeddable pages: each needs a season and a venue or region (README "Pages for other websites").
EMBED_STANDINGS = "/embed/seasons/{season_id}/venues/{venue_id}/standings"
EMBED_QUALIFIERS = "/embed/seasons/{season_id}/regions/{region_id}/qualifiers"
LINKS = {
    "docs": "/docs",
    "openapi": "/openapi.json",
    "console": "/console/",
    "health": "/health",
    "api": "/api/v1/",
    "embed_standings": EMBED_STANDINGS,
    "embed_qualifiers": EMBED_QUALIFIERS,
}


class FrontDoorLinks(Answer):
    docs = fields.String(metadata={"description": "The API's documentation (a page)."})
    openapi = fields.String(metadata={"description": "The OpenAPI document of the API."})
    console = fields.String(metadata={"description": "The web console for hosts and the office."})
    health = fields.String(metadata={"description": "The health check."})
    api = fields.String(metadata={"description": "Where every path of the API begins."})
    embed_standings = fields.String(
        metadata={"description": "A venue's standings page, to frame: a URI template (RFC 6570)."}
    )
    embed_qualifiers = fields.String(
        metadata={"description": "A region's qualifiers page, to frame: a URI template (RFC 6570)."}
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
