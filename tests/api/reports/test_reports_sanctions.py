"""Sanctions are enforced (R16): a report (POST, or a correction PUT; JSON or CSV) listing a player
suspended league-wide on its date, or banned at its venue that day, is refused whole with a 422
naming R16 and each such row at results.N.player_id; nothing is stored and no player created.
The office may override with a reason: stored, with a warning, and audited. A correction is
refused only for the players it adds (or moves into a sanction): a player the stored report
already held under it keeps their row, with a warning."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.builders import (
    SANCTIONS,
    TOURNAMENTS,
    Scene,
    ago,
    audit_entries,
    by_place,
    days_ago,
    points_by_place,
    sanctioned,
    unique_email,
    unique_name,
)
from tests.support.league import assert_problem


def names_sanction(message: str, sanction_id: int) -> bool:
    """The message names the sanction by its id ("sanction 12", "sanction_id 12", "sanction #12")."""
    return re.search(rf"sanction\D{{0,5}}\b{sanction_id}\b", message, re.IGNORECASE) is not None


def refused_r16(scene: Scene, response: Any, *rows: int, rule: str = "R16") -> dict[str, Any]:
    """A 422 naming the rule and results.N.player_id of each row given."""
    return assert_problem(response, 422, *[f"results.{n}.player_id" for n in rows], rule=rule)


def suspend(
    scene: Scene, player: int, first: int = 30, last: int | None = 16, **fields: Any
) -> dict[str, Any]:
    """A suspension of the player from `first` to `last` days ago (None: permanent)."""
    days = {"first_day": ago(first)} | ({} if last is None else {"last_day": ago(last)})
    return sanctioned(scene.office, player, "suspension", "fighting", **days, **fields)


def with_new_player(body: dict[str, Any]) -> dict[str, Any]:
    """The report plus a new player at the next place (to prove none is created on a refusal)."""
    body["results"].append(
        {
            "place": len(body["results"]) + 1,
            "new_player": {"full_name": unique_name(), "email": unique_email()},
        }
    )
    return body


@pytest.fixture()
def scene(make_scene: Any) -> Scene:
    """The usual scene, its season's correction window as long as the season (R17), so that its
    host reports the nights these suspensions cover, weeks ago."""
    made: Scene = make_scene(correction_days=90)
    return made


@pytest.fixture()
def cast(scene: Scene) -> dict[str, Any]:
    """Sid, suspended from 30 to 16 days ago (the shortest suspension), and two others."""
    sid, ann, bob = scene.players("Sid", "Ann", "Bob")
    return {"sid": sid, "ann": ann, "bob": bob, "sanction": suspend(scene, sid)}


# The days a suspension bars ------------------------------------------------------------------------


@pytest.mark.parametrize("day_ago", [31, 15])
def test_the_day_before_and_the_day_after_are_accepted_r16(
    scene: Scene, cast: dict[str, Any], day_ago: int
) -> None:
    """R16: a suspension from 30 to 16 days ago does not bar 31 or 15 days ago."""
    report = scene.posted(scene.body([cast["ann"], cast["sid"], cast["bob"]], days_ago(day_ago)))
    assert by_place(report)[2]["player"]["id"] == cast["sid"]
    assert report["warnings"] == []


@pytest.mark.parametrize("day_ago", [30, 23, 16])
def test_the_first_a_middle_and_the_last_day_are_refused_r16(
    scene: Scene, cast: dict[str, Any], day_ago: int
) -> None:
    """R16: the first and the last day are days of the suspension; the row is named with the
    sanction id, and nothing is stored."""
    before = scene.counts()
    response = scene.post(scene.body([cast["ann"], cast["sid"], cast["bob"]], days_ago(day_ago)))
    problem = refused_r16(scene, response, 1)
    assert set(problem["errors"]) == {"results.1.player_id"}
    assert names_sanction(problem["errors"]["results.1.player_id"][0], cast["sanction"]["id"])
    assert scene.counts() == before


def test_a_permanent_suspension_bars_every_day_from_its_first_r16(scene: Scene) -> None:
    """R16: no last day: refused on the first day and long after, accepted the day before."""
    ann, bob, perm = scene.players("Ann", "Bob", "Perm")
    sanction = suspend(scene, perm, first=40, last=None)
    for day_ago in (40, 2):
        problem = refused_r16(scene, scene.post(scene.body([ann, bob, perm], days_ago(day_ago))), 2)
        assert names_sanction(problem["errors"]["results.2.player_id"][0], sanction["id"])
    scene.posted(scene.body([ann, bob, perm], days_ago(41)))


def test_a_lifted_suspension_bars_no_one_even_on_its_days_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: once lifted, a sanction bars no one, also on the days it ran."""
    lifted = scene.office.post(
        f"{SANCTIONS}/{cast['sanction']['id']}/lift", json={"reason": "Appeal upheld."}
    )
    assert lifted.status_code == 200
    report = scene.posted(scene.body([cast["sid"], cast["ann"]], days_ago(20)))
    assert by_place(report)[1]["player"]["id"] == cast["sid"]
    assert report["warnings"] == []


