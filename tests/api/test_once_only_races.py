"""Once means once (R17, R17a) under real gunicorn (4 threaded workers) on a database of each
backend (one server for the module's races), with real concurrency: the racing requests each
open their connection, then wait at a barrier that releases them together. Every race is run
REPEATS times, each time on fresh records.

What each asserts holds whatever the interleaving: exactly one request wins (200, 201 or 204) and
every other is a 409 problem naming what happened, with one audit entry; a report racing a
rescore is scored with the settings in force when it commits, so that after the race every stored
result agrees with the season's settings and chart, and the standing lines with the results."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.builders import SEASONS, TOURNAMENTS, ago, sanction_body
from tests.support.databases import ScratchDatabases
from tests.support.races import (
    KEYS,
    LATE,
    MERGES,
    OPTIONS,
    PLAYERS,
    REASON,
    REPEATS,
    SANCTIONS,
    WORKERS,
    Live,
    Request,
    at_once,
    statuses,
)
from tests.support.servers import gunicorn

# Starts real servers (gunicorn): seconds each; left out of the fast loop (scripts/test-fast).
pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def live(backend: str, scratch: ScratchDatabases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """One server on one database of the backend for all the races of this module: every race
    (every repeat) makes the records it races on, and asserts counts of its own records or
    differences (audit entries after minus before), so none depends on what another left."""
    url = scratch.migrated(backend)
    logs = tmp_path_factory.mktemp("races")
    with gunicorn(url, WORKERS, logs, *OPTIONS, REQUEST_LOG="0") as (server, _master):
        yield Live(server, url)
    scratch.discard(url)


def refusals(answers: list[tuple[int, Any]], rules: tuple[str, ...], *names: str) -> list[str]:
    """What is wrong with the 409s: each must be a problem of one of these rules whose detail
    names each of `names` (the record the request lost on)."""
    wrong = []
    for status, body in answers:
        if status != 409:
            continue
        if not isinstance(body, dict) or body.get("rule") not in rules:
            wrong.append(f"409 without the rule: {body}")
        elif not all(name in body["detail"] for name in names):
            wrong.append(f"409 not naming {names}: {body['detail']}")
    return wrong


def one_winner(won: int, racers: int, audited: int = 1) -> dict[str, Any]:
    """The outcome each repeat must have: one winner, every other a 409, one audit entry."""
    return {"answers": {won: 1, 409: racers - 1}, "audited": audited, "wrong": []}


# Merges (R17) ---------------------------------------------------------------------------------


def test_r17_crosswise_merges_only_one_happens(live: Live) -> None:
    """R17, R17a: A←B and B←A sent together (5 of each, 10 racers): exactly one merge happens
    (one 200, nine 409s naming the player merged away), one audit entry, one live merge; the
    other record is never merged into the first as well."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for _ in range(REPEATS):
        a, b = live.player(), live.player()
        live.report([a, ann, bob])
        live.report([b, ann, bob])
        before = live.audited("player.merge")
        answers = at_once(
            live,
            [
                ("POST", f"{PLAYERS}/{a}/merge", {"duplicate_id": b, **REASON})
                if i % 2 == 0
                else ("POST", f"{PLAYERS}/{b}/merge", {"duplicate_id": a, **REASON})
                for i in range(10)
            ],
        )
        merged_away = [p for p in (a, b) if live.write("GET", f"{PLAYERS}/{p}")["merged_into_id"] is not None]
        live_merges = live.scalar(
            "SELECT count(*) FROM player_merges WHERE undone_at IS NULL AND duplicate_id IN (:a, :b)",
            a=a,
            b=b,
        )
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("player.merge") - before,
                "wrong": refusals(answers, ("R17",)),
                "merged away": len(merged_away),
                "live merges": live_merges,
                "lines current": live.lines_current(),
            }
        )
        expected.append({**one_winner(200, 10), "merged away": 1, "live merges": 1, "lines current": True})
    assert outcomes == expected, outcomes


