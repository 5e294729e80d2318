"""R23: which events a subscription gets (its format's default, and one chat message a change)
and how a chat message says a report (R8a knockouts, R19 names told apart, a long list bounded,
Slack's markup escaped)."""

from __future__ import annotations

from typing import Any

import pytest

from models.rules.webhooks import (
    KNOCKOUTS_ROOM,
    Target,
    Told,
    chat_text,
    default_events,
    formatted,
    knockouts_said,
    wants,
)

pytestmark = pytest.mark.rules


def target(fmt: str, *events: str) -> Target:
    return Target(frozenset(events), None, None, False, fmt)


def test_r23_a_new_subscriptions_events_follow_its_format() -> None:
    assert default_events("discord") == default_events("slack")
    assert "standings.changed" not in default_events("discord")
    assert default_events("json") == ["report.posted", "standings.changed"]


def test_r23_the_standings_a_report_moved_are_not_a_second_chat_message() -> None:
    """A chat hearing both the report and the standings is told the report alone; the standings
    a merge moved (told beside no report) it still hears; json hears both, as before."""
    report = Told("report.posted", 3, 1)
    chat = target("discord", "report.posted", "standings.changed")
    assert not wants(chat, "standings.changed", 3, 1, False, beside=report)
    assert wants(chat, "standings.changed", 3, 1, False)
    assert wants(
        target("json", "report.posted", "standings.changed"), "standings.changed", 3, 1, False, report
    )
    # A chat that does not hear the report (another venue's only) still hears the standings.
    elsewhere = Target(frozenset({"*"}), 3, None, False, "slack")
    assert not wants(elsewhere, "standings.changed", 3, 1, False, Told("report.corrected", 3, 1))
    assert wants(elsewhere, "standings.changed", 3, 1, False, Told("report.corrected", 4, 1))


def knockout(place: int, pid: int, by_place: int, by: int, name: str = "") -> dict[str, Any]:
    return {
        "place": place,
        "player_id": pid,
        "display_name": name or f"P{pid}",
        "by_place": by_place,
        "by_player_id": by,
        "by_display_name": f"P{by}",
    }


def test_r8a_a_long_list_of_knockouts_is_bounded_and_says_how_many_more() -> None:
    rows = [knockout(n, n, n - 1, n - 1) for n in range(2, 400)]
    said = knockouts_said(rows, {n: f"Player number {n}" for n in range(1, 400)})
    assert len(said) < KNOCKOUTS_ROOM + 100 and said.endswith(" more")
    message = formatted("discord", "report.posted", {"data": {"entrants": 400, "knockouts": rows}})
    assert len(message["content"]) <= 2000


def test_r19_players_sharing_a_display_name_are_told_apart_in_a_message() -> None:
    data = {
        "venue_name": "The Crown",
        "date": "2026-12-01",
        "entrants": 3,
        "top": [
            {"place": 1, "player_id": 7, "display_name": "Sam S.", "points": 10},
            {"place": 2, "player_id": 9, "display_name": "Sam S.", "points": 0},
        ],
        "knockouts": [knockout(2, 9, 1, 7, "Sam S.") | {"by_display_name": "Sam S."}],
    }
    text = chat_text("report.posted", data)
    assert "1. Sam S. #7" in text and "2. Sam S. #9" in text
    assert "Knockouts: Sam S. #7 knocked out Sam S. #9" in text


def test_r23_slack_reads_a_name_as_text_not_as_its_markup() -> None:
    data = {"venue_name": "<!channel> & Co", "date": "2026-12-01", "entrants": 2, "top": []}
    text = formatted("slack", "report.posted", {"data": data})["text"]
    assert "<!channel>" not in text and "*&lt;!channel&gt; &amp; Co*" in text
