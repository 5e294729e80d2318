"""The HTTP tests' callers and builder: `Caller` (a test client sending one API key), `new_key`,
`League` (regions, venues, seasons, charts and players made through the API as the office would)
and `assert_problem` (a problem+json answer, refused by the rule named)."""

from __future__ import annotations

import uuid
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from models.actor import SYSTEM
from models.services.api_keys.writes import create_key


class Caller:
    """A test client that sends one API key (or none, for the public)."""

    def __init__(self, client: FlaskClient, key: str | None) -> None:
        self.client = client
        self.key = key

    def _headers(self, headers: dict[str, str] | None) -> dict[str, str]:
        merged = dict(headers or {})
        if self.key is not None:
            merged.setdefault("Authorization", f"Bearer {self.key}")
        return merged

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        kwargs["headers"] = self._headers(kwargs.get("headers"))
        return self.client.open(path, method=method, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> Any:
        return self.request("PUT", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> Any:
        return self.request("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)


def new_key(app: Flask, role: str, venue_ids: list[int] | None = None, name: str | None = None) -> str:
    session = app.extensions["league_db"].sessionmaker()
    try:
        _key, secret = create_key(session, SYSTEM, name or f"test {role}", role, venue_ids or [])
        session.commit()
    finally:
        session.close()
    return secret


class League:
    """Builds league data through the HTTP API as the office would."""

    def __init__(self, office: Caller) -> None:
        self.office = office
        self._n = 0

    def _unique(self, stem: str) -> str:
        self._n += 1
        return f"{stem} {self._n}"

    def _created(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.office.post(path, json=body)
        assert response.status_code == 201, response.get_json()
        data: dict[str, Any] = response.get_json()
        return data

    def region(self, **fields: Any) -> dict[str, Any]:
        return self._created("/api/v1/regions", {"name": self._unique("Region"), **fields})

    def venue(self, region_id: int | None = None, **fields: Any) -> dict[str, Any]:
        if region_id is None:
            region_id = self.region()["id"]
        body = {"name": self._unique("Venue"), "region_id": region_id, "city": "Riverton", **fields}
        return self._created("/api/v1/venues", body)

    def season(self, **fields: Any) -> dict[str, Any]:
        body = {
            "name": self._unique("Season"),
            "starts_on": "2026-01-05",
            "ends_on": "2026-03-29",
            **fields,
        }
        return self._created("/api/v1/seasons", body)

    def chart(self, **fields: Any) -> dict[str, Any]:
        body = {"name": self._unique("Chart"), "kind": "top_fraction", **fields}
        return self._created("/api/v1/points-charts", body)

    def player(self, full_name: str | None = None, **fields: Any) -> dict[str, Any]:
        name = full_name or self._unique("Player Person")
        email = fields.pop("email", f"{uuid.uuid4().hex[:10]}@example.org")
        return self._created("/api/v1/players", {"full_name": name, "email": email, **fields})


def assert_problem(response: Any, status: int, *fields: str, rule: str | None = None) -> dict[str, Any]:
    """The answer is problem+json with this status, naming each field given, and refused by
    exactly the rule given (its `rule`, type and detail all say so)."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json", response.mimetype
    body: dict[str, Any] = response.get_json(force=True)
    for key in ("type", "title", "status", "detail"):
        assert key in body, body
    assert body["status"] == status
    for field in fields:
        assert field in body.get("errors", {}), (field, body)
    if rule is not None:
        assert body.get("rule") == rule, body
        assert body["type"] == f"urn:pokerleague:problem:{rule}", body
        assert body["detail"].startswith(rule), body
    return body