def test_r17_one_duplicate_merged_into_ten_survivors_at_once(live: Live) -> None:
    """R17, R17a: S1←C … S10←C sent together: C is merged once (one 200, nine 409s naming C),
    with one live merge and one audit entry; its results are at the one survivor."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for _ in range(REPEATS):
        c = live.player()
        live.report([c, ann, bob])
        survivors = [live.player() for _ in range(10)]
        before = live.audited("player.merge")
        answers = at_once(
            live, [("POST", f"{PLAYERS}/{s}/merge", {"duplicate_id": c, **REASON}) for s in survivors]
        )
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("player.merge") - before,
                "wrong": refusals(answers, ("R17",), str(c)),
                "live merges": live.scalar(
                    "SELECT count(*) FROM player_merges WHERE undone_at IS NULL AND duplicate_id = :c", c=c
                ),
                "results left on C": live.scalar("SELECT count(*) FROM results WHERE player_id = :c", c=c),
                "lines current": live.lines_current(),
            }
        )
        expected.append(
            {**one_winner(200, 10), "live merges": 1, "results left on C": 0, "lines current": True}
        )
    assert outcomes == expected, outcomes


def test_r17_ten_undos_of_one_merge_undo_it_once(live: Live) -> None:
    """R17, R17a: ten undos of one merge sent together: one 200, nine 409s naming the merge,
    one audit entry; both players are as before the merge."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for _ in range(REPEATS):
        a, b = live.player(), live.player()
        live.report([a, ann, bob])
        live.report([b, ann, bob])
        merge_id = live.write("POST", f"{PLAYERS}/{a}/merge", {"duplicate_id": b, **REASON})["merge_id"]
        before = live.audited("player.merge_undo")
        answers = at_once(live, [("POST", f"{MERGES}/{merge_id}/undo", REASON) for _ in range(10)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("player.merge_undo") - before,
                "wrong": refusals(answers, ("R17",), str(merge_id)),
                "results of each": [
                    live.scalar("SELECT count(*) FROM results WHERE player_id = :p", p=p) for p in (a, b)
                ],
                "b merged": live.write("GET", f"{PLAYERS}/{b}")["merged_into_id"],
                "lines current": live.lines_current(),
            }
        )
        expected.append(
            {**one_winner(200, 10), "results of each": [1, 1], "b merged": None, "lines current": True}
        )
    assert outcomes == expected, outcomes


def test_r17_reports_racing_the_merge_of_the_player_they_name_leave_nothing_on_it(live: Live) -> None:
    """R5, R17: ten reports naming B and the merge of B into A sent together: the merge
    succeeds; each report is stored (its result is A's: recorded on A, or moved there by the
    merge) or refused with a 409 of R17 (it named B as the merge committed: the database keeps
    results off a record merged away); none is lost or left on B, and the standing lines hold."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for _ in range(REPEATS):
        a, b = live.player(), live.player()
        live.report([a, ann, bob])
        live.report([b, ann, bob])
        requests: list[Request] = [("POST", TOURNAMENTS, live.report_body([b, ann, bob])) for _ in range(10)]
        requests.insert(5, ("POST", f"{PLAYERS}/{a}/merge", {"duplicate_id": b, **REASON}))
        answers = at_once(live, requests)
        merge, reports = answers[5], answers[:5] + answers[6:]
        stored = [body["id"] for status, body in reports if status == 201]
        on_a = live.scalar("SELECT count(*) FROM results WHERE player_id = :a AND place = 1", a=a)
        outcomes.append(
            {
                "merge": merge[0],
                "reports": sorted({status for status, _ in reports} - {201, 409}),
                "wrong": refusals(reports, ("R17",), str(b)),
                "results left on B": live.scalar("SELECT count(*) FROM results WHERE player_id = :b", b=b),
                "winners on A": on_a - 2,  # A's own report and B's, moved
                "lines current": live.lines_current(),
            }
        )
        expected.append(
            {
                "merge": 200,
                "reports": [],
                "wrong": [],
                "results left on B": 0,
                "winners on A": len(stored),
                "lines current": True,
            }
        )
    assert outcomes == expected, outcomes


def test_r17_player_changes_racing_merges_of_that_player_never_deadlock(live: Live) -> None:
    """R17, R17a: five merges of B into A and five changes of A's record sent together: one merge
    succeeds and four are 409s naming B, the five changes all succeed (each takes A's row in the
    order a merge does: never a deadlock, never a 500)."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for _ in range(REPEATS):
        a, b = live.player(), live.player()
        live.report([a, ann, bob])
        live.report([b, ann, bob])
        requests: list[Request] = []
        for i in range(5):
            requests.append(("POST", f"{PLAYERS}/{a}/merge", {"duplicate_id": b, **REASON}))
            requests.append(("PATCH", f"{PLAYERS}/{a}", {"display_name": f"Ava {i}"}))
        answers = at_once(live, requests)
        outcomes.append(
            {
                "merges": statuses(answers[0::2]),
                "changes": statuses(answers[1::2]),
                "wrong": refusals(answers, ("R17",), str(b)),
            }
        )
        expected.append({"merges": {200: 1, 409: 4}, "changes": {200: 5}, "wrong": []})
    assert outcomes == expected, outcomes


# Once-only changes (R17a) ---------------------------------------------------------------------


