"""How the sanction checks reach the database (R15, R16): one query for a whole report, and the SQL
form of "runs on a day" agreeing with the pure rule's."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection, select

from models.entities import Sanction
from models.services.sanctions.queries import runs_on
from tests.builders import Scene, days_ago, utc_today
from tests.support.statements import statements


def test_r16_a_report_of_40_players_checks_sanctions_in_one_query(
    scene: Scene, connection: Connection
) -> None:
    """R16: the check loads the sanctions of all the report's players at once, not one by one."""
    ids = scene.add_players(40)
    for player_id in ids[:3]:
        response = scene.office.post(
            "/api/v1/sanctions",
            json={"player_id": player_id, "kind": "warning", "category": "late_arrival", "reason": "late"},
        )
        assert response.status_code == 201
    with statements(connection) as seen:
        scene.posted(scene.body(ids))
    on_sanctions = [s for s in seen if "FROM sanctions" in s]
    assert len(on_sanctions) == 1, on_sanctions


def test_r15_sql_and_rule_agree_on_the_days_a_sanction_runs(scene: Scene, db_session: Any) -> None:
    """R15: `runs_on` in SQL (lists, the door list) and `Terms.runs_on` (report checks) give the
    same answer on every day around a sanction's edges, lifted or not."""
    player = scene.add_players(1)[0]
    made = []
    for first, last in ((30, 16), (20, None), (5, 5)):
        body = {
            "player_id": player,
            "kind": "suspension" if last != 5 else "venue_ban",
            "category": "fighting",
            "first_day": days_ago(first).isoformat(),
            "last_day": None if last is None else days_ago(last).isoformat(),
            "reason": "test",
        }
        if body["kind"] == "venue_ban":
            body["venue_id"] = scene.venue_id
        response = scene.office.post("/api/v1/sanctions", json=body)
        assert response.status_code == 201, response.get_json()
        made.append(response.get_json()["id"])
    lifted = scene.office.post(f"/api/v1/sanctions/{made[1]}/lift", json={"reason": "appeal"})
    assert lifted.status_code == 200
    sanctions = db_session.scalars(select(Sanction).where(Sanction.id.in_(made))).all()
    assert len(sanctions) == 3
    for offset in range(-2, 35):
        day: date = utc_today() - timedelta(days=offset)
        in_sql = set(db_session.scalars(select(Sanction.id).where(Sanction.id.in_(made), runs_on(day))))
        in_rule = {s.id for s in sanctions if s.terms.runs_on(day)}
        assert in_sql == in_rule, day
