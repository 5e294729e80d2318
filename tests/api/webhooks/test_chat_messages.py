"""R23, R8a, R17: what a chat channel (a Discord or Slack subscription) is told, as its receiver
gets it from the delivery worker (`flask --app app deliver --once`): one message a report, with
its venue, date, session (when the venue held more than one that night), entrants, top three and
who knocked out whom; one for a correction, saying what changed; one for a void. A subscription
made without `events` hears what its format wants: a chat the report events (never a second
"Standings updated" for the same report), json the reports and the standings, as before."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.builders import Scene, days_ago, iso, said
from tests.support.receiver import Received, receiver

HOOKS = "/api/v1/webhooks"
TOURNAMENTS = "/api/v1/tournaments"
CHAT_DEFAULT = ["report.posted", "report.corrected", "report.voided"]


def deliver(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["deliver", "--once"])
    assert result.exit_code == 0, result.output


def subscribe(scene: Scene, url: str, **more: Any) -> dict[str, Any]:
    made = scene.office.post(HOOKS, json={"url": url, **more})
    assert made.status_code == 201, made.get_json()
    body: dict[str, Any] = made.get_json()
    return body


def texts(got: list[Received]) -> list[str]:
    return [r.json["content"] if "content" in r.json else r.json["text"] for r in got]


def points(report: dict[str, Any]) -> dict[int, int]:
    return {row["place"]: row["points"] for row in report["results"]}


def knocked(scene: Scene, order: list[int], by: dict[int, int], day: str) -> dict[str, Any]:
    """A report placing `order` 1, 2, 3 …, each player in `by` knocked out by the one it names."""
    body = scene.body(order, session=1)
    body["date"] = day
    for row in body["results"]:
        if row["player_id"] in by:
            row["knocked_out_by"] = by[row["player_id"]]
    return body


def test_r23_r8a_a_report_is_one_chat_message_with_session_top_three_and_knockouts(
    private_ok: Flask, scene: Scene
) -> None:
    """R23: subscriptions made without `events` get their format's default: a Discord or Slack
    one the report events alone (so a report is one message, not two), a json one the report and
    the standings, as before. R8a: the message names who knocked out whom; a second session that
    night is said as such."""
    with receiver() as discord, receiver() as slack, receiver() as plain:
        made = {
            "discord": subscribe(scene, discord.url, format="discord"),
            "slack": subscribe(scene, slack.url, format="slack"),
            "json": subscribe(scene, plain.url),
        }
        assert made["discord"]["events"] == CHAT_DEFAULT and made["slack"]["events"] == CHAT_DEFAULT
        assert made["json"]["events"] == ["report.posted", "standings.changed"]
        ann, bea, cal, dee, eve = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.", "Eve E.")
        day = iso(days_ago(2))
        report = scene.posted(
            knocked(scene, [bea, ann, dee, cal, eve], {eve: bea, cal: bea, dee: ann, ann: bea}, day)
        )
        pts = points(report)
        deliver(private_ok)
        (first,) = texts(discord.got)  # one message: no "Standings updated" beside it
        venue = scene.venue["name"]
        assert first.splitlines() == [
            f"Results are in: **{venue}**, {said(days_ago(2))}: 5 entrants",
            f"1. Bea B. ({pts[1]} pts)",
            f"2. Ann A. ({pts[2]} pts)",
            f"3. Dee D. ({pts[3]} pts)",
            "Knockouts: Bea B. knocked out Ann A., Cal C. and Eve E.; Ann A. knocked out Dee D.",
        ], first
        (in_slack,) = texts(slack.got)
        assert in_slack.splitlines()[0] == f"Results are in: *{venue}*, {said(days_ago(2))}: 5 entrants"
        assert sorted(r.json["type"] for r in plain.got) == ["report.posted", "standings.changed"]
        assert plain.got[0].json["data"]["date"] == day  # json keeps ISO 8601 and its fields

        second = scene.body([cal, eve, dee], session=2)
        second["date"] = day
        scene.posted(second)
        deliver(private_ok)
        later = texts(discord.got)[1]
        assert later.startswith(f"Results are in: **{venue}**, {said(days_ago(2))}, session 2: 3 entrants")
        assert "Knockouts" not in later  # none named: no line
        assert len(discord.got) == 2 and len(slack.got) == 2


def test_r23_a_chat_that_also_hears_standings_gets_one_message_a_report(
    private_ok: Flask, scene: Scene
) -> None:
    """R23: a chat subscription that names standings.changed besides the report events (as the
    console once ticked for every new webhook) is told a report once: the standings it moved are
    in that message's news, not a second message."""
    with receiver() as chat:
        subscribe(scene, chat.url, format="discord", events=["report.posted", "standings.changed"])
        ann, bea = scene.players("Ann A.", "Bea B.")
        scene.posted(scene.body([ann, bea]))
        deliver(private_ok)
        (only,) = texts(chat.got)
        assert only.startswith("Results are in:"), only


def test_r17_r23_a_correction_and_a_void_are_one_chat_message_each_saying_what_changed(
    private_ok: Flask, scene: Scene
) -> None:
    """R17: a correction reads as one message saying what changed (here the date, the entrants
    and the second and third places); a void as one message saying the night no longer counts."""
    with receiver() as chat:
        subscribe(scene, chat.url, format="discord")
        ann, bea, cal, dee = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.")
        report = scene.posted(scene.body([ann, bea, cal]))
        deliver(private_ok)
        correction = scene.body([ann, cal, dee, bea], day=days_ago(3))
        correction["reason"] = "Cal finished second; Dee was missing."
        corrected = scene.host.put(f"{TOURNAMENTS}/{report['id']}", json=correction)
        assert corrected.status_code == 200, corrected.get_json()
        now, was = points(corrected.get_json()), points(report)
        deliver(private_ok)
        posted, fixed = texts(chat.got)
        venue = scene.venue["name"]
        assert fixed.splitlines()[:4] == [
            f"Results corrected: **{venue}**, {said(days_ago(3))}: 4 entrants",
            f"1. Ann A. ({now[1]} pts)",
            f"2. Cal C. ({now[2]} pts)",
            f"3. Dee D. ({now[3]} pts)",
        ], fixed
        changed = fixed.splitlines()[-1]
        assert changed.startswith("What changed: "), fixed
        for part in (
            f"the date (was {said(days_ago(2))})",
            "entrants (was 3)",
            f"2nd (was Bea B., {was[2]} pts)",
            f"3rd (was Cal C., {was[3]} pts)",
        ):
            assert part in changed, changed
        assert now[1] == was[1] and "1st" not in changed  # Ann still won, with the same points

        voided = scene.host.post(f"{TOURNAMENTS}/{report['id']}/void", json={"reason": "Wrong venue."})
        assert voided.status_code == 200, voided.get_json()
        deliver(private_ok)
        assert len(chat.got) == 3
        gone = texts(chat.got)[2]
        assert gone == (
            f"Results voided: **{venue}**, {said(days_ago(3))}: 4 entrants, won by Ann A.\n"
            "These results no longer count toward the standings."
        ), gone
        assert "Wrong venue" not in gone  # the reason stays with the office (R23)