def test_r17a_twenty_lifts_of_one_sanction_lift_it_once(live: Live) -> None:
    """R17a: twenty lifts of one suspension sent together: one 200, nineteen 409s saying it was
    already lifted, one sanction.lift audit entry."""
    outcomes, expected = [], []
    for _ in range(REPEATS):
        body = {
            "player_id": live.player(),
            "kind": "suspension",
            "category": "fighting",
            "first_day": ago(0),
            "last_day": ago(-30),
            "reason": "Threw a chair.",
        }
        sanction = live.write("POST", SANCTIONS, body)["id"]
        before = live.audited("sanction.lift")
        answers = at_once(live, [("POST", f"{SANCTIONS}/{sanction}/lift", REASON) for _ in range(20)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("sanction.lift") - before,
                "wrong": refusals(answers, ("R17a",), f"Sanction {sanction}", "already lifted"),
            }
        )
        expected.append(one_winner(200, 20))
    assert outcomes == expected, outcomes


def test_r17a_ten_voids_of_one_report_void_it_once(live: Live) -> None:
    """R17a: ten voids of one report sent together: one 200, nine 409s saying it was already
    voided, one tournament.void audit entry."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for _ in range(REPEATS):
        report = live.report([live.player(), ann, bob])["id"]
        before = live.audited("tournament.void")
        answers = at_once(live, [("POST", f"{TOURNAMENTS}/{report}/void", REASON) for _ in range(10)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("tournament.void") - before,
                "wrong": refusals(answers, ("R17a",), f"Report {report}", "voided"),
                "lines current": live.lines_current(),
            }
        )
        expected.append({**one_winner(200, 10), "lines current": True})
    assert outcomes == expected, outcomes


def test_r17a_twenty_voids_of_one_report_by_the_office_and_its_host_void_it_once(live: Live) -> None:
    """R17a: twenty voids of one report sent together, ten by the office and ten by a host of its
    venue: one 200 and nineteen 409s saying it was already voided (never a 404 "There is no
    report": the report is there, it was voided by the winner), one tournament.void entry."""
    ann, bob = live.server.ann, live.server.bob
    host = live.write(
        "POST", KEYS, {"name": "Host: Racing voids", "role": "host", "venue_ids": [live.server.venue_id]}
    )
    as_host = {"Authorization": f"Bearer {host['key']}"}
    outcomes, expected = [], []
    for _ in range(REPEATS):
        report = live.report([live.player(), ann, bob])["id"]
        before = live.audited("tournament.void")
        path = f"{TOURNAMENTS}/{report}/void"
        answers = at_once(live, [("POST", path, REASON, as_host if i % 2 else {}) for i in range(20)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("tournament.void") - before,
                "wrong": refusals(answers, ("R17a",), f"Report {report}", "voided"),
                "lines current": live.lines_current(),
            }
        )
        expected.append({**one_winner(200, 20), "lines current": True})
    assert outcomes == expected, outcomes


def test_r17a_voids_and_corrections_of_one_report_one_wins(live: Live) -> None:
    """R17, R17a: five voids and five corrections of one report, each made against version 1
    (If-Match), sent together: exactly one of the ten changes it, with one audit entry. A void
    won: the report is voided at version 1 and the nine others are 409s (it is voided). A
    correction won: it is at version 2, not voided, and the nine others are 412s (version 1 is
    gone). Never a voided report at version 2, never two changes of version 1."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for _ in range(REPEATS):
        newcomer = live.player()
        report = live.report([newcomer, ann, bob])["id"]
        correction = {
            "results": [
                {"place": 1, "player_id": ann},
                {"place": 2, "player_id": newcomer},
                {"place": 3, "player_id": bob},
            ],
            **REASON,
        }
        read = {"If-Match": f'"r{report}v1"'}
        before = live.audited("tournament.void") + live.audited("tournament.correct")
        answers = at_once(
            live,
            [
                ("POST", f"{TOURNAMENTS}/{report}/void", REASON, read)
                if i % 2 == 0
                else ("PUT", f"{TOURNAMENTS}/{report}", correction, read)
                for i in range(10)
            ],
        )
        stored = live.write("GET", f"{TOURNAMENTS}/{report}")
        state = (stored["voided"], stored["version"])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("tournament.void") + live.audited("tournament.correct") - before,
                "wrong": refusals(answers, ("R17a",), f"Report {report}", "voided"),
                "state": state,
                "lines current": live.lines_current(),
            }
        )
        if state == (False, 2):  # a correction won
            expected.append({**one_winner(200, 10), "answers": {200: 1, 412: 9}, "state": (False, 2)})
        else:  # a void won (or the state is wrong: then no expectation can match it)
            expected.append({**one_winner(200, 10), "state": (True, 1)})
        expected[-1]["lines current"] = True
    assert outcomes == expected, outcomes


def test_r17a_ten_revocations_of_one_key_revoke_it_once(live: Live) -> None:
    """R17a: ten revocations of one API key sent together: one 204, nine 409s saying it was
    already revoked, one api_key.revoke audit entry."""
    outcomes, expected = [], []
    for n in range(REPEATS):
        key = live.write("POST", KEYS, {"name": f"Office: Spare {n}", "role": "office"})["id"]
        before = live.audited("api_key.revoke")
        answers = at_once(live, [("DELETE", f"{KEYS}/{key}", None) for _ in range(10)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("api_key.revoke") - before,
                "wrong": refusals(answers, ("R17a",), f"API key {key}", "already revoked"),
            }
        )
        expected.append(one_winner(204, 10))
    assert outcomes == expected, outcomes


def test_r17a_ten_withdrawals_of_one_disqualification_withdraw_it_once(live: Live) -> None:
    """R13, R17a: ten withdrawals of one disqualification sent together: one 200, nine 409s
    saying it was already withdrawn, one disqualification.withdraw audit entry."""
    season = live.server.season_id
    outcomes, expected = [], []
    for _ in range(REPEATS):
        body = {"player_id": live.player(), "reason": "Collusion at the final table."}
        item = live.write("POST", f"{SEASONS}/{season}/disqualifications", body)["id"]
        before = live.audited("disqualification.withdraw")
        path = f"{SEASONS}/{season}/disqualifications/{item}/withdraw"
        answers = at_once(live, [("POST", path, REASON) for _ in range(10)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("disqualification.withdraw") - before,
                "wrong": refusals(answers, ("R17a",), f"Disqualification {item}", "already withdrawn"),
            }
        )
        expected.append(one_winner(200, 10))
    assert outcomes == expected, outcomes


def test_r17a_ten_publications_of_the_same_lists_publish_them_once(live: Live) -> None:
    """R12, R17a: ten publications of an ended season's lists sent together: one 201, nine 409s
    saying these lists were already published, one qualifiers.publish audit entry."""
    outcomes, expected = [], []
    for n in range(REPEATS):
        region = live.write("POST", "/api/v1/regions", {"name": f"Region Ended {n}"})["id"]
        venue = live.write("POST", "/api/v1/venues", {"name": f"Venue Ended {n}", "region_id": region})["id"]
        ended = {"name": f"Ended {n}", "starts_on": ago(120), "ends_on": ago(90), "region_ids": [region]}
        season = live.write("POST", SEASONS, ended)["id"]
        players = [live.player() for _ in range(5)]
        rows = [{"place": i, "player_id": p} for i, p in enumerate(players, start=1)]
        live.write("POST", TOURNAMENTS, {"venue_id": venue, "date": ago(100), "results": rows, **LATE})
        before = live.audited("qualifiers.publish")
        path = f"{SEASONS}/{season}/qualifiers/publish"
        answers = at_once(live, [("POST", path, {"settlements": []}) for _ in range(10)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("qualifiers.publish") - before,
                "wrong": refusals(answers, ("R17a",), f"season {season}", "already published"),
                "publications": live.scalar(
                    "SELECT count(*) FROM qualifier_publications WHERE season_id = :s", s=season
                ),
            }
        )
        expected.append({**one_winner(201, 10), "publications": 1})
    assert outcomes == expected, outcomes


# Reports racing a rescore (R7, R8, R17a) ------------------------------------------------------


NONE_STALE = {"participation": 0, "placement": 0, "sums": 0}


def stale_results(live: Live, participation: int, first_place: int) -> dict[str, int]:
    """Stored results of the season's live reports that disagree with the settings in force:
    participation points other than the season's (R8), a winner's placement points other than the
    chart's (R7), or points that are not their sum."""
    season = live.server.season_id
    live_results = (
        "FROM results r JOIN tournaments t ON t.id = r.tournament_id "
        "WHERE t.season_id = :s AND t.voided_at IS NULL"
    )
    return {
        "participation": live.scalar(
            f"SELECT count(*) {live_results} AND r.participation_points <> :p", s=season, p=participation
        ),
        "placement": live.scalar(
            f"SELECT count(*) {live_results} AND r.place = 1 AND r.placement_points <> :w",
            s=season,
            w=first_place,
        ),
        "sums": live.scalar(
            f"SELECT count(*) {live_results} AND r.points <> r.placement_points + r.participation_points",
            s=season,
        ),
    }


def test_r17a_fifteen_reports_racing_a_season_rescore_keep_no_stale_points(live: Live) -> None:
    """R8, R17a: fifteen reports and a season PATCH of participation_points sent together: all
    sixteen succeed, and afterwards every stored result carries the new participation points
    (a report stored before the change was rescored by it; one stored after it was scored with
    it), and the standing lines are the results' sums."""
    ann, bob = live.server.ann, live.server.bob
    season = f"{SEASONS}/{live.server.season_id}"
    carol = live.player()
    outcomes, expected = [], []
    for n in range(REPEATS):
        live.write("PATCH", season, {"participation_points": 5 + 2 * n, **REASON})
        requests: list[Request] = [
            ("POST", TOURNAMENTS, live.report_body([ann, bob, carol])) for _ in range(15)
        ]
        requests.insert(7, ("PATCH", season, {"participation_points": 6 + 2 * n, **REASON}))
        answers = at_once(live, requests)
        outcomes.append(
            {
                "answers": statuses(answers),
                "stale": stale_results(live, 6 + 2 * n, 30),
                "lines current": live.lines_current(),
            }
        )
        expected.append({"answers": {200: 1, 201: 15}, "stale": NONE_STALE, "lines current": True})
    assert outcomes == expected, outcomes


def test_r17a_fifteen_reports_racing_a_chart_change_keep_no_stale_points(live: Live) -> None:
    """R7, R17a: fifteen reports and a PATCH of the season's chart (its winner's points) sent
    together: all sixteen succeed, and afterwards every stored winner carries the chart's new
    points, and the standing lines are the results' sums."""
    ann, bob = live.server.ann, live.server.bob
    chart = live.write("GET", f"{SEASONS}/{live.server.season_id}")["points_chart_id"]
    carol = live.player()
    outcomes, expected = [], []
    for n in range(REPEATS):
        winner = 40 + 10 * n
        bands = [{"min_entrants": 2, "max_entrants": None, "points": [winner, 20, 10]}]
        requests: list[Request] = [
            ("POST", TOURNAMENTS, live.report_body([ann, bob, carol])) for _ in range(15)
        ]
        requests.insert(7, ("PATCH", f"/api/v1/points-charts/{chart}", {"bands": bands, **REASON}))
        answers = at_once(live, requests)
        participation = live.write("GET", f"{SEASONS}/{live.server.season_id}")["participation_points"]
        outcomes.append(
            {
                "answers": statuses(answers),
                "stale": stale_results(live, participation, winner),
                "lines current": live.lines_current(),
            }
        )
        expected.append({"answers": {200: 1, 201: 15}, "stale": NONE_STALE, "lines current": True})
    assert outcomes == expected, outcomes


# Once-only records of issue 24 and 25: a unique pair, a unique night --------------------------


def test_r17a_ten_records_of_one_pair_as_two_people_store_it_once(live: Live) -> None:
    """R17a, R5: ten requests at once recording that the same two players are two people, five
    from each side: one 201, nine 409s naming R17a, one pair stored (the database's unique pair
    answers the requests that passed the check together), one audit entry per player."""
    outcomes, expected = [], []
    for _ in range(REPEATS):
        older, newer = live.player(), live.player()
        before = live.audited("player.not_duplicate")
        sides = [(older, newer), (newer, older)] * 5
        answers = at_once(
            live,
            [("POST", f"{PLAYERS}/{a}/not-duplicate", {"other_id": b, **REASON}) for a, b in sides],
        )
        stored = live.scalar(
            "SELECT count(*) FROM distinct_players WHERE low_id = :low AND high_id = :high",
            low=min(older, newer),
            high=max(older, newer),
        )
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("player.not_duplicate") - before,
                "stored": stored,
                "wrong": refusals(answers, ("R17a",)),
            }
        )
        expected.append({"answers": {201: 1, 409: 9}, "audited": 2, "stored": 1, "wrong": []})
    assert outcomes == expected, outcomes


