"""Sanctions recorded after the fact (R16): a suspension or a venue ban whose days cover stored
live results of its player undoes none of them. They stand (the standings do not move), and the
answer that records it warns which reports fall inside it (`results_stand`). A correction of such
a report is refused under R16 only for the players it adds: a player already in the stored report
keeps their row, with a warning (`sanctioned_player_kept`), on a dry run as for real."""

from __future__ import annotations

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
    iso,
    sanction_body,
    sanctioned,
)
from tests.support.league import Caller, assert_problem

PLAYERS = "/api/v1/players"


def recorded(caller: Caller, player: int, kind: str = "suspension", **fields: Any) -> dict[str, Any]:
    """POST a sanction (a 201); its answer, warnings included."""
    response = caller.post(SANCTIONS, json=sanction_body(player, kind, "fighting", **fields))
    assert response.status_code == 201, response.get_data(as_text=True)
    body: dict[str, Any] = response.get_json()
    return body


def ref(report: dict[str, Any]) -> dict[str, Any]:
    """How a warning names a stored report."""
    return {name: report[name] for name in ("id", "venue_id", "date", "session", "kind")}


def reports_read(scene: Scene, *reports: dict[str, Any]) -> list[dict[str, Any]]:
    """The reports as the office reads them now."""
    return [scene.office.get(f"{TOURNAMENTS}/{r['id']}").get_json() for r in reports]


# R16: a late sanction's warning ------------------------------------------------------------------


def test_r16_a_late_suspension_names_the_stored_results_inside_it_and_they_stand(scene: Scene) -> None:
    """R16: Lou played 30, 20 and 10 days ago here, 12 days ago at another venue, and 15 days ago in
    a report since voided. A suspension from 25 to 5 days ago is recorded (a 201) warning of the
    three live reports inside it, at both venues, by date; the reports and standings stay as they
    were, and reading or lifting the sanction answers no warnings."""
    lou, ann, bob = scene.players("Lou", "Ann", "Bob")
    elsewhere = int(scene.league.venue(scene.region["id"])["id"])
    before_it = scene.report([lou, ann], days_ago(30))
    inside = scene.report([ann, lou, bob], days_ago(20))
    later = scene.report([lou, bob], days_ago(10))
    away = scene.report([bob, lou], days_ago(12), venue_id=elsewhere)
    voided = scene.report([lou, ann], days_ago(15))
    void = scene.office.post(f"{TOURNAMENTS}/{voided['id']}/void", json={"reason": "Posted twice."})
    assert void.status_code == 200, void.get_json()
    scene.report([ann, bob], days_ago(18))  # Lou not in it
    standings, stored = scene.standings(), reports_read(scene, before_it, inside, later, away)

    body = recorded(scene.office, lou, first_day=ago(25), last_day=ago(5))

    (warning,) = body["warnings"]
    assert (warning["code"], warning["rule"], warning["player_ids"]) == ("results_stand", "R16", [lou])
    assert warning["reports"] == [ref(inside), ref(away), ref(later)]
    assert warning["message"].startswith("R16: 3 stored results fall inside this suspension; they stand")
    for report in (inside, away, later):
        assert f"report {report['id']} " in warning["message"]
    assert f"report {before_it['id']} " not in warning["message"]
    assert scene.standings() == standings
    assert reports_read(scene, before_it, inside, later, away) == stored
    read = scene.office.get(f"{SANCTIONS}/{body['id']}").get_json()
    assert read == {name: value for name, value in body.items() if name != "warnings"}
    lifted = scene.office.post(f"{SANCTIONS}/{body['id']}/lift", json={"reason": "Appeal upheld."})
    assert lifted.status_code == 200 and "warnings" not in lifted.get_json()


def test_r16_a_late_venue_ban_names_the_reports_of_its_venue_only(scene: Scene) -> None:
    """R16: a host bans Lou from their venue from 25 days ago, permanently: the warning names the
    one stored report here inside it ("1 stored result ... it stands"), not the one at another
    venue; the report keeps its results."""
    lou, ann = scene.players("Lou", "Ann")
    elsewhere = int(scene.league.venue(scene.region["id"])["id"])
    here = scene.report([lou, ann], days_ago(20))
    scene.report([lou, ann], days_ago(12), venue_id=elsewhere)
    (stored,) = reports_read(scene, here)

    body = recorded(scene.host, lou, "venue_ban", venue_id=scene.venue_id, first_day=ago(25))

    (warning,) = body["warnings"]
    assert (warning["code"], warning["rule"], warning["reports"]) == ("results_stand", "R16", [ref(here)])
    assert warning["message"].startswith("R16: 1 stored result falls inside this venue ban; it stands")
    assert reports_read(scene, here) == [stored]


