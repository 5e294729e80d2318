"""Fixtures for the HTTP tests of result reports (see reports_support.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.reports_support import Scene, make_scene


@pytest.fixture()
def scene(league: Any, office: Any, public: Any, host_for: Any) -> Scene:
    """One venue in its own region, a season around today, a host key of the venue."""
    return make_scene(league, office, public, host_for)