def test_r2_ten_identical_make_up_nights_are_recorded_once(live: Live) -> None:
    """R2, R18: ten requests at once adding the same make-up night at one venue: one 201; every
    other is refused as the same exception twice (422 naming `date`; on SQLite a request may also
    be told to send again, a 409), one night stored, one audit entry."""
    outcomes, expected = [], []
    path = f"/api/v1/venues/{live.server.venue_id}/schedule-exceptions"
    for n in range(REPEATS):
        night = {"kind": "added", "date": ago(-1 - n), "starts_at": "19:00", "sessions": 1, "note": "Make-up"}
        before = live.audited("schedule_exception.create")
        answers = at_once(live, [("POST", path, night) for _ in range(10)])
        stored = live.scalar(
            "SELECT count(*) FROM schedule_exceptions WHERE venue_id = :venue AND date = :day",
            venue=live.server.venue_id,
            day=night["date"],
        )
        refused = [body for status, body in answers if status != 201]
        named = all(
            ("date" in body.get("errors", {})) if body.get("status") == 422 else body.get("status") == 409
            for body in refused
        )
        outcomes.append(
            {
                "won": sum(status == 201 for status, _ in answers),
                "audited": live.audited("schedule_exception.create") - before,
                "stored": stored,
                "refused as the same night": named and len(refused) == 9,
            }
        )
        expected.append({"won": 1, "audited": 1, "stored": 1, "refused as the same night": True})
    assert outcomes == expected, outcomes


