"""The refresher (`flask --app app deliver`, api/cache/refresher.py): after a write commits, the
answers it retired that the website reads are computed again once, from the scopes it bumped
(what the store filed under each), and filed where every worker reads them, so the first reader
after the write is answered from the store (`X-Cache: hit`) with the answer it would have
computed itself. A write that is refused, or a dry run, leaves nothing to refresh; a live night's
every action refreshes its page through its venue's `night:V` scope, and no event of the outbox
is written for it: the outbox holds R23's events alone."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import delete, select

from api import cache, db
from api.cache import refresher
from api.cache.stores import LayeredStore, make_store
from models.entities import OutboxEvent, WebhookDelivery
from models.freshness.bumps import DATA, Mark
from models.freshness.scopes import Scope
from models.rules.webhooks import EVENT_KINDS
from tests.builders import Scene
from tests.support.nights import NIGHTS, Phone, opened

PAGE = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def deliver(app: Flask) -> str:
    result = app.test_cli_runner().invoke(args=["deliver", "--once"])
    assert result.exit_code == 0, result.output
    return str(result.output)


def waiting(app: Flask) -> list[str]:
    """The scopes bumped since the refresher's mark (what its next pass refreshes)."""
    with app.app_context(), db.reading() as session:
        return refresher.bumped(app, session.connection())[0]


def read(scene: Scene, path: str, **headers: str) -> tuple[str | None, bytes]:
    answer = scene.public.get(path, headers=headers)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.headers.get("X-Cache"), answer.get_data()


def test_after_a_report_the_answers_it_retired_are_computed_once_before_anyone_reads_them(
    app: Flask, scene: Scene, db_session: Any
) -> None:
    """Those the website read lately: the others are computed when (if ever) read."""
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    report = scene.posted(scene.body([a, b, c]))
    s, v = scene.season_id, scene.venue_id
    assert {Scope.venue(s, v), Scope.season(s), Scope.report(report["id"]), DATA} <= set(waiting(app))
    assert " answers refreshed" in deliver(app)
    assert waiting(app) == []
    s, v, region = scene.season_id, scene.venue_id, scene.region["id"]
    reads: list[tuple[str, dict[str, str]]] = [
        (f"/api/v1/seasons/{s}/venues/{v}/standings", {}),
        (f"/embed/seasons/{s}/venues/{v}/standings", PAGE),
        (f"/api/v1/seasons/{s}/qualifiers", {}),
        (f"/api/v1/seasons/{s}/venues/{v}/qualifiers", {}),
        (f"/embed/seasons/{s}/regions/{region}/qualifiers", PAGE),
        (f"/api/v1/tournaments?season_id={s}", {}),
        (f"/api/v1/tournaments?venue_id={v}", {}),
        (f"/api/v1/tournaments/{report['id']}", {}),
        ("/api/v1/tournaments", {}),
        *((f"/api/v1/players/{player}", {}) for player in (a, b, c)),
        # A list's first page at its default size, asked for by name: the same answer.
        (f"/api/v1/tournaments?venue_id={v}&per_page=50", {}),
        (f"/api/v1/ratings?region_id={region}&page=1&per_page=50", {}),
    ]
    for path, headers in reads:  # the website reads them
        read(scene, path, **headers)
    fixed = scene.host.put(
        f"/api/v1/tournaments/{report['id']}", json={**scene.body([b, a, c]), "reason": "Swapped."}
    )
    assert fixed.status_code == 200, fixed.get_json()
    assert Scope.report(report["id"]) in waiting(app)
    assert " answers refreshed" in deliver(app)
    assert waiting(app) == []
    refreshed = {path: read(scene, path, **headers) for path, headers in reads}
    assert {path: how for path, (how, _body) in refreshed.items()} == {path: "hit" for path, _h in reads}
    # Each is the answer a reader would have computed: computed again with nothing cached.
    for path, headers in reads:
        with app.app_context():
            cache.clear()
        how, body = read(scene, path, **headers)
        assert (how, body) == ("miss", refreshed[path][1]), path
    # The league's first page of ratings is one the refresher computes, but nobody read it lately.
    assert read(scene, "/api/v1/ratings")[0] == "miss"
    # Another page size is another answer, computed when read.
    assert read(scene, f"/api/v1/tournaments?venue_id={v}&per_page=20")[0] == "miss"
    # Nothing is waiting: the next pass refreshes nothing.
    assert "0 answers refreshed" in deliver(app)


def test_the_first_read_after_a_correction_shows_it_refreshed_or_not(
    app: Flask, scene: Scene, db_session: Any
) -> None:
    """No answer is stale: a read before the refresher computes the new answer itself, and the
    refresher's answer after it is the same."""
    a, b = scene.players("Ann A.", "Bea B.")
    report = scene.posted(scene.body([a, b]))
    deliver(app)
    fixed = scene.host.put(
        f"/api/v1/tournaments/{report['id']}", json={**scene.body([b, a]), "reason": "Swapped."}
    )
    assert fixed.status_code == 200, fixed.get_json()
    before = scene.public.get(scene.path()).get_json()
    assert [row["player"]["id"] for row in before["standings"]] == [b, a]
    assert Scope.report(report["id"]) in waiting(app)
    deliver(app)
    assert read(scene, scene.path())[0] == "hit"
    after = scene.public.get(scene.path()).get_json()
    assert [row["player"]["id"] for row in after["standings"]] == [b, a]