@pytest.mark.parametrize(
    ("kind", "days"),
    [
        ("suspension", {"first_day": ago(-1), "last_day": ago(-14)}),  # begins tomorrow
        ("suspension", {"first_day": ago(50), "last_day": ago(21)}),  # ended before the report
        ("warning", {"first_day": ago(25), "last_day": ago(5)}),  # bars no one
        ("reminder", {"first_day": ago(25)}),
    ],
)
def test_r16_a_sanction_covering_no_stored_result_warns_of_nothing(
    scene: Scene, kind: str, days: dict[str, str]
) -> None:
    """R16: no stored result inside its days (or a kind that bars no one): `warnings` is empty."""
    lou, ann = scene.players("Lou", "Ann")
    scene.report([lou, ann], days_ago(20))
    assert recorded(scene.office, lou, kind, **days)["warnings"] == []


def test_r16_the_warning_is_replayed_with_the_sanction_under_its_idempotency_key(scene: Scene) -> None:
    """R16: a retry under the same Idempotency-Key answers the first answer, warning and all, and
    records nothing more."""
    lou, ann = scene.players("Lou", "Ann")
    scene.report([lou, ann], days_ago(20))
    body = sanction_body(lou, "suspension", "fighting", first_day=ago(25))
    first = scene.office.post(SANCTIONS, json=body, headers={"Idempotency-Key": "late-1"})
    again = scene.office.post(SANCTIONS, json=body, headers={"Idempotency-Key": "late-1"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_json() == first.get_json() and len(first.get_json()["warnings"]) == 1
    assert len(audit_entries(scene.office, "action=sanction.create")) == 1


# R16: correcting a report a late sanction covers -------------------------------------------------


@pytest.fixture()
def night(scene: Scene) -> dict[str, Any]:
    """The host reported Ann, Sid, Bob and Cal 3 days ago; Sid was then suspended from 5 days ago
    (the warning named that report); Dan, not in it, is suspended too."""
    ann, sid, bob, cal, dan = scene.players("Ann", "Sid", "Bob", "Cal", "Dan")
    report = scene.posted(scene.body([ann, sid, bob, cal], days_ago(3)))
    sanction = recorded(scene.office, sid, first_day=ago(5), last_day=ago(-8))
    (warning,) = sanction["warnings"]
    assert (warning["code"], warning["reports"]) == ("results_stand", [ref(report)])
    dans = sanctioned(scene.office, dan, "suspension", "cheating", first_day=ago(10))
    cast = {"ann": ann, "sid": sid, "bob": bob, "cal": cal, "dan": dan}
    return {**cast, "report": report, "sanction": sanction["id"], "dans": dans["id"]}


def put(scene: Scene, night: dict[str, Any], order: list[str], query: str = "", **extra: Any) -> Any:
    """The host (or `caller`) corrects the night's report to this order (by name)."""
    caller = extra.pop("caller", scene.host)
    results = scene.body([night[name] for name in order])["results"]
    body = {"results": results, "reason": "Places of Ann and Bob swapped.", **extra}
    return caller.put(f"{TOURNAMENTS}/{night['report']['id']}{query}", json=body)


def kept_warning(body: dict[str, Any], night: dict[str, Any], place: int) -> None:
    """The answer's one warning: Sid's row (at `place`) kept despite the suspension (R16)."""
    (warning,) = [w for w in body["warnings"] if w["code"] == "sanctioned_player_kept"]
    assert (warning["rule"], warning["player_ids"]) == ("R16", [night["sid"]])
    assert warning["message"].startswith(f"place {place}: player {night['sid']} ")
    assert f"sanction {night['sanction']} " in warning["message"]


def test_r16_a_typo_correction_keeps_the_row_of_a_player_suspended_after_the_fact(
    scene: Scene, night: dict[str, Any]
) -> None:
    """R16: the host swaps Ann's and Bob's places: a 200 (the dry run answers the same, storing
    nothing) with a warning naming Sid, whose row stands; no override is audited."""
    order = ["bob", "sid", "ann", "cal"]
    tried = put(scene, night, order, "?dry_run=1")
    assert tried.status_code == 200, tried.get_json()
    kept_warning(tried.get_json(), night, 2)
    assert by_place(reports_read(scene, night["report"])[0])[1]["player"]["id"] == night["ann"]

    response = put(scene, night, order)

    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["warnings"] == tried.get_json()["warnings"]
    kept_warning(body, night, 2)
    stored = reports_read(scene, night["report"])[0]
    assert [by_place(stored)[p]["player"]["id"] for p in (1, 2, 3, 4)] == [night[n] for n in order]
    assert (stored["version"], len(audit_entries(scene.office, "action=tournament.correct"))) == (2, 1)
    assert audit_entries(scene.office, "action=tournament.override") == []


def test_r16_a_correction_adding_a_suspended_player_is_refused_naming_only_them(
    scene: Scene, night: dict[str, Any]
) -> None:
    """R16: adding Dan (suspended, not in the stored report) is a 422 naming results.4.player_id
    only (Sid's row is not refused), on a dry run as for real; the stored report is unchanged and
    nothing is audited."""
    stored = reports_read(scene, night["report"])
    for query in ("?dry_run=1", ""):
        response = put(scene, night, ["bob", "sid", "ann", "cal", "dan"], query)
        problem = assert_problem(response, 422, "results.4.player_id", rule="R16")
        assert set(problem["errors"]) == {"results.4.player_id"}
        assert f"sanction {night['dans']}" in problem["errors"]["results.4.player_id"][0]
    assert reports_read(scene, night["report"]) == stored
    assert audit_entries(scene.office, "action=tournament.correct") == []


def test_r16_the_office_still_overrides_for_a_player_a_correction_adds(
    scene: Scene, night: dict[str, Any]
) -> None:
    """R16, R18: the office adds Dan with override_reason: stored, Sid's row kept (warned) and
    Dan's overridden (warned, and audited with the reason, Dan only)."""
    response = put(
        scene, night, ["ann", "sid", "bob", "cal", "dan"], caller=scene.office, override_reason="Misdated."
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    kept_warning(body, night, 2)
    (overridden,) = [w for w in body["warnings"] if w["code"] == "sanction_overridden"]
    assert overridden["player_ids"] == [night["dan"]]
    (entry,) = audit_entries(scene.office, "action=tournament.override")
    assert (entry["reason"], [o["player_id"] for o in entry["after"]["overridden"]]) == (
        "Misdated.",
        [night["dan"]],
    )


def test_r16_a_host_still_cannot_override_in_a_correction(scene: Scene, night: dict[str, Any]) -> None:
    """R16: a host's override_reason is refused, as before: nothing changes."""
    stored = reports_read(scene, night["report"])
    response = put(scene, night, ["bob", "sid", "ann", "cal"], override_reason="He is my friend.")
    assert_problem(response, 422, "override_reason", rule="R16")
    assert reports_read(scene, night["report"]) == stored


def test_r16_a_correction_naming_the_merged_away_record_keeps_its_survivors_row(scene: Scene) -> None:
    """R16, R17: Bea played 3 days ago; she was then merged into Cal (her result moved to him) and
    Cal suspended from 5 days ago. A correction naming Bea's old id names Cal, who is in the stored
    report: his row is kept, with the merged_player and the R16 warnings."""
    ann, bea, cal, bob = scene.players("Ann", "Bea", "Cal", "Bob")
    report = scene.posted(scene.body([ann, bea, bob], days_ago(3)))
    merged = scene.office.post(f"{PLAYERS}/{cal}/merge", json={"duplicate_id": bea, "reason": "Same person."})
    assert merged.status_code == 200, merged.get_json()
    recorded(scene.office, cal, first_day=ago(5), last_day=ago(-8))
    results = scene.body([bob, bea, ann])["results"]
    response = scene.host.put(f"{TOURNAMENTS}/{report['id']}", json={"results": results, "reason": "Swap."})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert by_place(body)[2]["player"]["id"] == cal
    codes = sorted((w["code"], w["rule"], tuple(w["player_ids"])) for w in body["warnings"])
    assert codes == [("merged_player", "R17", (cal,)), ("sanctioned_player_kept", "R16", (cal,))]


def test_r16_moving_a_corrected_report_into_another_late_sanction_keeps_the_row_too(
    scene: Scene, night: dict[str, Any]
) -> None:
    """R16: a correction is refused only for the players it adds. Moved to a day another
    sanction of Sid's bars (a ban here from 2 days ago, recorded after), the report keeps his row,
    and the warning names the sanctions that bar him on the new day; Dan, added on that day, is
    refused, and nothing is saved then."""
    ban = sanctioned(
        scene.office, night["sid"], "venue_ban", "gambling", venue_id=scene.venue_id, first_day=ago(2)
    )
    stored = reports_read(scene, night["report"])
    adding = put(scene, night, ["bob", "sid", "ann", "cal", "dan"], date=iso(days_ago(1)))
    problem = assert_problem(adding, 422, "results.4.player_id", rule="R16")
    assert "results.1.player_id" not in problem["errors"]
    assert reports_read(scene, night["report"]) == stored
    response = put(scene, night, ["bob", "sid", "ann", "cal"], date=iso(days_ago(1)))
    assert response.status_code == 200, response.get_json()
    kept = [w for w in response.get_json()["warnings"] if w["code"] == "sanctioned_player_kept"]
    assert {w["player_ids"][0] for w in kept} == {night["sid"]}
    assert any(f"sanction {ban['id']} " in w["message"] for w in kept), kept