def test_r2_ten_schedules_sent_at_once_never_add_up_past_three_nights_a_weekday(live: Live) -> None:
    """R2: ten schedules of one venue sent at once, each of 3 Tuesday nights at other times: each
    replaces the whole schedule, one after another, so the venue keeps one of them, 3 Tuesday
    nights, never the 30 they would add up to (a 409 asking to send again, which SQLite may
    answer, is sent again)."""
    region = live.write("GET", f"/api/v1/venues/{live.server.venue_id}")["region_id"]
    outcomes, expected = [], []
    for _ in range(REPEATS):
        venue = live.write(
            "POST", "/api/v1/venues", {"name": f"Race {uuid.uuid4().hex[:8]}", "region_id": region}
        )
        path = f"/api/v1/venues/{venue['id']}/schedule"
        schedules = [
            [{"weekday": 2, "starts_at": f"{hour:02d}:{minute:02d}", "sessions": 1} for hour in (15, 19, 21)]
            for minute in range(0, 50, 5)
        ]
        answers = at_once(live, [("PUT", path, {"schedule": nights}) for nights in schedules])
        for (status, _body), nights in zip(answers, schedules, strict=True):
            if status == 409:
                live.write("PUT", path, {"schedule": nights})
        stored = live.scalar("SELECT count(*) FROM venue_nights WHERE venue_id = :venue", venue=venue["id"])
        shown = live.write("GET", f"/api/v1/venues/{venue['id']}")["schedule"]
        outcomes.append(
            {
                "answers": sorted({status for status, _ in answers} - {409}),
                "stored": stored,
                "one of those sent": shown in schedules,
            }
        )
        expected.append({"answers": [200], "stored": 3, "one of those sent": True})
    assert outcomes == expected, outcomes


