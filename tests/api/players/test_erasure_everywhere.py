"""R21: an erasure forgets everywhere, through HTTP on both databases. The hostile probe's steps:
Zelda Quixote-Marlowe is named in free text the office and hosts write about her and about
others (a sanction's reason, another player's sanction, a publication's note, a cancelled
night's note, a 25-entrant report's correction, a void's reason with her date of birth), her
display name changes once, writes naming her are sent with an Idempotency-Key, and she asks for
the weekly email herself (R23: a request holding her address, waiting for the delivery worker;
then a confirmation link). After her
erasure no answer, no column and no audit entry holds any of her values, in any spelling; a
retried key replays its first answer (scrubbed) and stores nothing again; text written later that
names her is stored with "[erased]"; and the office's new display name for her names no one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from redis import Redis
from sqlalchemy import Connection, inspect, text
from sqlalchemy.orm import Session

from api.cache.stores import RedisStore
from api.emails.worker import confirm_requests
from tests.builders import AUDIT_LOG, OFFICE_LATE, SANCTIONS, SEASONS, TOURNAMENTS, ago, sanction_body
from tests.support.league import Caller, League, assert_problem, new_key
from tests.support.servers import REDIS_URL, redis_answers

PLAYERS = "/api/v1/players"
SUBSCRIPTIONS = "/api/v1/email-subscriptions"
ZELDA = {
    "full_name": "Zelda Quixote-Marlowe",
    "email": "zelda.qm@example.org",
    "date_of_birth": "1988-07-14",
    "membership_number": "198807140042",
}
# Her values as they could be written anywhere, folded; any of them in an answer or column leaks.
SPELLINGS = (
    "zelda quixote",
    "quixote-marlowe",
    "quixote marlowe",
    "quixotemarlowe",
    "zelda.qm",
    "1988-07-14",
    "14/07/1988",
    "198807140042",
    "zelda q.",
)
REASON = "Asked by email on 1 Dec."


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def leaks(body: str) -> list[str]:
    folded = body.casefold()
    return [spelling for spelling in SPELLINGS if spelling in folded]


class Probe:
    """The league the probe ran against, and her traces in it."""

    def __init__(self, office: Caller, league: League) -> None:
        self.office = office
        region = league.region(name="Probe Marches")
        self.region = region["id"]
        self.venue = league.venue(region["id"], name="The Quill")["id"]
        self.past = league.season(
            name="Probe autumn", starts_on=ago(90), ends_on=ago(20), region_ids=[region["id"]]
        )["id"]
        self.running = league.season(
            name="Probe winter", starts_on=ago(10), ends_on=ago(-60), region_ids=[region["id"]]
        )["id"]
        self.zelda = ok(office.post(PLAYERS, json={**ZELDA, "home_venue_id": self.venue}), 201)["id"]
        self.others = [
            ok(
                office.post(PLAYERS, json={"full_name": f"Other Probe{n}", "email": f"p{n}@example.org"}), 201
            )["id"]
            for n in range(24)
        ]
        # A report sent with a key while her display name is "Zelda Q." (its answer names her).
        self.report_key = {"Idempotency-Key": "probe-report"}
        self.report_body = self.report(ago(80), [self.zelda, *self.others[:3]])
        first = office.post(TOURNAMENTS, json=self.report_body, headers=self.report_key)
        self.first_report = ok(first, 201)
        ok(office.patch(f"{PLAYERS}/{self.zelda}", json={"display_name": "Zed M."}))
        # Her own sanction, its reason naming her, sent with a key.
        self.sanction_key = {"Idempotency-Key": "probe-sanction"}
        self.sanction_body = sanction_body(
            self.zelda,
            "warning",
            "berating",
            first_day=ago(70),
            last_day=ago(70),
            reason="Zelda Quixote-Marlowe (zelda.qm@example.org) shouted at the dealer.",
        )
        self.sanction = ok(office.post(SANCTIONS, json=self.sanction_body, headers=self.sanction_key), 201)
        # Another player's sanction naming her by her membership number.
        self.bob = self.others[0]
        ok(
            office.post(
                SANCTIONS,
                json=sanction_body(
                    self.bob,
                    "warning",
                    "berating",
                    first_day=ago(69),
                    last_day=ago(69),
                    reason="Pushed Zelda Quixote-Marlowe, member 198807140042.",
                ),
            ),
            201,
        )
        # A 25-entrant report, corrected with a reason naming her (not sealed when its report
        # named more than 20 players).
        big = ok(office.post(TOURNAMENTS, json=self.report(ago(60), [*self.others, self.zelda])), 201)
        swapped = self.report(ago(60), [self.others[0], self.zelda, *self.others[1:]])
        ok(
            office.put(
                f"{TOURNAMENTS}/{big['id']}",
                json={"results": swapped["results"], "reason": "Swapped: Zelda Quixote-Marlowe was second"},
            )
        )
        # A report voided with her date of birth in the reason.
        small = ok(office.post(TOURNAMENTS, json=self.report(ago(50), [self.zelda, *self.others[4:6]])), 201)
        ok(
            office.post(
                f"{TOURNAMENTS}/{small['id']}/void",
                json={"reason": "Wrong night: her birthday 14/07/1988 was typed as the date."},
            )
        )
        # The lists published with a note congratulating her.
        ok(
            office.post(
                f"{SEASONS}/{self.past}/qualifiers/publish",
                json={"settlements": [], "note": "Congratulations Zelda Quixote-Marlowe, our champion!"},
            ),
            201,
        )
        # An added night of the running season, its note naming her.
        self.exception = ok(
            office.post(
                f"/api/v1/venues/{self.venue}/schedule-exceptions",
                json={
                    "kind": "added",
                    "date": ago(-7),
                    "starts_at": "19:00",
                    "sessions": 1,
                    "note": "Birthday night for Zelda Quixote-Marlowe",
                },
            ),
            201,
        )
        # She asks for the weekly email herself (R23), typed as she types it: a request holding
        # her address waits for the delivery worker.
        asked = Caller(office.client, None).post(SUBSCRIPTIONS, json={"email": "Zelda.QM@example.org"})
        assert asked.status_code == 202, asked.get_data(as_text=True)

    def report(self, day: str, order: list[int]) -> dict[str, Any]:
        season = self.past if day < ago(15) else self.running
        return {
            "venue_id": self.venue,
            "season_id": season,
            "date": day,
            "results": [{"place": place, "player_id": pid} for place, pid in enumerate(order, start=1)],
            "reason": OFFICE_LATE,
        }

    def erase(self, **body: Any) -> Any:
        return self.office.post(f"{PLAYERS}/{self.zelda}/erase", json={"reason": REASON, **body})

    def public_answers(self, public: Caller) -> dict[str, str]:
        paths = [
            f"{SEASONS}/{self.past}/qualifiers",
            f"/embed/seasons/{self.past}/regions/{self.region}/qualifiers",
            f"/api/v1/games?from={ago(0)}&to={ago(-20)}",
            f"/api/v1/venues/{self.venue}/calendar.ics",
            f"/api/v1/regions/{self.region}/calendar.ics",
            f"/embed/regions/{self.region}/games",
        ]
        answers = {}
        for path in paths:
            response = public.get(path)
            assert response.status_code == 200, (path, response.get_data(as_text=True))
            answers[path] = response.get_data(as_text=True)
        return answers


@pytest.fixture()
def probe(office: Caller, league: League) -> Probe:
    return Probe(office, league)


def text_columns(connection: Connection) -> dict[str, list[str]]:
    """Every text-like and JSON column of every table."""
    found: dict[str, list[str]] = {}
    inspector = inspect(connection)
    for table in inspector.get_table_names():
        for column in inspector.get_columns(table):
            kind = str(column["type"]).upper()
            if any(word in kind for word in ("CHAR", "TEXT", "JSON", "CLOB", "STRING")):
                found.setdefault(table, []).append(column["name"])
    return found


def stored_leaks(connection: Connection) -> list[str]:
    """Where a column of the database holds one of her values in plain text."""
    wrong = []
    for table, columns in text_columns(connection).items():
        for column in columns:
            for (value,) in connection.execute(text(f'SELECT "{column}" FROM "{table}"')):
                shown = value if isinstance(value, str) else json.dumps(value)
                if value is not None and leaks(shown):
                    wrong.append(f"{table}.{column}: {leaks(shown)}")
    return wrong


def test_r21_free_text_public_and_stored_reads_erased_after_the_erasure(
    probe: Probe, public: Caller, connection: Connection
) -> None:
    """R21: the publication's note (qualifiers, embed), the added night's note (games, both
    feeds, the games page), another player's sanction reason and a void's reason held her
    values; after the erasure none does, in any answer or any column of the database."""
    before = probe.public_answers(public)
    assert any(leaks(body) for body in before.values())  # the probe's finding, before
    ok(probe.erase())
    after = {path: leaks(body) for path, body in probe.public_answers(public).items()}
    assert after == dict.fromkeys(after, [])
    assert "[erased]" in public.get(f"{SEASONS}/{probe.past}/qualifiers").get_data(as_text=True)
    assert stored_leaks(connection) == []


def test_r21_r23_her_request_for_the_weekly_email_and_its_link_are_forgotten(
    probe: Probe, app: Flask, connection: Connection
) -> None:
    """R21, R23: her request for the weekly email held her address, and the worker's pass made
    her a confirmation link (another request still waiting); after the erasure neither the
    requests nor the link remain, and no column holds her address."""
    sessions = app.extensions["league_db"].sessionmaker

    @contextmanager
    def session() -> Iterator[Session]:
        with sessions() as opened:
            yield opened

    assert confirm_requests(session) == 1  # her link, queued
    ok(Caller(probe.office.client, None).post(SUBSCRIPTIONS, json={"email": ZELDA["email"]}), 202)
    assert any(where.startswith("email_subscription_requests.address") for where in stored_leaks(connection))
    held = "SELECT count(*) FROM email_confirmations WHERE player_id = :p"
    assert connection.execute(text(held), {"p": probe.zelda}).scalar() == 1
    ok(probe.erase())
    assert stored_leaks(connection) == []
    assert connection.execute(text("SELECT count(*) FROM email_subscription_requests")).scalar() == 0
    assert connection.execute(text(held), {"p": probe.zelda}).scalar() == 0


def test_r21_audit_entries_not_naming_her_by_id_read_erased(probe: Probe) -> None:
    """R21: sanction.create for another player, tournament.correct of a 25-entrant report,
    qualifiers.publish, schedule_exception.create and tournament.void held her values in free
    text; after the erasure the audit log reads "[erased]" there, and the entries stay (R18)."""
    actions = (
        "sanction.create",
        "tournament.correct",
        "qualifiers.publish",
        "schedule_exception.create",
        "tournament.void",
    )
    logs = {action: ok(probe.office.get(f"{AUDIT_LOG}?per_page=100&action={action}")) for action in actions}
    assert all(logs[action]["items"] for action in actions)
    ok(probe.erase())
    for action in actions:
        log = ok(probe.office.get(f"{AUDIT_LOG}?per_page=100&action={action}"))
        assert log["total"] == logs[action]["total"]
        assert leaks(json.dumps(log["items"])) == [], action
    assert "[erased]" in json.dumps(
        ok(probe.office.get(f"{AUDIT_LOG}?per_page=100&action=tournament.correct"))
    )


def test_r21_r17a_a_retried_key_replays_its_first_answer_after_the_erasure(probe: Probe) -> None:
    """R21, R17a: after the erasure a retried sanction (same key, same body) answers its first
    answer, scrubbed, and records nothing again; a retried report's replay names her by no
    earlier display name ("Zelda Q.")."""
    sanctions_before = ok(probe.office.get(f"{SANCTIONS}?player_id={probe.zelda}"))["total"]
    audited = ok(probe.office.get(f"{AUDIT_LOG}?per_page=1&action=sanction.create"))["total"]
    ok(probe.erase())
    retried = probe.office.post(SANCTIONS, json=probe.sanction_body, headers=probe.sanction_key)
    assert retried.status_code == 201 and retried.headers.get("Idempotent-Replayed") == "true"
    assert retried.get_json()["id"] == probe.sanction["id"]
    assert leaks(retried.get_data(as_text=True)) == []
    assert ok(probe.office.get(f"{SANCTIONS}?player_id={probe.zelda}"))["total"] == sanctions_before
    assert ok(probe.office.get(f"{AUDIT_LOG}?per_page=1&action=sanction.create"))["total"] == audited
    report = probe.office.post(TOURNAMENTS, json=probe.report_body, headers=probe.report_key)
    assert report.status_code == 201 and report.headers.get("Idempotent-Replayed") == "true"
    assert report.get_json()["id"] == probe.first_report["id"]
    assert leaks(report.get_data(as_text=True)) == []


def test_r21_text_written_after_the_erasure_naming_her_is_stored_erased(
    probe: Probe, connection: Connection
) -> None:
    """R21: a new sanction (a new key) whose reason names her, in another spelling, after her
    erasure is stored with "[erased]" in place of each value; so are a note and a void reason."""
    ok(probe.erase())
    body = sanction_body(
        probe.zelda,
        "warning",
        "berating",
        first_day=ago(30),
        last_day=ago(30),
        reason="Again: ZELDA QUIXOTE MARLOWE <Zelda.QM@example.org>, born 14 July 1988.",
    )
    made = ok(probe.office.post(SANCTIONS, json=body, headers={"Idempotency-Key": "later"}), 201)
    assert made["reason"] == "Again: [erased] <[erased]>, born [erased]."
    lifted = ok(
        probe.office.post(f"{SANCTIONS}/{made['id']}/lift", json={"reason": "Zelda Quixote apologised"})
    )
    assert lifted["lift_reason"] == "[erased] apologised"
    exception = ok(
        probe.office.post(
            f"/api/v1/venues/{probe.venue}/schedule-exceptions",
            json={
                "kind": "added",
                "date": ago(-8),
                "starts_at": "20:00",
                "note": "Make-up for zelda quixote-marlowe's cup",
            },
        ),
        201,
    )
    assert exception["note"] == "Make-up for [erased]'s cup"
    assert stored_leaks(connection) == []


def test_r21_exports_withhold_and_forget_her_values(probe: Probe) -> None:
    """R21: another player's export reads "[another player's]" where his sanction's reason
    names her (before her erasure too); her own export after it holds none of her values."""
    bobs = ok(probe.office.get(f"{PLAYERS}/{probe.bob}/data-export"))
    assert leaks(json.dumps(bobs)) == []
    assert "[another player's]" in json.dumps(bobs["sanctions"])
    ok(probe.erase())
    hers = ok(probe.office.get(f"{PLAYERS}/{probe.zelda}/data-export"))
    assert leaks(json.dumps(hers)) == []
    assert leaks(json.dumps(ok(probe.office.get(f"{PLAYERS}/{probe.bob}/data-export")))) == []


NAMING_HER = [
    "Zelda Quixote-Marlowe.",
    "Zelda Quixote",
    "Quixote-Marlowe",
    "zelda.qm",
    "19880714",
    "14.07.1988",
    "Ζelda Quixote-Marlowe",  # a Greek capital zeta
    "Zеlda Quixote-Marlowe",  # a Cyrillic e
    "ZELDA  QUIXOTE MARLOWE",
    "Zed M.",  # her display name before
    "Other Probe3.",  # another player's full name
    "p5@example.org",  # another player's email
]


@pytest.mark.parametrize("name", NAMING_HER)
def test_r21_the_new_display_name_names_no_one(probe: Probe, name: str) -> None:
    """R21: the office's display name for her is compared in every spelling (case, accents,
    punctuation, look-alike letters) with every value of hers, now or before, and with every
    other player's: each of these is refused, naming display_name, and nothing is erased."""
    assert_problem(probe.erase(display_name=name), 422, "display_name", rule="R21")
    assert ok(probe.office.get(f"{PLAYERS}/{probe.zelda}"))["full_name"] == ZELDA["full_name"]