@pytest.mark.parametrize("kind", ["reminder", "warning"])
def test_reminders_and_warnings_bar_no_one_r16(scene: Scene, kind: str) -> None:
    """R16: only suspensions and venue bans keep a player from playing."""
    ann, bob = scene.players("Ann", "Bob")
    sanctioned(scene.office, bob, kind, "berating", first_day=ago(30), last_day=ago(2))
    scene.posted(scene.body([ann, bob], days_ago(10)))


# Venue bans ----------------------------------------------------------------------------------------


def test_a_ban_bars_at_its_venue_only_r16(scene: Scene) -> None:
    """R16: banned here, refused here; the same day at another venue (same season), accepted."""
    ann, bob, ban_me = scene.players("Ann", "Bob", "Banned")
    ban = sanctioned(
        scene.host, ban_me, "venue_ban", "outside_alcohol", venue_id=scene.venue_id, first_day=ago(20)
    )
    body = scene.body([ban_me, ann, bob], days_ago(5))
    problem = refused_r16(scene, scene.post(body), 0)
    assert names_sanction(problem["errors"]["results.0.player_id"][0], ban["id"])
    elsewhere = int(scene.league.venue(scene.region["id"])["id"])
    report = scene.posted(scene.body([ban_me, ann, bob], days_ago(5), venue_id=elsewhere), scene.office)
    assert report["venue_id"] == elsewhere
    assert by_place(report)[1]["player"]["id"] == ban_me
    assert report["warnings"] == []


def test_a_dated_ban_bars_its_days_only_r16(scene: Scene) -> None:
    """R16: a ban from 10 to 8 days ago bars 10 and 8 days ago, not 11 or 7."""
    ann, ban_me = scene.players("Ann", "Banned")
    sanctioned(
        scene.host,
        ban_me,
        "venue_ban",
        "fighting",
        venue_id=scene.venue_id,
        first_day=ago(10),
        last_day=ago(8),
    )
    for day_ago in (10, 8):
        refused_r16(scene, scene.post(scene.body([ann, ban_me], days_ago(day_ago))), 1)
    for day_ago in (11, 7):
        scene.posted(scene.body([ann, ban_me], days_ago(day_ago)))


# How the player is named, and several rows ---------------------------------------------------------


def test_a_player_named_by_email_or_membership_number_is_named_at_player_id_r16(scene: Scene) -> None:
    """R16: however the row names the player, the problem is at results.N.player_id."""
    ann = scene.player("Ann")
    number = f"19850721{random.randint(0, 9999):04d}"
    by_number = scene.league.player(unique_name(), membership_number=number)["id"]
    by_email = scene.player("Mailed")
    email = scene.office.get(f"/api/v1/players/{by_email}").get_json()["email"]
    first = suspend(scene, by_number, first=30, last=None)
    second = suspend(scene, by_email, first=30, last=None)
    body = scene.body([ann], days_ago(3))
    body["results"] += [{"place": 2, "email": email.upper()}, {"place": 3, "membership_number": number}]
    problem = refused_r16(scene, scene.post(with_new_player(body)), 1, 2)
    assert names_sanction(problem["errors"]["results.1.player_id"][0], second["id"])
    assert names_sanction(problem["errors"]["results.2.player_id"][0], first["id"])
    assert "results.0.player_id" not in problem["errors"]


