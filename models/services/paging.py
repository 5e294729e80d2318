"""A page of a list, with the total across pages (every list says its total)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

T = TypeVar("T")


@dataclass(frozen=True)
class PageRequest:
    page: int = 1
    per_page: int = 50


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    total: int
    page: int
    per_page: int

    @property
    def pages(self) -> int:
        return (self.total + self.per_page - 1) // self.per_page


def paginate(session: Session, query: Select[Any], request: PageRequest, rows: bool = False) -> Page[Any]:
    """One page of a query's entities (its rows, with `rows`), and how many there are in all."""
    total = session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0
    limited = query.limit(request.per_page).offset((request.page - 1) * request.per_page)
    items = session.execute(limited).all() if rows else session.scalars(limited).all()
    return Page(list(items), total, request.page, request.per_page)


def page_of(items: Sequence[T], request: PageRequest) -> Page[T]:
    """One page of a list already whole in memory (a ranked table: its rows keep the ranks of the
    whole), and how many there are in all."""
    start = (request.page - 1) * request.per_page
    return Page(list(items[start : start + request.per_page]), len(items), request.page, request.per_page)
