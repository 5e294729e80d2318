"""Fixtures of the league builder (tests/builders.py) for the HTTP tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Connection
from sqlalchemy.orm import sessionmaker

from app import create_app
from tests.builders import HostFor, MakeScene, Scene
from tests.support.league import Caller, League


@pytest.fixture()
def make_scene(league: League, office: Caller, public: Caller, host_for: HostFor) -> MakeScene:
    """make_scene(**season_settings) -> a new Scene whose season has those settings."""
    return partial(Scene, league, office, public, host_for)


@pytest.fixture()
def scene(make_scene: MakeScene) -> Scene:
    """One venue in its own region, a season around today, a host key of the venue."""
    return make_scene()


@pytest.fixture()
def make_app(
    database_url: str, connection: Connection, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., Flask]]:
    """create_app(config) on the test database, its sessions joined to this test's transaction,
    its answers in a folder of its own: each test's data is rolled back, so the data versions of
    one test repeat in the next, and a folder shared between tests would serve one test's
    answers in another's."""
    made: list[Flask] = []

    def make(**config: Any) -> Flask:
        answers = {"CACHE_DIR": str(tmp_path_factory.mktemp("answers"))}
        fresh = create_app({"DATABASE_URL": database_url, "RATELIMIT_ENABLED": False, **answers, **config})
        joined = sessionmaker(
            bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
        )
        fresh.extensions["league_db"].sessionmaker = fresh.extensions["league_db"].read_sessionmaker = joined
        made.append(fresh)
        return fresh

    yield make
    for fresh in made:
        fresh.extensions["league_db"].engine.dispose()


@pytest.fixture()
def limited(make_app: Callable[..., Flask]) -> Flask:
    """The app with its rate limits on (the defaults: 20 unknown identifiers per 10 minutes, R19)."""
    app: Flask = make_app(RATELIMIT_ENABLED=True)
    return app
