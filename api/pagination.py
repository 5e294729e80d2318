"""Lists take page and per_page (default 50, max 500) and say the total in the body."""

from __future__ import annotations

from typing import Any

from flask import g
from marshmallow import Schema, fields, validate
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from api.fields import QueryInt

MAX_PER_PAGE = 500


class PageArgs(Schema):
    page = QueryInt(load_default=1, validate=validate.Range(min=1, max=10**6))
    per_page = QueryInt(load_default=50, validate=validate.Range(min=1, max=MAX_PER_PAGE))


def page_schema(item: type[Schema], name: str) -> type[Schema]:
    """A list answer: items of one page, and the total count across pages."""
    return Schema.from_dict(
        {
            "items": fields.List(fields.Nested(item)),
            "total": fields.Integer(),
            "page": fields.Integer(),
            "per_page": fields.Integer(),
            "pages": fields.Integer(),
        },
        name=name,
    )


def paginate(
    session: Session, query: Select[Any], args: dict[str, Any], scalars: bool = True
) -> dict[str, Any]:
    page, per_page = args["page"], args["per_page"]
    total = session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0
    page_query = query.limit(per_page).offset((page - 1) * per_page)
    result = session.scalars(page_query) if scalars else session.execute(page_query)
    g.pagination_total = total
    return {
        "items": list(result),
        "total": total,
        "page": page,
        "per_page": per_page,
        "pages": (total + per_page - 1) // per_page,
    }