def test_every_barred_row_is_named_r16(scene: Scene) -> None:
    """R16: two suspended players and one banned here: each row is named with its own sanction."""
    ann, bob, sus1, sus2, banned = scene.players("Ann", "Bob", "Sus One", "Sus Two", "Banned")
    one = suspend(scene, sus1, first=20, last=None)
    two = suspend(scene, sus2, first=20, last=5)
    ban = sanctioned(
        scene.office, banned, "venue_ban", "gambling", venue_id=scene.venue_id, first_day=ago(20)
    )
    before = scene.counts()
    body = with_new_player(scene.body([sus1, ann, sus2, bob, banned], days_ago(6)))
    problem = refused_r16(scene, scene.post(body), 0, 2, 4)
    assert {k for k in problem["errors"] if k.endswith("player_id")} == {
        "results.0.player_id",
        "results.2.player_id",
        "results.4.player_id",
    }
    for row, sanction in ((0, one), (2, two), (4, ban)):
        message = problem["errors"][f"results.{row}.player_id"][0]
        assert names_sanction(message, sanction["id"]), message
    assert scene.counts() == before


def test_the_row_is_named_by_its_index_in_the_body_not_its_place_r16(
    scene: Scene, cast: dict[str, Any]
) -> None:
    """R16: rows sent out of place order; the suspended player placed 3rd but sent first is
    results.0.player_id."""
    body = scene.body([cast["ann"], cast["bob"], cast["sid"]], days_ago(20))
    body["results"].reverse()
    problem = refused_r16(scene, scene.post(body), 0)
    assert set(problem["errors"]) == {"results.0.player_id"}


def test_r16_is_reported_with_an_r5_problem_r5_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R5, R16: an unknown player and a suspended one: both named, R5 first in the detail."""
    before = scene.counts()
    body = scene.body([cast["ann"], cast["sid"], 987654321], days_ago(20))
    problem = assert_problem(scene.post(body), 422, "results.2.player_id", "results.1.player_id", rule="R5")
    assert problem["detail"].startswith("R5, R16: ")
    assert scene.counts() == before


def test_r16_is_reported_with_an_r4_problem_in_one_answer_r4_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R4, R16: a tied place and a suspended player: one 422 naming both; `rule` is the lowest,
    the detail lists both."""
    before = scene.counts()
    body = with_new_player(scene.body([cast["ann"], cast["sid"], cast["bob"]], days_ago(20)))
    body["results"][2]["place"] = 1
    problem = assert_problem(scene.post(body), 422, "results.2.place", "results.1.player_id", rule="R4")
    assert problem["detail"].startswith("R4, R16: ")
    assert scene.counts() == before


def test_nothing_is_stored_and_no_player_created_on_refusal_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: the report with a new player is refused whole: no report, no player, standings as before."""
    scene.report([cast["ann"], cast["bob"]], days_ago(40))
    standings = scene.standings()
    before = scene.counts()
    listed = scene.listed_reports()
    body = with_new_player(scene.body([cast["ann"], cast["sid"], cast["bob"]], days_ago(20)))
    refused_r16(scene, scene.post(body), 1)
    assert scene.counts() == before
    assert scene.listed_reports() == listed
    assert scene.standings() == standings
    assert len(audit_entries(scene.office, "action=tournament.create")) == 1


def test_the_office_is_refused_too_without_an_override_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: the office reporting a suspended player without override_reason is refused like a host."""
    before = scene.counts()
    refused_r16(scene, scene.post(scene.body([cast["sid"], cast["ann"]], days_ago(20)), scene.office), 0)
    assert scene.counts() == before


# CSV reports ---------------------------------------------------------------------------------------


def post_csv(
    scene: Scene, rows: list[tuple[int, int]], day_ago: int, caller: Any = None, extra: str = ""
) -> Any:
    text = "place,player_id\n" + "".join(f"{place},{player}\n" for place, player in rows)
    query = f"venue_id={scene.venue_id}&date={ago(day_ago)}{extra}"
    return (caller or scene.host).post(f"{TOURNAMENTS}?{query}", data=text.encode(), content_type="text/csv")


def test_a_csv_report_is_refused_naming_the_row_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: the same refusal for a text/csv report; nothing stored."""
    before = scene.counts()
    response = post_csv(scene, [(1, cast["ann"]), (2, cast["bob"]), (3, cast["sid"])], 16)
    problem = refused_r16(scene, response, 2)
    assert names_sanction(problem["errors"]["results.2.player_id"][0], cast["sanction"]["id"])
    assert scene.counts() == before
    assert post_csv(scene, [(1, cast["ann"]), (2, cast["sid"])], 15).status_code == 201


def test_a_csv_report_overridden_in_the_query_string_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: the office's override_reason may come in the query string of a CSV report."""
    response = post_csv(
        scene,
        [(1, cast["sid"]), (2, cast["ann"])],
        20,
        scene.office,
        "&override_reason=Suspension%20misdated",
    )
    assert response.status_code == 201, response.get_json()
    (warning,) = response.get_json()["warnings"]
    assert (warning["code"], warning["rule"]) == ("sanction_overridden", "R16")
    assert cast["sid"] in warning["player_ids"]