# Ratings (R20) -----------------------------------------------------------------------------------


def test_r20_ten_reports_racing_at_ten_venues_leave_the_ratings_a_rebuilds(live: Live) -> None:
    """R20: ten reports of overlapping players at ten venues sent at once, some later than every
    rated report and some earlier (a replay), are each rated from the states the one committed
    before left: afterwards the stored ratings and history equal a rebuild, float for float, and
    every report is rated (a 409 asking to send again, which SQLite may answer, is sent again)."""
    region = live.write("GET", f"/api/v1/venues/{live.server.venue_id}")["region_id"]
    venues = [
        live.write("POST", "/api/v1/venues", {"name": f"Race {uuid.uuid4().hex[:8]}", "region_id": region})[
            "id"
        ]
        for _ in range(10)
    ]
    pool = [live.player() for _ in range(8)]
    outcomes, expected = [], []
    for n in range(REPEATS):
        live.report(pool[:4])  # something rated already, later than the earlier racers
        bodies = []
        for i, venue in enumerate(venues):
            players = [pool[(i + k + n) % len(pool)] for k in range(4)]
            # Every third one earlier (a replay, and past a host's window: the office gives a reason).
            day, late = (ago(50 - n), LATE) if i % 3 == 0 else (ago(1), {})
            bodies.append(
                {
                    "venue_id": venue,
                    "date": day,
                    "session": 1 + n,
                    "results": [{"place": p, "player_id": pid} for p, pid in enumerate(players, start=1)],
                    **late,
                }
            )
        answers = at_once(live, [("POST", TOURNAMENTS, body) for body in bodies])
        for (status, _), body in zip(answers, bodies, strict=True):
            if status == 409:  # SQLite's "send it again"
                live.write("POST", TOURNAMENTS, body)
        rated = live.scalar(
            "SELECT count(DISTINCT tournament_id) FROM rating_points WHERE venue_id IN ("
            + ",".join(str(v) for v in venues)
            + ") AND session = :number",
            number=1 + n,
        )
        outcomes.append(
            {
                "stored": sum(status in (201, 409) for status, _ in answers),
                "rated": rated,
                "ratings current": live.ratings_current(),
                "lines current": live.lines_current(),
            }
        )
        expected.append({"stored": 10, "rated": 10, "ratings current": True, "lines current": True})
    assert outcomes == expected, outcomes


# Retries under one Idempotency-Key (R17a) -----------------------------------------------------


