"""The embeddable pages' query options."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.embed.theme import MOST_SERIES, THEMES
from api.fields import QueryId, QueryInt

MOST_ROWS = 500
HTML_ANSWER = {
    200: {
        "description": "A self-contained HTML page (no scripts, fonts or other requests) that any "
        "site the league allows may frame in an iframe.",
        "content": {"text/html": {"schema": {"type": "string"}}},
    }
}


LIVE_ANSWER = {
    200: {
        "description": "A self-contained HTML page that any site the league allows may frame; its "
        "one inline script (allowed by hash) counts the clock down and asks for the page again.",
        "content": {"text/html": {"schema": {"type": "string"}}},
    }
}


class Themed(Schema):
    theme = fields.String(
        load_default="light",
        validate=validate.OneOf(sorted(THEMES)),
        metadata={"description": "Colours: light (the default) or dark. Print is always light."},
    )


class StandingsPageQuery(Themed):
    rows = QueryInt(
        load_default=20,
        validate=validate.Range(min=1, max=MOST_ROWS),
        metadata={"description": f"How many standings rows to show, the leaders first (1-{MOST_ROWS})."},
    )
    players = QueryInt(
        load_default=5,
        validate=validate.Range(min=0, max=MOST_SERIES),
        metadata={
            "description": f"How many leading players the points race charts (0-{MOST_SERIES}; 0: no chart)."
        },
    )


class QualifiersPageQuery(Themed):
    pass


MOST_RATED = 100


class RatingsPageQuery(Themed):
    rows = QueryInt(
        load_default=20,
        validate=validate.Range(min=1, max=MOST_RATED),
        metadata={"description": f"How many players to show, the best first (1-{MOST_RATED}; default 20)."},
    )
    region_id = QueryId(
        metadata={
            "description": "Only players with a rated result at a venue of this region, as the API's "
            "`GET /api/v1/ratings?region_id=` (an unknown region: 422)."
        }
    )
