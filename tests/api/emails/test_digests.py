"""R23: the weekly digest, composed on the league's clock (R2a) for each player who asked for it
and for no one else, once per player and week: where they stand at each venue they played this
season (R11), how far from the venue's cut (R12), their venues' nights in the coming week, and
their rating (R20). Checked by hand on a venue of three reports of ten."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities import EmailMessage
from tests.builders import Scene, said

PLAYERS = "/api/v1/players"
# Places 1, 2 and 3 score 10, 6 and 3; the rest nothing.
CHART = {"kind": "bands", "bands": [{"min_entrants": 2, "max_entrants": 40, "points": [10, 6, 3]}]}


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return None if status == 204 else response.get_json()


def consent(scene: Scene, player: int) -> None:
    ok(scene.host.put(f"{PLAYERS}/{player}/email-consent"))


def digests(db_session: Session) -> dict[int, EmailMessage]:
    db_session.expire_all()
    return {m.player_id: m for m in db_session.scalars(select(EmailMessage).order_by(EmailMessage.id))}


def three_reports(scene: Scene) -> tuple[int, int, int, int]:
    """Ann, Bea, Cal and Dan in three reports of ten: Ann 10+10+6 = 26, Bea 6+6+10 = 22,
    Cal 3+0+3 = 6, Dan 0+3+0 = 3. Ten entrants a night and a cut of 0.20: a quota of 2, so Ann
    and Bea are inside the cut and its last player has 22 points."""
    chart = scene.league.chart(**CHART)
    assert scene.patch(points_chart_id=chart["id"]).status_code == 200
    ann, bea, cal, dan = scene.players("Ann A.", "Bea B.", "Cal C.", "Dan D.")
    six = scene.fillers(6)
    scene.report([ann, bea, cal, dan, *six])
    scene.report([ann, bea, dan, cal, *six])
    scene.report([bea, ann, cal, dan, *six])
    return ann, bea, cal, dan


def test_r23_a_digest_is_composed_for_a_consenting_player_and_none_for_others(
    scene: Scene, worker: Any, monday: datetime, db_session: Session
) -> None:
    ann, bea, cal, dan = three_reports(scene)
    # The venue plays on the digest's weekday, at 19:30 (R2a: the league's zone is UTC here).
    night = {"weekday": monday.isoweekday(), "starts_at": "19:30", "sessions": 1}
    ok(scene.office.put(f"/api/v1/venues/{scene.venue_id}/schedule", json={"schedule": [night]}))
    consent(scene, ann)
    consent(scene, cal)
    # The API agrees with the hand count.
    rows = {r["player"]["id"]: (r["rank"], r["points"]) for r in scene.rows()}
    assert (rows[ann], rows[bea], rows[cal], rows[dan]) == ((1, 26), (2, 22), (3, 6), (4, 3))

    assert worker.queue(monday) == 2
    queued = digests(db_session)
    assert set(queued) == {ann, cal}  # Bea and Dan never asked
    cal_digest = queued[cal]
    year, week, _ = (monday.date() - timedelta(days=monday.weekday())).isocalendar()
    assert (cal_digest.kind, cal_digest.period, cal_digest.state) == (
        "digest",
        f"{year}-W{week:02d}",
        "pending",
    )
    assert "Cal" not in cal_digest.subject and "@" not in cal_digest.subject
    body = cal_digest.body
    venue, season = scene.venue["name"], scene.season["name"]
    assert body.startswith("Hello Cal C.,\n")
    standing = f"- {venue} ({season}): rank 3 with 6 points (3 played). Top 2 qualify: you are "
    assert standing + "16 points from the cut.\n" in body
    day = monday.date()
    assert f"- {said(day)}, 19:30, {venue}\n" in body  # R24: in the league's words
    rating = ok(scene.public.get(f"{PLAYERS}/{cal}"))["rating"]
    shown = f"{Decimal(str(rating['rating'])):.2f}"
    assert (
        f"Your skill rating: {shown} after 3 rated nights (provisional: your rating settles after 5 nights)."
        in body
    )
    assert "how well a player finishes against the players they meet" in body  # R20: what it means
    assert "rank 1 with 26 points (3 played). Top 2 qualify: you are inside the cut." in queued[ann].body
    # Once a week: a second pass (or a second worker) queues nothing more.
    assert worker.queue(monday + timedelta(hours=2)) == 0
    assert len(digests(db_session)) == 2


def test_r23_r2a_the_week_starts_on_monday_at_eight_on_the_leagues_clock(
    scene: Scene, worker: Any, monday: datetime, db_session: Session
) -> None:
    """Before Monday 08:00 (league time) nothing is due; from then each week's digest is queued
    once, and a player who asks later in the week gets that week's."""
    ann, bea = scene.players("Ann A.", "Bea B.")
    scene.report([ann, bea])
    consent(scene, ann)
    start = datetime.combine(monday.date() - timedelta(days=monday.weekday()), datetime.min.time())
    assert worker.queue(start + timedelta(hours=7, minutes=59)) == 0
    assert worker.queue(start + timedelta(hours=8)) == 1
    consent(scene, bea)  # asked on the Wednesday
    assert worker.queue(start + timedelta(days=2, hours=12)) == 1
    assert worker.queue(start + timedelta(days=6, hours=23)) == 0
    assert worker.queue(start + timedelta(days=7, hours=8)) == 2  # the next week's
    periods = sorted((m.player_id, m.period) for m in db_session.scalars(select(EmailMessage)))
    assert len(periods) == 4 and len({p for _player, p in periods}) == 2


def test_r23_no_digest_without_consent_or_an_address(scene: Scene, worker: Any, monday: datetime) -> None:
    """R23: consent withdrawn, or no email on file: nothing is composed."""
    ann, bea = scene.players("Ann A.", "Bea B.")
    scene.report([ann, bea])
    consent(scene, ann)
    consent(scene, bea)
    ok(scene.host.delete(f"{PLAYERS}/{ann}/email-consent"), 204)
    ok(scene.office.patch(f"{PLAYERS}/{bea}", json={"email": None}))
    assert worker.queue(monday) == 0
