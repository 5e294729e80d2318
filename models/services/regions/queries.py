"""Looking up regions (R1)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.league import Region
from models.services.paging import Page, PageRequest, paginate


def list_regions(session: Session, page: PageRequest) -> Page[Region]:
    return paginate(session, select(Region).order_by(Region.name), page)
