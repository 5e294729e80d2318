"""R24: a chat message (a Discord or Slack subscription's) says its date as the league says dates,
as the receiver gets it from the delivery worker (`flask --app app deliver --once`); when the
office changes the format, the next message reads the new one. A json subscription's event keeps
ISO 8601 (the API's)."""

from __future__ import annotations

from typing import Any

import pytest
import time_machine
from flask import Flask

from tests.support.league import League
from tests.support.local_dates import SETTINGS, TOURNAMENTS, HostFor, LocalLeague, ok, utc
from tests.support.receiver import receiver

HOOKS = "/api/v1/webhooks"
# Thursday 3 December 2026, the league on UTC: Tuesday's night is two days ago.
THURSDAY = "2026-12-03T12:00"


@pytest.fixture()
def private_ok(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Flask:
    monkeypatch.setitem(app.config, "WEBHOOKS_ALLOW_PRIVATE", True)
    return app


def deliver(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["deliver", "--once"])
    assert result.exit_code == 0, result.output


def subscribe(town: LocalLeague, url: str, fmt: str) -> None:
    ok(town.office.post(HOOKS, json={"url": url, "events": ["report.posted"], "format": fmt}), 201)


def posted(town: LocalLeague, venue: int, session: int) -> dict[str, Any]:
    body = town.body(venue, "2026-12-01", town.players(3), session=session)
    return ok(town.office.post(TOURNAMENTS, json=body), 201)


def test_r24_chat_messages_say_the_date_in_the_leagues_format(
    private_ok: Flask, league: League, host_for: HostFor
) -> None:
    """A report of Tuesday 1 December reads "Tue 1 Dec 2026" in Discord and in Slack (the default
    format); after the office sets `d/M/y`, the next report's reads "1/12/2026". The json
    subscription's event still says 2026-12-01."""
    with (
        time_machine.travel(utc(THURSDAY), tick=False),
        receiver() as discord,
        receiver() as slack,
        receiver() as plain,
    ):
        town = LocalLeague(league, host_for, None, "2026-11-01", "2026-12-31")
        venue = town.venue()
        name = ok(town.office.get(f"/api/v1/venues/{venue}"))["name"]
        subscribe(town, discord.url, "discord")
        subscribe(town, slack.url, "slack")
        subscribe(town, plain.url, "json")
        posted(town, venue, session=1)
        deliver(private_ok)
        (first_discord,) = discord.got
        (first_slack,) = slack.got
        assert first_discord.json["content"].startswith(
            f"Results are in: **{name}**, Tue 1 Dec 2026: 3 entrants"
        )
        assert first_slack.json["text"].startswith(f"Results are in: *{name}*, Tue 1 Dec 2026: 3 entrants")
        assert plain.got[0].json["data"]["date"] == "2026-12-01"  # the API's words: ISO 8601

        assert ok(town.office.patch(SETTINGS, json={"date_format": "d/M/y"}))["date_format"] == "d/M/y"
        posted(town, venue, session=2)
        deliver(private_ok)
        said = "1/12/2026, session 2: 3 entrants"  # R23: the night's second session, said so
        assert discord.got[1].json["content"].startswith(f"Results are in: **{name}**, {said}")
        assert slack.got[1].json["text"].startswith(f"Results are in: *{name}*, {said}")
        assert plain.got[1].json["data"]["date"] == "2026-12-01"
