"""An answer cached by one release of the service is never served by another: the release (a
digest of the code and templates that make answers) is part of every key, so a deployment that
changes an answer's shape or words needs no `flask cache reset`, though no data moved."""

from __future__ import annotations

import pytest
from flask import Flask

from api.cache import hooks
from tests.support.league import Caller


def test_a_new_release_never_serves_an_earlier_releases_answers(
    app: Flask, public: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert public.get("/api/v1/league-settings").headers["X-Cache"] == "miss"
    assert public.get("/api/v1/league-settings").headers["X-Cache"] == "hit"
    etag = public.get("/api/v1/league-settings").headers["ETag"]
    monkeypatch.setattr(hooks, "release", lambda: "a later release")
    again = public.get("/api/v1/league-settings", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["X-Cache"] == "miss"
    assert public.get("/api/v1/league-settings").headers["X-Cache"] == "hit"