def test_r21_a_display_name_of_no_one_is_taken(probe: Probe) -> None:
    """R21: a name of no one (with a word of hers not among them) is taken."""
    assert (
        ok(probe.erase(display_name="The Quill's champion 2026"))["display_name"]
        == "The Quill's champion 2026"
    )


def test_r21_the_erasure_purges_the_answers_cached_in_redis(probe: Probe, make_app: Any) -> None:
    """R21: with CACHE_URL set, answers holding her values were cached in Redis (the qualifiers
    with the note, her profile to the office); the erasure purges them, not only retires them."""
    if not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    app = make_app(CACHE_URL=REDIS_URL, TESTING=True)
    client = app.test_client()
    office = Caller(client, new_key(app, "office"))
    app.extensions["league_cache"].clear()
    probe.public_answers(Caller(client, None))
    ok(office.get(f"{PLAYERS}/{probe.zelda}"))
    ok(office.get(f"{SANCTIONS}?player_id={probe.bob}"))
    redis = Redis.from_url(REDIS_URL)

    def cached_leaks() -> list[str]:
        found = []
        for key in redis.scan_iter(match=f"{RedisStore.PREFIX}*"):
            found += leaks((redis.get(key) or b"").decode("utf-8", "replace"))
        return found

    assert cached_leaks()  # the probe's finding, before
    ok(office.post(f"{PLAYERS}/{probe.zelda}/erase", json={"reason": REASON}))
    assert cached_leaks() == []