def test_r17a_twenty_retries_of_one_sanction_under_one_key_all_get_the_first_answer(live: Live) -> None:
    """R17a: twenty identical POST /sanctions under one Idempotency-Key sent together (a phone
    retrying on a bad connection): every one answers the first answer, the same 201 with the same
    sanction, never a 409; one sanction stored, one sanction.create audit entry."""
    outcomes, expected = [], []
    for n in range(REPEATS):
        player = live.player()
        body = {
            "player_id": player,
            "kind": "suspension",
            "category": "fighting",
            "first_day": ago(0),
            "last_day": ago(-30),
            "reason": "Threw a chair.",
        }
        before = live.audited("sanction.create")
        key = {"Idempotency-Key": f"sanction-retried-{n}-{uuid.uuid4().hex}"}
        answers = at_once(live, [("POST", SANCTIONS, body, key) for _ in range(20)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "sanctions answered": len({answer.get("id") for _status, answer in answers}),
                "stored": live.scalar("SELECT count(*) FROM sanctions WHERE player_id = :p", p=player),
                "audited": live.audited("sanction.create") - before,
            }
        )
        expected.append({"answers": {201: 20}, "sanctions answered": 1, "stored": 1, "audited": 1})
    assert outcomes == expected, outcomes


def test_r17a_twenty_retries_of_one_report_under_one_key_all_get_the_first_answer(live: Live) -> None:
    """R17a: twenty identical POST /tournaments under one Idempotency-Key sent together: every one
    answers the one stored report (201, the same id), none a 409; one report, one audit entry."""
    ann, bob = live.server.ann, live.server.bob
    outcomes, expected = [], []
    for n in range(REPEATS):
        body = live.report_body([live.player(), ann, bob])
        before = live.audited("tournament.create")
        key = {"Idempotency-Key": f"report-retried-{n}-{uuid.uuid4().hex}"}
        answers = at_once(live, [("POST", TOURNAMENTS, body, key) for _ in range(20)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "reports answered": len({answer.get("id") for _status, answer in answers}),
                "stored": live.scalar(
                    "SELECT count(*) FROM tournaments WHERE venue_id = :v AND date = :d AND session = :s",
                    v=body["venue_id"],
                    d=body["date"],
                    s=body["session"],
                ),
                "audited": live.audited("tournament.create") - before,
            }
        )
        expected.append({"answers": {201: 20}, "reports answered": 1, "stored": 1, "audited": 1})
    assert outcomes == expected, outcomes


# Data rights (R21) -------------------------------------------------------------------------------


def test_r21_r17a_ten_erasures_of_one_player_erase_it_once(live: Live) -> None:
    """R21, R17a: ten erasures of one player sent together, five by its own id and five by the id
    of a record merged into it (erased with it): one 200, nine 409s saying it was erased already,
    one player.erase audit entry, one row per record in the list of erasures, and the player's
    audit key deleted."""
    outcomes, expected = [], []
    for _ in range(REPEATS):
        survivor, duplicate = live.player(), live.player()
        live.write("POST", f"{PLAYERS}/{survivor}/merge", {"duplicate_id": duplicate, **REASON})
        before = live.audited("player.erase")
        answers = at_once(
            live,
            [("POST", f"{PLAYERS}/{(survivor, duplicate)[i % 2]}/erase", REASON) for i in range(10)],
        )
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("player.erase") - before,
                "listed": live.scalar(
                    "SELECT count(*) FROM erasures WHERE player_id IN (:a, :b)", a=survivor, b=duplicate
                ),
                "keys": live.scalar(
                    "SELECT count(*) FROM player_keys WHERE player_id IN (:a, :b)", a=survivor, b=duplicate
                ),
                "wrong": refusals(answers, ("R17a",), "erased"),
            }
        )
        expected.append({**one_winner(200, 10), "listed": 2, "keys": 0})
    assert outcomes == expected, outcomes


def test_r21_ten_exports_of_one_player_at_once_are_each_answered_and_audited(live: Live) -> None:
    """R21, R18: an export is a read that writes (its audit entry): ten at once are ten 200s and
    ten player.data_export entries, none refused because another export wrote meanwhile."""
    outcomes, expected = [], []
    for _ in range(REPEATS):
        player = live.player()
        before = live.audited("player.data_export")
        answers = at_once(live, [("GET", f"{PLAYERS}/{player}/data-export", None) for _ in range(10)])
        outcomes.append(
            {
                "answers": statuses(answers),
                "audited": live.audited("player.data_export") - before,
                "players": sorted({body["player"]["id"] for status, body in answers if status == 200}),
            }
        )
        expected.append({"answers": {200: 10}, "audited": 10, "players": [player]})
    assert outcomes == expected, outcomes


# Formula charts (R7): one saved while the office raises max_entrants ---------------------------

RACING_FORMULA = "100 / (61 - n)"  # R7: a value for every field to 60 entrants, none for 61


