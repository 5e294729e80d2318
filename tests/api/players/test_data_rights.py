"""R21 a player's data rights, through HTTP on both databases: the export (everything held, its
audit values readable, itself audited), the erasure (personal fields gone, "Former player N",
results, standings and qualifiers standing, the audit log's values "[erased]" while its rows stay,
R18), and the sweeps that prove nothing of an erased player is left: every GET of the spec as the
office, and every text and JSON column of every table of the database."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import pytest
import time_machine
from flask import Flask
from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import DatabaseError

from app import create_app
from models.infra import sealing
from tests.builders import (
    OFFICE_LATE,
    SANCTIONS,
    SEASONS,
    TOURNAMENTS,
    HostFor,
    ago,
    audit_entries,
    sanctioned,
)
from tests.support.console import signed_in
from tests.support.databases import TEST_AUDIT_KEY
from tests.support.league import Caller, League, assert_problem

PLAYERS = "/api/v1/players"
ALICE = {
    "full_name": "Alicia Wonderprivate",
    "display_name": "Alicia Wonderprivate",
    "email": "alicia.wonder@example.org",
    "membership_number": "198507211234",
}
DUPE_EMAIL = "ally.w@example.org"
# Every personal value of Alicia's (and of her duplicate record), as any answer or column could
# hold it: the names, the derived keys, the email, the date of birth, the membership number.
SECRETS = (
    "Alicia Wonderprivate",
    "alicia wonderprivate",
    "Wonderprivate",
    "alicia.wonder@example.org",
    "1985-07-21",
    "198507211234",
    "Ally Wonderprivate",
    DUPE_EMAIL,
)
UNKNOWN_ID = 987654321


def created(caller: Caller, path: str, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    response = caller.post(path, json=body)
    assert response.status_code == status, (path, response.get_data(as_text=True))
    data: dict[str, Any] = response.get_json()
    return data


def report(venue_id: int, season_id: int, day: str, order: list[int]) -> dict[str, Any]:
    """A report the office posts, with a reason: R17 asks one of it for a night past the hosts'
    window or in a season whose lists are published (most nights here are both)."""
    return {
        "venue_id": venue_id,
        "season_id": season_id,
        "date": day,
        "results": [{"place": place, "player_id": pid} for place, pid in enumerate(order, start=1)],
        "reason": OFFICE_LATE,
    }


class Seeded:
    def __init__(self, office: Caller, league: League) -> None:
        region = league.region(name="Rights Marches")
        self.venue = league.venue(region["id"], name="The Lantern")["id"]
        self.season = league.season(
            name="Rights season", starts_on=ago(80), ends_on=ago(10), region_ids=[region["id"]]
        )["id"]
        self.alice = created(office, PLAYERS, {**ALICE, "home_venue_id": self.venue})["id"]
        self.dupe = created(
            office,
            PLAYERS,
            {"full_name": "Ally Wonderprivate", "email": DUPE_EMAIL, "display_name": "Ally W."},
        )["id"]
        self.others = [
            created(office, PLAYERS, {"full_name": f"Other Person{n}", "email": f"o{n}@example.org"})["id"]
            for n in range(4)
        ]
        bob, cal, dee, eve = self.others
        # Sent with an Idempotency-Key: its first answer (naming her by her display name, her
        # full name) is stored for retries, and must go with the erasure too.
        first = office.post(
            TOURNAMENTS,
            json=report(self.venue, self.season, ago(70), [self.alice, bob, cal, dee]),
            headers={"Idempotency-Key": "first-report"},
        )
        assert first.status_code == 201, first.get_data(as_text=True)
        self.reports = [
            first.get_json()["id"],
            created(
                office, TOURNAMENTS, report(self.venue, self.season, ago(60), [bob, self.dupe, eve, cal])
            )["id"],
        ]
        # A CSV report naming her duplicate record by email, as hosts send them.
        sheet = f"place,status,player_id,email\n1,,{eve},\n2,,,{DUPE_EMAIL}\n3,,{dee},\n"
        response = office.post(
            f"{TOURNAMENTS}?venue_id={self.venue}&season_id={self.season}&date={ago(50)}"
            f"&reason={quote(OFFICE_LATE)}",
            data=sheet.encode(),
            content_type="text/csv",
        )
        assert response.status_code == 201, response.get_data(as_text=True)
        self.sanction = sanctioned(
            office,
            self.alice,
            "warning",
            "berating",
            first_day=ago(40),
            last_day=ago(40),
            reason="Alicia Wonderprivate shouted at the dealer.",
        )["id"]
        created(
            office,
            f"{PLAYERS}/{self.alice}/merge",
            {"duplicate_id": self.dupe, "reason": "Ally Wonderprivate is Alicia."},
            200,
        )
        created(
            office,
            f"{PLAYERS}/{self.alice}/not-duplicate",
            {"other_id": bob, "reason": "Not Alicia Wonderprivate."},
        )
        created(office, f"{SEASONS}/{self.season}/qualifiers/publish", {"settlements": [], "note": "Done."})


@pytest.fixture()
def seeded(office: Caller, league: League) -> Seeded:
    return Seeded(office, league)


def erase(office: Caller, player_id: int, **body: Any) -> Any:
    return office.post(f"{PLAYERS}/{player_id}/erase", json={"reason": "Asked by email on 1 Dec.", **body})


def export(office: Caller, player_id: int) -> dict[str, Any]:
    response = office.get(f"{PLAYERS}/{player_id}/data-export")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def found_in(body: str) -> list[str]:
    folded = body.casefold()
    return [secret for secret in SECRETS if secret.casefold() in folded]


# The export ------------------------------------------------------------------------------------


def test_r21_the_export_holds_every_personal_field_result_sanction_merge_and_audit_entry(
    office: Caller, seeded: Seeded
) -> None:
    data = export(office, seeded.alice)
    assert data["player"]["full_name"] == ALICE["full_name"]
    assert data["player"]["email"] == ALICE["email"]
    assert data["player"]["date_of_birth"] == "1985-07-21"
    assert data["player"]["membership_number"] == ALICE["membership_number"]
    assert data["player"]["pin"] == "1234"
    assert sorted(r["id"] for r in data["records"]) == sorted([seeded.alice, seeded.dupe])
    reports = {row["report"]["id"] for row in data["results"]}
    assert set(seeded.reports) <= reports and len(reports) == 3
    assert all(row["points"] >= 0 and "place" in row for row in data["results"])
    assert [s["id"] for s in data["sanctions"]] == [seeded.sanction]
    assert [m["duplicate_id"] for m in data["merges"]] == [seeded.dupe]
    # R20: the group's rating (the survivor's, its results rated there) with one point a report.
    history = office.get(f"{PLAYERS}/{seeded.alice}/rating-history").get_json()
    assert data["rating"]["tournaments"] == len(data["rating"]["history"]) == len(history["points"]) == 3
    assert [p["tournament_id"] for p in data["rating"]["history"]] == [
        p["tournament_id"] for p in history["points"]
    ]
    # Its audit entries, their personal values readable (sealed in the database).
    created_entry = next(
        e for e in data["audit_log"] if e["action"] == "player.create" and e["entity_id"] == seeded.alice
    )
    assert created_entry["after"]["email"] == ALICE["email"]
    assert any(e["action"] == "sanction.create" for e in data["audit_log"])
    assert any(e["action"] == "player.merge" for e in data["audit_log"])


def test_r21_r20_the_exports_rating_is_in_numbers_as_the_api_gives_it(office: Caller, seeded: Seeded) -> None:
    """The rating, mu and sigma, now and after each rated tournament, are JSON numbers equal to
    what the ratings API answers (`GET /api/v1/ratings`, the rating history), not strings."""
    rating = export(office, seeded.alice)["rating"]
    table = office.get("/api/v1/ratings?per_page=100").get_json()["items"]
    (listed,) = [row for row in table if row["player"]["id"] == seeded.alice]
    history = office.get(f"{PLAYERS}/{seeded.alice}/rating-history").get_json()
    for name in ("rating", "mu", "sigma"):
        assert isinstance(rating[name], int | float) and not isinstance(rating[name], bool), rating
        assert rating[name] == listed[name] == history["rating"][name], name
        points = [point[name] for point in rating["history"]]
        assert all(isinstance(value, int | float) for value in points), points
        assert points == [point[name] for point in history["points"]], name


def test_r21_the_export_is_audited_without_personal_values_and_never_cached(
    office: Caller, seeded: Seeded
) -> None:
    export(office, seeded.alice)
    export(office, seeded.alice)
    entries = audit_entries(office, f"action=player.data_export&entity_id={seeded.alice}")
    assert len(entries) == 2
    assert found_in(json.dumps(entries)) == []
    download = office.get(f"{PLAYERS}/{seeded.alice}/data-export?download=true")
    assert download.status_code == 200
    assert download.headers["Content-Disposition"].startswith("attachment")


def test_r21_only_the_office_exports(
    seeded: Seeded, public: Caller, host_for: HostFor, office: Caller
) -> None:
    assert_problem(public.get(f"{PLAYERS}/{seeded.alice}/data-export"), 401)
    assert_problem(host_for(seeded.venue).get(f"{PLAYERS}/{seeded.alice}/data-export"), 403)
    assert_problem(office.get(f"{PLAYERS}/{UNKNOWN_ID}/data-export"), 404)


# The erasure ------------------------------------------------------------------------------------


def test_r21_erasure_removes_the_personal_fields_and_keeps_results_standings_qualifiers_and_ratings(
    office: Caller, seeded: Seeded
) -> None:
    standings = f"{SEASONS}/{seeded.season}/venues/{seeded.venue}/standings"
    qualifiers = f"{SEASONS}/{seeded.season}/qualifiers"
    ratings, history = "/api/v1/ratings?per_page=100", f"{PLAYERS}/{seeded.alice}/rating-history"

    def points(path: str) -> Any:
        response = office.get(path)
        assert response.status_code == 200, response.get_data(as_text=True)
        body = response.get_json()
        assert body
        return json.loads(re.sub(r'"(display_name|label)": "[^"]*"', '"name": ""', json.dumps(body)))

    before = (
        points(standings),
        points(qualifiers),
        points(ratings),
        points(history),
        office.get(f"{SANCTIONS}/{seeded.sanction}").get_json()["kind"],
    )
    assert before[2]["items"] and before[3]["points"]  # R20: rated before, so compared after
    response = erase(office, seeded.dupe)  # a merged-away id: erased with its survivor
    assert response.status_code == 200, response.get_data(as_text=True)
    erased = response.get_json()
    assert erased["player_id"] == seeded.alice
    assert sorted(erased["erased_ids"]) == sorted([seeded.alice, seeded.dupe])
    assert erased["display_name"] == f"Former player {seeded.alice}"
    player = office.get(f"{PLAYERS}/{seeded.alice}").get_json()
    assert player["display_name"] == f"Former player {seeded.alice}"
    assert player["email"] is None and player["membership_number"] is None and player["date_of_birth"] is None
    assert not player["full_name"]
    assert (
        points(standings),
        points(qualifiers),
        points(ratings),
        points(history),
        office.get(f"{SANCTIONS}/{seeded.sanction}").get_json()["kind"],
    ) == before
    # The export of an erased player: the record, no personal values.
    data = export(office, seeded.alice)
    assert {
        data["player"][k] for k in ("full_name", "email", "date_of_birth", "membership_number", "pin")
    } == {None}
    assert found_in(json.dumps(data)) == []
    assert data["player"]["erased"] is True


def test_r21_the_audit_log_reads_erased_and_its_rows_stay(office: Caller, seeded: Seeded) -> None:
    entries_before = audit_entries(office, "entity=player&action=player.create")
    count = office.get("/api/v1/audit-log").get_json()["total"]
    assert any(ALICE["email"] in json.dumps(e) for e in entries_before)
    assert erase(office, seeded.alice).status_code == 200
    after = office.get("/api/v1/audit-log").get_json()["total"]
    assert after == count + 1  # nothing deleted: one entry more, the erasure's
    created_entry = next(
        e
        for e in audit_entries(office, "entity=player&action=player.create")
        if e["entity_id"] == seeded.alice
    )
    assert created_entry["after"]["email"] == "[erased]"
    assert created_entry["after"]["full_name"] == "[erased]"
    assert created_entry["after"]["home_venue_id"] == seeded.venue  # non-personal fields stay plain
    sanction = audit_entries(office, f"entity=sanction&entity_id={seeded.sanction}")[0]
    assert sanction["after"]["reason"] == "[erased]"
    assert sanction["after"]["kind"] == "warning"
    erasure = audit_entries(office, "action=player.erase")[0]
    assert erasure["entity_id"] == seeded.alice and erasure["reason"] == "Asked by email on 1 Dec."
    # Another player's values stay readable.
    other = next(
        e
        for e in audit_entries(office, "entity=player&action=player.create")
        if e["entity_id"] == seeded.others[0]
    )
    assert other["after"]["email"] == "o0@example.org"


def test_r21_search_and_r5_look_alikes_no_longer_find_the_old_name(office: Caller, seeded: Seeded) -> None:
    """Before the erasure a search finds her and a new player of her name is warned of as a
    possible duplicate of her (R5); after it, neither."""
    body = report(seeded.venue, seeded.season, ago(30), seeded.others[:2])
    body["results"].append(
        {"place": 3, "new_player": {"full_name": "Alicia Wonderprivat", "email": "n@example.org"}}
    )

    def look_alikes() -> list[Any]:
        response = office.post(f"{TOURNAMENTS}?dry_run=1", json=body)
        assert response.status_code in (200, 201), response.get_data(as_text=True)
        return [w for w in response.get_json().get("warnings", []) if w.get("code") == "possible_duplicate"]

    assert [p["id"] for p in office.get(f"{PLAYERS}?q=Wonderprivate").get_json()["items"]] == [seeded.alice]
    assert look_alikes()
    assert erase(office, seeded.alice).status_code == 200
    assert office.get(f"{PLAYERS}?q=Wonderprivate").get_json()["items"] == []
    assert look_alikes() == []


def test_r21_the_office_may_choose_the_display_name_but_not_a_personal_value(
    office: Caller, seeded: Seeded
) -> None:
    assert_problem(erase(office, seeded.alice, display_name="Other Person1"), 422, "display_name", rule="R21")
    assert_problem(
        erase(office, seeded.alice, display_name="alicia wonderprivate"), 422, "display_name", rule="R21"
    )
    response = erase(office, seeded.alice, display_name="The Quiet One")
    assert response.status_code == 200
    assert office.get(f"{PLAYERS}/{seeded.alice}").get_json()["display_name"] == "The Quiet One"


def test_r21_r17a_a_second_erasure_is_a_409_and_changes_nothing(office: Caller, seeded: Seeded) -> None:
    assert erase(office, seeded.alice).status_code == 200
    count = office.get("/api/v1/audit-log").get_json()["total"]
    assert_problem(erase(office, seeded.alice, display_name="Someone Else"), 409, rule="R17a")
    assert_problem(erase(office, seeded.dupe), 409, rule="R17a")
    assert office.get("/api/v1/audit-log").get_json()["total"] == count
    assert (
        office.get(f"{PLAYERS}/{seeded.alice}").get_json()["display_name"] == f"Former player {seeded.alice}"
    )


def test_r21_bad_erasures_are_refused_and_change_nothing(
    office: Caller, public: Caller, host_for: HostFor, seeded: Seeded
) -> None:
    host = host_for(seeded.venue)  # (its key's creation is audited)
    count = office.get("/api/v1/audit-log").get_json()["total"]
    assert_problem(office.post(f"{PLAYERS}/{seeded.alice}/erase", json={}), 422, "reason")
    assert_problem(public.post(f"{PLAYERS}/{seeded.alice}/erase", json={"reason": "x"}), 401)
    assert_problem(host.post(f"{PLAYERS}/{seeded.alice}/erase", json={"reason": "x"}), 403)
    assert_problem(erase(office, UNKNOWN_ID), 404)
    assert office.get("/api/v1/audit-log").get_json()["total"] == count
    assert office.get(f"{PLAYERS}/{seeded.alice}").get_json()["email"] == ALICE["email"]


# The sweeps -------------------------------------------------------------------------------------


def example(param: dict[str, Any], ids: dict[str, list[int]]) -> list[str]:
    name = param["name"]
    for stem, values in ids.items():
        if name.startswith(stem):
            return [str(v) for v in values]
    return ["1"]


def test_r21_sweep_no_answer_to_the_office_holds_an_erased_value(office: Caller, seeded: Seeded) -> None:
    """After the erasure, EVERY GET operation of the spec is called as the office with the ids of
    the seeded league (the erased player's first), and no answer holds any personal value of
    hers: not her names, email, date of birth or membership number, nor her duplicate's."""
    assert erase(office, seeded.alice).status_code == 200
    spec = office.get("/openapi.json").get_json()
    ids = {
        "player": [seeded.alice, seeded.dupe],
        "venue": [seeded.venue],
        "season": [seeded.season],
        "tournament": seeded.reports,
        "report": seeded.reports,  # the site's page of a night's result (R24)
        "sanction": [seeded.sanction],
        "merge": [m["id"] for m in office.get("/api/v1/player-merges").get_json()["items"]],
        "region": [r["id"] for r in office.get("/api/v1/regions").get_json()["items"]],
    }
    walked = 0
    leaks = []
    for path, item in spec["paths"].items():
        operation = item.get("get")
        if operation is None:
            continue
        params = [
            p for p in operation.get("parameters", []) + item.get("parameters", []) if p["in"] == "path"
        ]
        urls = [path]
        for param in params:
            urls = [u.replace("{" + param["name"] + "}", v) for u in urls for v in example(param, ids)]
        for url in urls:
            for query in ("", "?per_page=500"):
                response = office.get(url + query)
                walked += 1
                # An image card (R24) is searched as text too: it draws display names only.
                found = found_in(response.get_data().decode("utf-8", "replace"))
                if found:
                    leaks.append((url + query, response.status_code, found))
    assert walked > 40
    assert leaks == []


def text_columns(conn: Connection) -> dict[str, list[str]]:
    """Every table's columns that can hold text: strings, text, JSON (reflected)."""
    found: dict[str, list[str]] = {}
    inspector = inspect(conn)
    for table in inspector.get_table_names():
        for column in inspector.get_columns(table):
            kind = str(column["type"]).upper()
            if any(word in kind for word in ("CHAR", "TEXT", "JSON", "STRING")):
                found.setdefault(table, []).append(column["name"])
    return found


def test_r21_sweep_no_table_of_the_database_holds_an_erased_value_in_plain_text(
    office: Caller, seeded: Seeded, connection: Connection
) -> None:
    """Before the erasure her values are in the database (the scan sees them where the service
    keeps them in plain text: the players table); after it, no text or JSON column of any table
    holds one: the audit log's are sealed under her key, which is gone."""
    columns = text_columns(connection)
    assert {"audit_log", "players", "sanctions", "player_merges", "qualifier_publications"} <= columns.keys()

    def scan() -> list[tuple[str, str, str]]:
        hits = []
        for table, names in columns.items():
            for row in connection.execute(text(f"SELECT {', '.join(names)} FROM {table}")):
                for name, value in zip(names, row, strict=True):
                    if value is None:
                        continue
                    body = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                    hits += [(table, name, secret) for secret in found_in(body)]
        return hits

    before = scan()
    assert {table for table, _, _ in before} >= {"players", "idempotent_requests", "player_merges"}
    assert not any(table == "audit_log" for table, _, _ in before)  # sealed from the first entry
    assert erase(office, seeded.alice).status_code == 200
    assert scan() == []


def test_r18_r21_the_triggers_still_refuse_update_and_delete_after_the_erasure(
    office: Caller, seeded: Seeded, connection: Connection
) -> None:
    assert erase(office, seeded.alice).status_code == 200
    for statement in ("UPDATE audit_log SET reason = 'x'", "DELETE FROM audit_log"):
        with pytest.raises(DatabaseError, match="R18"):  # noqa: SIM117 - the savepoint must roll back
            with connection.begin_nested():
                connection.execute(text(statement))


# The commands: the list of erasures, re-applying it after a restore, retention ------------------


def test_r21_reapply_erasures_erases_again_a_player_whose_data_came_back(
    office: Caller, seeded: Seeded, runner: Any, connection: Connection
) -> None:
    """As after restoring a backup older than the erasure: her personal data is back (written as
    the restore would, past the service) while the list of erasures still names her; the command
    erases her again, audited; a second run finds nothing to do."""
    assert erase(office, seeded.alice).status_code == 200
    listed = runner.invoke(args=["players", "erasures"])
    assert listed.exit_code == 0, listed.output
    assert sorted(listed.output.split()) == sorted([str(seeded.alice), str(seeded.dupe)])
    connection.execute(
        text("UPDATE players SET full_name = :n, email = :e WHERE id = :id"),
        {"n": ALICE["full_name"], "e": ALICE["email"], "id": seeded.alice},
    )
    assert office.get(f"{PLAYERS}/{seeded.alice}").get_json()["email"] == ALICE["email"]
    again = runner.invoke(args=["players", "reapply-erasures"])
    assert again.exit_code == 0, again.output
    assert str(seeded.alice) in again.output
    assert office.get(f"{PLAYERS}/{seeded.alice}").get_json()["email"] is None
    assert len(audit_entries(office, "action=player.erase_reapplied")) == 1
    assert "0 record(s)" in runner.invoke(args=["players", "reapply-erasures"]).output


def test_r21_reapply_erasures_takes_the_ids_kept_from_before_the_restore(
    office: Caller, seeded: Seeded, runner: Any, tmp_path: Any
) -> None:
    """A backup from before the erasure holds no row of it: the ids kept beside the backups name
    her, and the command erases her from them."""
    kept = tmp_path / "erasures.txt"
    kept.write_text(f"{seeded.alice}\n")
    result = runner.invoke(args=["players", "reapply-erasures", "--ids-file", str(kept)])
    assert result.exit_code == 0, result.output
    player = office.get(f"{PLAYERS}/{seeded.alice}").get_json()
    assert player["email"] is None and player["display_name"] == f"Former player {seeded.alice}"


def test_r21_retention_is_off_by_default_and_a_dry_run_changes_nothing(
    office: Caller, seeded: Seeded, runner: Any
) -> None:
    off = runner.invoke(args=["players", "erase-inactive"])
    assert off.exit_code == 0 and "Retention is off" in off.output
    assert office.get("/api/v1/league-settings").get_json()["erase_inactive_after_months"] is None
    response = office.patch("/api/v1/league-settings", json={"erase_inactive_after_months": 1})
    assert response.status_code == 200, response.get_data(as_text=True)
    count = office.get("/api/v1/audit-log").get_json()["total"]
    with time_machine.travel(datetime.now(UTC) + timedelta(days=100), tick=False):
        dry = runner.invoke(args=["players", "erase-inactive", "--dry-run"])
        assert dry.exit_code == 0, dry.output
        assert "Would erase" in dry.output and str(seeded.alice) in dry.output.split(": ")[-1].split()
        assert office.get("/api/v1/audit-log").get_json()["total"] == count
        assert office.get(f"{PLAYERS}/{seeded.alice}").get_json()["email"] == ALICE["email"]


def test_r21_retention_erases_players_with_no_result_in_the_months_set_on_the_league_clock(
    office: Caller, seeded: Seeded, runner: Any, league: League
) -> None:
    """With 2 months set, 100 days on: everyone seeded (last result 50 days before today) is
    erased, audited; a player with a result within the 2 months is kept."""
    assert office.patch("/api/v1/league-settings", json={"erase_inactive_after_months": 2}).status_code == 200
    kept = seeded.others[0]
    later = (datetime.now(UTC) + timedelta(days=90)).date().isoformat()
    season = league.season(name="Later season", starts_on=later, ends_on=later)["id"]
    body = report(seeded.venue, season, later, [kept, seeded.others[1]])
    with time_machine.travel(datetime.now(UTC) + timedelta(days=91), tick=False):
        assert office.post(TOURNAMENTS, json=body).status_code == 201
    with time_machine.travel(datetime.now(UTC) + timedelta(days=100), tick=False):
        result = runner.invoke(args=["players", "erase-inactive"])
        assert result.exit_code == 0, result.output
        erased = {int(i) for i in result.output.split(": ")[-1].split()}
        assert seeded.alice in erased and seeded.dupe in erased and seeded.others[2] in erased
        assert kept not in erased and seeded.others[1] not in erased
        assert office.get(f"{PLAYERS}/{seeded.alice}").get_json()["email"] is None
        assert office.get(f"{PLAYERS}/{kept}").get_json()["email"] == "o0@example.org"
        assert len(audit_entries(office, "action=player.erase")) == len(
            {office.get(f"{PLAYERS}/{i}").get_json()["merged_into_id"] or i for i in erased}
        )


# The master key -----------------------------------------------------------------------------------


def test_r21_the_service_refuses_to_start_on_postgresql_without_audit_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without AUDIT_KEY, a database other than the embedded default is refused at start, saying
    why; given one, it starts."""
    run_key = os.environ.get("AUDIT_KEY", TEST_AUDIT_KEY)
    monkeypatch.delenv("AUDIT_KEY", raising=False)
    elsewhere = "postgresql://postgres@127.0.0.1:5432/nowhere"
    try:
        with pytest.raises(RuntimeError, match="AUDIT_KEY is not set"):
            create_app({"DATABASE_URL": elsewhere, "TESTING": True})
        given = create_app({"DATABASE_URL": elsewhere, "TESTING": True, "AUDIT_KEY": "k" * 40})
        assert given.config["AUDIT_KEY"] == "k" * 40
    finally:
        # The process's keyring is every test app's: the run's own key again.
        sealing.use(sealing.Keyring(run_key))


# The console ----------------------------------------------------------------------------------------


def test_r21_the_consoles_player_page_offers_the_export_as_a_download(
    app: Flask, office: Caller, seeded: Seeded, host_for: HostFor
) -> None:
    console = signed_in(app, office.key)
    page = console.get(f"/console/players/{seeded.alice}/sanctions")
    link = f"/console/players/{seeded.alice}/data-export"
    assert page.status_code == 200 and link in page.get_data(as_text=True)
    download = console.get(link)
    assert download.status_code == 200
    assert download.headers["Content-Disposition"].startswith("attachment")
    assert download.get_json()["player"]["email"] == ALICE["email"]
    assert len(audit_entries(office, "action=player.data_export")) == 1
    host = signed_in(app, host_for(seeded.venue).key)
    assert host.get(link).status_code == 403


def test_r21_the_consoles_audit_page_reads_erased_after_an_erasure(
    app: Flask, office: Caller, seeded: Seeded
) -> None:
    console = signed_in(app, office.key)
    # The reasons of the merge and of the pair told apart name her.
    assert "Not Alicia Wonderprivate." in console.get("/console/audit").get_data(as_text=True)
    assert erase(office, seeded.alice).status_code == 200
    page = console.get("/console/audit").get_data(as_text=True)
    assert found_in(page) == [] and "[erased]" in page


def test_r21_an_erased_record_is_neither_changed_nor_merged_again(office: Caller, seeded: Seeded) -> None:
    """Its audit key is gone, so nothing personal may come back to it: a change of the record or
    a merge with it is refused (409, R21) and changes nothing."""
    assert erase(office, seeded.alice).status_code == 200
    patch = office.patch(f"{PLAYERS}/{seeded.alice}", json={"email": "back@example.org"})
    assert_problem(patch, 409, rule="R21")
    other = created(office, PLAYERS, {"full_name": "Fresh Person", "email": "fresh@example.org"})["id"]
    merged = office.post(f"{PLAYERS}/{other}/merge", json={"duplicate_id": seeded.alice, "reason": "Same."})
    assert_problem(merged, 409, "duplicate_id", rule="R21")
    into = office.post(f"{PLAYERS}/{seeded.alice}/merge", json={"duplicate_id": other, "reason": "Same."})
    assert_problem(into, 409, "duplicate_id", rule="R21")
    assert office.get(f"{PLAYERS}/{seeded.alice}").get_json()["email"] is None
    assert office.get(f"{PLAYERS}/{other}").get_json()["merged_into_id"] is None


def test_r21_another_players_export_withholds_her_values_in_entries_naming_both(
    office: Caller, seeded: Seeded
) -> None:
    """The pair told apart names Bob and her: Bob's export holds the entry, her name withheld;
    hers reads it."""
    bob = seeded.others[0]
    pair = [e for e in export(office, bob)["audit_log"] if e["action"] == "player.not_duplicate"]
    assert pair and all(e["reason"] == "[another player's]" for e in pair)
    assert found_in(json.dumps(export(office, bob))) == []
    hers = [e for e in export(office, seeded.alice)["audit_log"] if e["action"] == "player.not_duplicate"]
    assert hers and all(e["reason"] == "Not Alicia Wonderprivate." for e in hers)