def test_a_host_cannot_override_in_a_csv_query_string_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: override_reason from a host, in the query string, is a 422 naming it."""
    before = scene.counts()
    response = post_csv(scene, [(1, cast["sid"]), (2, cast["ann"])], 20, extra="&override_reason=Please")
    assert_problem(response, 422, "override_reason", rule="R16")
    assert scene.counts() == before


# Overrides -----------------------------------------------------------------------------------------


def test_the_office_overrides_with_a_reason_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: with override_reason the office's report is stored and scored, with a
    sanction_overridden warning (rule R16) naming the player."""
    body = scene.body(
        [cast["sid"], cast["ann"], cast["bob"]], days_ago(20), override_reason="Misdated sanction."
    )
    response = scene.post(body, scene.office)
    assert response.status_code == 201, response.get_json()
    report = response.get_json()
    assert [by_place(report)[p]["player"]["id"] for p in (1, 2, 3)] == [cast["sid"], cast["ann"], cast["bob"]]
    assert points_by_place(report)[0][3] > 0
    (warning,) = report["warnings"]
    assert (warning["code"], warning["rule"]) == ("sanction_overridden", "R16")
    assert warning["player_ids"] == [cast["sid"]]
    stored = scene.public.get(f"{TOURNAMENTS}/{report['id']}")
    assert stored.status_code == 200
    assert scene.row(cast["sid"])["points"] == by_place(report)[1]["points"]


def test_an_override_is_audited_with_its_reason_r16_r18(scene: Scene, cast: dict[str, Any]) -> None:
    """R16, R18: a stored override is in the audit log as tournament.override with the reason."""
    body = scene.body([cast["sid"], cast["ann"]], days_ago(20), override_reason="Misdated sanction.")
    report = scene.posted(body, scene.office)
    entries = audit_entries(scene.office, "action=tournament.override")
    assert [(e["entity"], e["entity_id"]) for e in entries] == [("tournament", report["id"])]
    (entry,) = entries
    assert entry["reason"] == "Misdated sanction."
    assert entry["actor"] == "Office: Test"


def test_an_unneeded_override_stores_no_warning_and_no_override_entry_r16(scene: Scene) -> None:
    """R16: override_reason with no one barred: stored, nothing overridden, nothing to audit as such."""
    ann, bob = scene.players("Ann", "Bob")
    report = scene.posted(scene.body([ann, bob], days_ago(3), override_reason="Just in case."), scene.office)
    assert report["warnings"] == []
    assert audit_entries(scene.office, "action=tournament.override") == []


def test_a_host_cannot_override_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: a host's override_reason is a 422 naming it (rule R16); nothing stored, nothing audited."""
    before = scene.counts()
    body = with_new_player(
        scene.body([cast["sid"], cast["ann"]], days_ago(20), override_reason="He is my friend.")
    )
    assert_problem(scene.post(body), 422, "override_reason", rule="R16")
    assert scene.counts() == before
    assert audit_entries(scene.office, "action=tournament.override") == []


# Reports stored before the sanction, and corrections -------------------------------------------------


def test_a_later_sanction_leaves_a_stored_report_alone_r16(scene: Scene) -> None:
    """R16: a suspension recorded after a report does not touch it: its points and the standings stay."""
    ann, bob, late = scene.players("Ann", "Bob", "Late")
    report = scene.report([late, ann, bob], days_ago(20))
    stored = scene.public.get(f"{TOURNAMENTS}/{report['id']}").get_json()
    standings = scene.standings()
    assert any(row["player"]["id"] == late for row in standings["standings"])
    suspend(scene, late, first=25, last=None)
    assert scene.public.get(f"{TOURNAMENTS}/{report['id']}").get_json() == stored
    assert scene.standings() == standings
    assert scene.listed_reports() == 1


