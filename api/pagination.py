"""Lists take page and per_page (default 50, max 500) and say the total in the body."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from api.fields import QueryInt
from api.schemas import Answer, TellsPlayersApart
from models.services.paging import PageRequest

MAX_PER_PAGE = 500


class PageArgs(Schema):
    page = QueryInt(load_default=1, validate=validate.Range(min=1, max=10**6))
    per_page = QueryInt(load_default=50, validate=validate.Range(min=1, max=MAX_PER_PAGE))


def page_request(args: dict[str, Any]) -> PageRequest:
    """The page asked for; the caller's other arguments (its filters) are left in `args`."""
    return PageRequest(args.pop("page"), args.pop("per_page"))


def page_schema(item: type[Schema], name: str, players: bool = False) -> type[Schema]:
    """A list answer: items of one page, and the total count across pages. `players`: its items
    name players, labelled together over the page (R19: `TellsPlayersApart`)."""
    base = TellsPlayersApart if players else Answer
    return base.from_dict(
        {
            "items": fields.List(fields.Nested(item)),
            "total": fields.Integer(),
            "page": fields.Integer(),
            "per_page": fields.Integer(),
            "pages": fields.Integer(),
        },
        name=name,
    )
