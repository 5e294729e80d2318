"""Fixtures of the league builder (tests/builders.py) for the HTTP tests."""

from __future__ import annotations

from functools import partial

import pytest

from tests.builders import HostFor, MakeScene, Scene
from tests.conftest import Caller, League


@pytest.fixture()
def make_scene(league: League, office: Caller, public: Caller, host_for: HostFor) -> MakeScene:
    """make_scene(**season_settings) -> a new Scene whose season has those settings."""
    return partial(Scene, league, office, public, host_for)


@pytest.fixture()
def scene(make_scene: MakeScene) -> Scene:
    """One venue in its own region, a season around today, a host key of the venue."""
    return make_scene()