def correction(scene: Scene, report_id: int, order: list[int], day_ago: int, **extra: Any) -> Any:
    body = {**scene.body(order, days_ago(day_ago)), "reason": "Typo in the places.", **extra}
    return scene.office.put(f"{TOURNAMENTS}/{report_id}", json=body)


def test_a_correction_naming_a_suspended_player_is_refused_r16(scene: Scene, cast: dict[str, Any]) -> None:
    """R16: a PUT that now lists a suspended player on a day they are barred is refused whole;
    the stored report stays as it was."""
    report = scene.report([cast["ann"], cast["bob"]], days_ago(20))
    stored = scene.office.get(f"{TOURNAMENTS}/{report['id']}").get_json()
    problem = refused_r16(
        scene, correction(scene, report["id"], [cast["ann"], cast["bob"], cast["sid"]], 20), 2
    )
    assert names_sanction(problem["errors"]["results.2.player_id"][0], cast["sanction"]["id"])
    assert scene.office.get(f"{TOURNAMENTS}/{report['id']}").get_json() == stored


def test_a_correction_moving_a_report_into_a_suspension_keeps_its_players_rows_r16(
    scene: Scene, cast: dict[str, Any]
) -> None:
    """R16: Sid played 31 days ago (accepted). A correction is refused only for the players it
    adds: moved to 30 days ago, inside his suspension, the report keeps Sid's row with a warning;
    adding Bob, suspended then too, refuses the move for Bob alone, and nothing is saved."""
    bobs = suspend(scene, cast["bob"])
    report = scene.report([cast["sid"], cast["ann"]], days_ago(31))
    stored = scene.office.get(f"{TOURNAMENTS}/{report['id']}").get_json()
    adding = correction(scene, report["id"], [cast["sid"], cast["ann"], cast["bob"]], 30)
    problem = refused_r16(scene, adding, 2)
    assert "results.0.player_id" not in problem["errors"]
    assert f"sanction {bobs['id']}" in problem["errors"]["results.2.player_id"][0]
    assert scene.office.get(f"{TOURNAMENTS}/{report['id']}").get_json() == stored
    moved = correction(scene, report["id"], [cast["sid"], cast["ann"]], 30)
    assert moved.status_code == 200, moved.get_json()
    (warning,) = moved.get_json()["warnings"]
    assert (warning["code"], warning["rule"], warning["player_ids"]) == (
        "sanctioned_player_kept",
        "R16",
        [cast["sid"]],
    )
    assert names_sanction(warning["message"], cast["sanction"]["id"])
    assert scene.office.get(f"{TOURNAMENTS}/{report['id']}").get_json()["date"] == ago(30)


def test_correcting_a_report_stored_before_the_sanction_keeps_the_players_row_r16(scene: Scene) -> None:
    """R16: the report was stored before the suspension; a correction that still lists the player
    is not refused for them (a correction is refused only for the players it adds): their row
    stands, with a warning naming them and the sanction."""
    ann, bob, late = scene.players("Ann", "Bob", "Late")
    report = scene.report([ann, late, bob], days_ago(20))
    sanction = suspend(scene, late, first=25, last=None)
    response = correction(scene, report["id"], [ann, bob, late], 20)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert by_place(body)[3]["player"]["id"] == late
    (warning,) = body["warnings"]
    assert (warning["code"], warning["rule"], warning["player_ids"]) == (
        "sanctioned_player_kept",
        "R16",
        [late],
    )
    assert warning["message"].startswith("place 3: ") and names_sanction(warning["message"], sanction["id"])
    assert by_place(scene.office.get(f"{TOURNAMENTS}/{report['id']}").get_json())[3]["player"]["id"] == late
    assert audit_entries(scene.office, "action=tournament.override") == []


def test_the_office_overrides_a_correction_r16_r18(scene: Scene, cast: dict[str, Any]) -> None:
    """R16, R18: with override_reason the correction is stored, warned about and audited."""
    report = scene.report([cast["ann"], cast["bob"]], days_ago(20))
    response = correction(
        scene, report["id"], [cast["sid"], cast["ann"], cast["bob"]], 20, override_reason="Sanction misdated."
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert by_place(body)[1]["player"]["id"] == cast["sid"]
    (warning,) = body["warnings"]
    assert (warning["code"], warning["rule"]) == ("sanction_overridden", "R16")
    (entry,) = audit_entries(scene.office, "action=tournament.override")
    assert (entry["entity_id"], entry["reason"]) == (report["id"], "Sanction misdated.")
