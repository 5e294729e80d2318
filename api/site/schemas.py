"""The site's query strings (R24): read strictly, as the API's are (an unknown name is a 400)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import QueryId, QueryInt, QueryText


class VenuePageQuery(Schema):
    season = QueryId(metadata={"description": "Another season of the venue's (default: the running one)."})


class HeadToHeadPageQuery(Schema):
    other = QueryId(required=True, metadata={"description": "The other player's number."})


class RatingsPageQuery(Schema):
    region = QueryId(metadata={"description": "Only the players rated in this region's tournaments."})
    page = QueryInt(load_default=1, validate=validate.Range(min=1, max=10_000))


class SearchQuery(Schema):
    q = QueryText(max_length=100, metadata={"description": "Words of a display name."})


class EmptyQuery(Schema):
    """A page that takes no query."""


__all__ = ["EmptyQuery", "HeadToHeadPageQuery", "RatingsPageQuery", "SearchQuery", "VenuePageQuery", "fields"]
