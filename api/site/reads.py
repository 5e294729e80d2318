"""The site's pages are made from the API's own answers (R24: never a second computation): each
page asks the service for the answers it shows, as the public website does (no key: display
names only, R19), so they come from the same cache every other reader uses and are computed
once for all of them. The page itself is cached by what those answers read (the league's data
version), so a warm page costs one look in the store."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app, request

from models.errors import InvalidInput, NotFound, Problem

# Marks the site's own requests to the API (in-process only: no HTTP request can set it). They
# are exempt from the rate limits: the page that asked for them was counted.
SITE_FLAG = "league.site"


class Unanswered(Exception):
    """The API did not answer what a page needs (a refusal other than a 404)."""


def answer(path: str, query: Mapping[str, Any] | None = None) -> Any:
    """The public JSON answer of the API at `path`; a 404 there is this page's 404."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    given = {k: str(v) for k, v in (query or {}).items() if v is not None}
    # An application context of its own, as a served request has: the page's `g` (its session,
    # its cache key) is not the answer's.
    with app.app_context():
        response = app.test_client().get(
            path,
            query_string=given,
            headers={"Accept": "application/json"},
            base_url=request.host_url,
            environ_overrides={SITE_FLAG: True, "REMOTE_ADDR": request.remote_addr or "127.0.0.1"},
        )
    said = response.get_json(silent=True) or {}
    if response.status_code == 404:
        raise NotFound(str(said.get("detail", "Not found.")))
    if response.status_code in (400, 422):
        # What the page was asked for is refused (a head-to-head of a player with themself): the
        # API's refusal is the page's, its fields as the page's query names them.
        problems = [
            Problem(path, text) for path, texts in (said.get("errors") or {}).items() for text in texts
        ]
        raise InvalidInput(str(said.get("title", "Refused")), problems=problems)
    if response.status_code != 200:
        raise Unanswered(f"{path} answered {response.status_code}")
    return response.get_json()


def every(path: str, query: Mapping[str, Any] | None = None, most: int = 20) -> list[Any]:
    """Every item of a list answer, page by page at the largest page (at most `most` pages)."""
    items: list[Any] = []
    page = 1
    while page <= most:
        body = answer(path, {**(query or {}), "page": page, "per_page": 500})
        items += body["items"]
        if page >= int(body.get("pages") or 1):
            break
        page += 1
    return items