def test_a_refused_write_or_a_dry_run_leaves_nothing_to_refresh(
    app: Flask, scene: Scene, db_session: Any
) -> None:
    a, b = scene.players("Ann A.", "Bea B.")
    read(scene, scene.path())  # the website reads the standings
    deliver(app)
    assert scene.host.post("/api/v1/tournaments?dry_run=1", json=scene.body([a, b])).status_code == 200
    refused = scene.post(scene.body([a, a]))
    assert refused.status_code == 422
    assert waiting(app) == []
    assert "0 answers refreshed" in deliver(app)


def test_r22_each_action_of_a_live_night_refreshes_its_page_and_is_never_delivered(
    app: Flask, scene: Scene, db_session: Any
) -> None:
    hook = scene.office.post(
        "/api/v1/webhooks",
        json={"url": "https://hooks.example.org/league", "events": ["*"]},
    )
    assert hook.status_code == 201, hook.get_json()
    phone = Phone(scene.host, opened(scene))
    night, venue = phone.night["id"], scene.venue_id
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    for pid in (a, b, c):
        phone.send("sign_in", player={"player_id": pid})
    read(scene, f"/embed/venues/{venue}/night", **PAGE)  # a TV follows the night
    deliveries_before = db_session.scalar(select(WebhookDelivery.id).order_by(WebhookDelivery.id.desc()))
    deliver(app)
    deliver(app)  # after the delivery worker's own bookkeeping (it moves `outbox`)
    phone.send("bust", players=[{"player_id": c}])
    # The bust-out moves its venue's nights alone: no other scope, not the data version.
    assert waiting(app) == [Scope.night(venue)]
    # The bust-out is told to no subscription, and written to no outbox.
    latest = db_session.scalar(select(WebhookDelivery.id).order_by(WebhookDelivery.id.desc()))
    assert latest == deliveries_before
    deliver(app)
    assert waiting(app) == []
    # R23's events alone are in the outbox, kept for their log.
    kinds = set(db_session.scalars(select(OutboxEvent.kind)))
    assert "night.opened" in kinds and kinds <= set(EVENT_KINDS)
    how, page = read(scene, f"/embed/venues/{venue}/night", **PAGE)
    assert how == "hit" and b"Cal C." in page
    # The page's own polling (`fetch`, Accept */*) is answered the same page.
    assert read(scene, f"/embed/venues/{venue}/night", Accept="*/*") == ("hit", page)
    with app.app_context():
        cache.clear()
    # What a reader computes itself (the clock line aside, which moves with the second).
    assert read(scene, f"/embed/venues/{venue}/night")[0] == "miss"
    assert scene.public.get(f"{NIGHTS}/{night}").status_code == 200


def test_r22_a_report_at_a_venue_whose_night_is_followed_refreshes_its_live_page(
    app: Flask, scene: Scene, db_session: Any
) -> None:
    """The live page shows the standings if the night ended now: a report (or correction) at
    the venue moves them, with no action of the night, and the refresher computes the page
    again for the TV that follows it."""
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    phone = Phone(scene.host, opened(scene))
    for pid in (a, b):
        phone.send("sign_in", player={"player_id": pid})
    page = f"/embed/venues/{scene.venue_id}/night"
    _how, before = read(scene, page, **PAGE)  # a TV follows the night
    assert b"Cal C." not in before
    deliver(app)
    scene.report([c, a])  # an earlier night's report, entered late by the office
    assert Scope.venue(scene.season_id, scene.venue_id) in waiting(app)
    deliver(app)
    assert waiting(app) == []
    how, after = read(scene, page, **PAGE)
    assert how == "hit" and b"Cal C." in after


def test_a_report_refreshes_the_venues_standings_read_lately_from_its_scope_alone(
    app: Flask, scene: Scene, db_session: Any
) -> None:
    """One report bumps `venue:S:V`; one pass of the refresher computes again what the store filed
    under it that was read lately (the venue's standings, API and embed), with no event of the
    outbox involved (they are all deleted here before the pass) and no table of URLs."""
    a, b = scene.players("Ann A.", "Bea B.")
    s, v = scene.season_id, scene.venue_id
    paths = [
        (f"/api/v1/seasons/{s}/venues/{v}/standings", {}),
        (f"/embed/seasons/{s}/venues/{v}/standings", PAGE),
    ]
    for path, headers in paths:
        read(scene, path, **headers)
    deliver(app)
    scene.report([a, b])
    assert Scope.venue(s, v) in waiting(app)
    db_session.execute(delete(OutboxEvent))
    assert not hasattr(refresher, "reads_of") and not hasattr(OutboxEvent, "refreshed_at")
    assert "answers refreshed" in deliver(app)
    for path, headers in paths:
        how, body = read(scene, path, **headers)
        assert how == "hit" and b"Ann A." in body, path


def test_a_restart_resumes_from_the_mark_kept_in_the_shared_store(app: Flask, scene: Scene) -> None:
    """The mark is kept beside the answers (the embedded store's directory here): a new process
    opening the store reads it, refreshes what was bumped after it, and nothing before it."""
    a, b = scene.players("Ann A.", "Bea B.")
    standings = scene.path()
    read(scene, standings)
    deliver(app)
    before: LayeredStore = app.extensions["league_cache"]
    before.flush()  # what this process told lately, as a stopping worker's teller has told it
    kept = Mark.loads(before.mark())
    assert kept.seq > 0
    restarted = make_store(app.config)
    app.extensions["league_cache"] = restarted
    try:
        assert Mark.loads(restarted.mark()) == kept
        assert waiting(app) == []  # nothing done again
        scene.report([a, b])
        assert waiting(app) != []
        deliver(app)  # the restarted worker's pass
        assert Mark.loads(restarted.mark()).seq > kept.seq
        how, body = read(scene, standings)
        assert how == "hit" and b"Ann A." in body
    finally:
        app.extensions["league_cache"] = before
        with app.app_context():
            cache.clear()