def test_r7_formula_charts_racing_a_larger_max_entrants_never_leave_a_failing_chart(live: Live) -> None:
    """R7, R17a: nine formula charts that fail for 61 entrants and one raise of max_entrants from
    60 to 100, sent together: either the raise wins and every chart is refused (422 naming
    formula), or some chart is stored first and the raise is refused (422 naming max_entrants).
    Never both stored: "the preview never fails for a saved chart" (and nothing answers a 500)."""
    outcomes, expected = [], []
    for n in range(REPEATS):
        live.write("PATCH", "/api/v1/league-settings", {"max_entrants": 60})
        requests: list[Request] = [
            (
                "POST",
                "/api/v1/points-charts",
                {"name": f"Race {n}.{i}", "kind": "formula", "formula": RACING_FORMULA},
            )
            for i in range(9)
        ]
        requests.insert(4, ("PATCH", "/api/v1/league-settings", {"max_entrants": 100}))
        answers = at_once(live, requests)
        raised = live.write("GET", "/api/v1/league-settings")["max_entrants"]
        stored = [body["id"] for status, body in answers if status == 201]
        outcomes.append(
            {
                "consistent": (raised == 100) != bool(stored),
                "answers": sorted(set(statuses(answers)) - {200, 201, 422}),
            }
        )
        expected.append({"consistent": True, "answers": []})
        for chart_id in stored:  # out of the next repeat's way: a formula for every field
            live.write("PATCH", f"/api/v1/points-charts/{chart_id}", {"formula": "10", **REASON})
    assert outcomes == expected, outcomes


# Erasure and free text (R21) ------------------------------------------------------------------


ERASURE_RACERS = 6


def plain_copies(url: str, values: list[str]) -> list[str]:
    """Where the sanctions and the audit log hold one of the values in plain text."""
    engine = create_engine(make_url(url))
    found = []
    try:
        with engine.connect() as conn:
            for table, column in (("sanctions", "reason"), ("audit_log", "reason"), ("audit_log", "after")):
                for (stored,) in conn.execute(text(f"SELECT {column} FROM {table}")):
                    shown = stored if isinstance(stored, str) else json.dumps(stored)
                    found += [
                        f"{table}.{column}"
                        for value in values
                        if shown and value.casefold() in shown.casefold()
                    ]
    finally:
        engine.dispose()
    return found


def test_r21_sanctions_racing_the_erasure_leave_no_plain_copy(live: Live) -> None:
    """R21: in each of REPEATS rounds, a player's erasure and ERASURE_RACERS sanctions naming her by
    name and email (hers, and another player's) are released together; afterwards neither the
    sanctions nor the audit log holds her name or email in plain text."""
    other = live.player()
    for _ in range(REPEATS):
        surname = f"Q{uuid.uuid4().hex[:10]}"
        name, email = f"Zelda {surname}", f"{surname.lower()}@example.org"
        her = int(live.write("POST", PLAYERS, {"full_name": name, "email": email})["id"])
        reason = f"{name} ({email}) shouted at the dealer."
        requests = [("POST", f"{PLAYERS}/{her}/erase", REASON)]
        for i in range(ERASURE_RACERS):
            body = sanction_body(
                (her, other)[i % 2], "warning", "berating", first_day=ago(2), last_day=ago(2)
            )
            requests.append(("POST", SANCTIONS, {**body, "reason": reason}))
        answers = at_once(live, requests)
        assert [status for status, _ in answers] == [200] + [201] * ERASURE_RACERS, answers
        assert plain_copies(live.url, [name, email, surname]) == []


# A new player named by twenty reports at once (R5, R17a) ---------------------------------------


def test_r5_r17a_twenty_reports_registering_one_new_email_at_once_all_go_in_as_one_player(
    live: Live,
) -> None:
    """R5, R17a: one at a time, a report registering an email the league already knows (with its
    player's name) names that player. Twenty such reports sent at once (twenty nights of one
    venue, each with the same new player) are all accepted too, and the league then holds that
    email once: one player, in every report. (Each racer used to see no one by the email, and
    the losers of its unique index were answered 409.)"""
    for _ in range(REPEATS):
        others = [live.player() for _ in range(20)]
        newcomer = {
            "full_name": f"Nell {uuid.uuid4().hex[:8]} Racer",
            "email": f"{uuid.uuid4().hex}@example.org",
        }
        bodies = []
        for other in others:
            body = live.report_body([other])
            body["results"].append({"place": 2, "new_player": newcomer})
            bodies.append({**body, **LATE})
        answers = at_once(live, [("POST", TOURNAMENTS, body) for body in bodies])
        assert statuses(answers) == {201: 20}, [body for status, body in answers if status != 201][:3]
        named = {body["results"][1]["player"]["id"] for _status, body in answers}
        holders = live.scalar("SELECT count(*) FROM players WHERE email = :email", email=newcomer["email"])
        assert (len(named), holders) == (1, 1)
