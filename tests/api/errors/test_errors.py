"""Every error is application/problem+json ("Conventions"): routing, bodies, limits, 500s."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from sqlalchemy import text

from api import db
from app import config_from_env
from models.services.players import writes as players
from tests.support.league import Caller, assert_problem, new_key


def test_unknown_path_404(public):
    for path in ("/api/v1/nothing-here", "/nowhere", "/api/v1/seasons/abc"):
        body = assert_problem(public.get(path), 404)
        assert body["title"] == "Not Found"


def test_wrong_method_405(public, office):
    response = public.delete("/api/v1/regions")
    assert_problem(response, 405)
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "POST"}
    assert_problem(office.put("/api/v1/seasons", json={}), 405)


def test_malformed_json_400(office):
    response = office.post("/api/v1/regions", data='{"name": "North"', content_type="application/json")
    body = assert_problem(response, 400, "body")
    assert "JSON" in body["detail"]
    assert office.get("/api/v1/regions").get_json()["total"] == 0


def test_json_that_is_not_an_object_422(office):
    response = office.post("/api/v1/regions", json=["North"])
    assert_problem(response, 422, "body")


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/xml", "text/csv", None],
)
def test_a_body_that_is_not_json_400(office, content_type):
    """A body that is not JSON is a 400, whatever type it claims."""
    kwargs = {"content_type": content_type} if content_type else {}
    response = office.post("/api/v1/regions", data="name=North", **kwargs)
    body = assert_problem(response, 400)
    assert "application/json" in body["detail"]
    assert office.get("/api/v1/regions").get_json()["total"] == 0


def test_body_too_large_413(make_app):
    fresh = make_app(MAX_CONTENT_LENGTH=1024)
    office = Caller(fresh.test_client(), new_key(fresh, "office"))
    response = office.post("/api/v1/regions", json={"name": "N" * 2000})
    body = assert_problem(response, 413)
    assert "larger" in body["detail"]
    # A body under the limit is served by the same app.
    assert office.post("/api/v1/regions", json={"name": "North"}).status_code == 201
    assert office.get("/api/v1/regions").get_json()["total"] == 1


def test_default_body_limit_is_2_mb_413(app, office, monkeypatch):
    monkeypatch.delenv("MAX_CONTENT_LENGTH", raising=False)
    assert config_from_env()["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024
    limit = app.config["MAX_CONTENT_LENGTH"]
    response = office.post("/api/v1/regions", json={"name": "N" * (limit + 1)})
    assert_problem(response, 413)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/seasons/99999999999",
        "/api/v1/venues/99999999999",
        "/api/v1/players/99999999999",
        "/api/v1/points-charts/99999999999",
        "/api/v1/points-charts/99999999999/preview?entrants=5",
        "/api/v1/regions/99999999999",
        "/api/v1/seasons/0",
        "/api/v1/seasons/-1",
        "/api/v1/seasons/2147483648",
    ],
)
def test_huge_or_bad_ids_in_paths_are_404(office, path):
    assert_problem(office.get(path), 404)


def test_huge_ids_elsewhere_are_422(office):
    assert_problem(office.get("/api/v1/seasons?region_id=99999999999"), 422, "region_id")
    response = office.post("/api/v1/venues", json={"name": "V", "region_id": 99999999999})
    assert_problem(response, 422, "region_id")
    response = office.patch("/api/v1/seasons/99999999999", json={"min_age": 18})
    assert_problem(response, 404)


def test_unexpected_exception_is_a_bare_500(make_app, caplog):
    fresh = make_app()

    @fresh.get("/api/v1/explode")
    def explode() -> Any:
        raise RuntimeError("secret internals")

    with caplog.at_level(logging.ERROR, logger="league.errors"):
        response = fresh.test_client().get("/api/v1/explode", headers={"X-Request-ID": "req-500-test"})
    body = assert_problem(response, 500)
    text = response.get_data(as_text=True)
    assert "secret internals" not in text
    assert "RuntimeError" not in text and "Traceback" not in text
    assert body["request_id"] == "req-500-test"
    assert response.headers["X-Request-ID"] == "req-500-test"
    # The details go to the log, under the request id, instead.
    assert "req-500-test" in caplog.text and "secret internals" in caplog.text


def test_rate_limited_429(make_app):
    """The third call in a minute is a 429 with Retry-After; the answers before it say how many
    are left, and do not say to wait."""
    fresh = make_app(RATELIMIT_ENABLED=True, RATELIMIT_DEFAULT="2 per minute")
    client = fresh.test_client()
    for left in ("1", "0"):
        allowed = client.get("/api/v1/regions")
        assert allowed.status_code == 200 and allowed.headers["X-RateLimit-Remaining"] == left
        assert "Retry-After" not in allowed.headers
    response = client.get("/api/v1/regions")
    assert_problem(response, 429)
    assert int(response.headers["Retry-After"]) > 0
    # The health check is not an API call and is not limited.
    assert client.get("/health").status_code == 200


def test_request_id_is_echoed_or_made(public):
    given = public.get("/api/v1/nothing", headers={"X-Request-ID": "abc-123"})
    assert given.get_json()["request_id"] == "abc-123"
    assert given.headers["X-Request-ID"] == "abc-123"
    made = public.get("/api/v1/nothing", headers={"X-Request-ID": "<script>"})
    assert made.get_json()["request_id"] != "<script>"
    assert len(made.get_json()["request_id"]) == 32


def test_rule_violation_names_the_rule(league):
    """A 422 that a league rule refuses carries the rule id in detail, type and rule."""
    league.season()
    response = league.office.post(
        "/api/v1/seasons", json={"name": "Clash", "starts_on": "2026-02-01", "ends_on": "2026-02-28"}
    )
    body = assert_problem(response, 422, rule="R2")
    assert body["rule"] == "R2"
    assert body["type"].endswith("R2")


DEEP_ARRAY = "[" * 2000 + "]" * 2000
DEEP_OBJECT = '{"a": ' * 2000 + "1" + "}" * 2000
HUGE_NUMBER = "9" * 5000


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT, "[" * 40 + "]" * 40])
@pytest.mark.parametrize(
    ("method", "path"),
    [("post", "/api/v1/tournaments"), ("post", "/api/v1/players"), ("post", "/api/v1/regions")],
)
def test_json_nested_too_deep_is_a_400_naming_the_body(office, method, path, body):
    """JSON nested thousands deep broke every reader of the body (a 500); nested deeper than any
    league body (32 levels) it is a 400 that names the body, and nothing is stored."""
    before = office.get("/api/v1/regions").get_json()["total"]
    response = getattr(office, method)(path, data=body, content_type="application/json")
    problem = assert_problem(response, 400, "body")
    assert "deeper than 32" in problem["errors"]["body"][0]
    assert office.get("/api/v1/regions").get_json()["total"] == before


def test_json_nested_as_deep_as_a_league_body_is_read(office):
    """A body just within the depth is read as usual (here refused by its schema, a 422)."""
    body = '{"name": ' + "[" * 30 + "1" + "]" * 30 + "}"
    assert_problem(office.post("/api/v1/regions", data=body, content_type="application/json"), 422, "name")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/v1/regions", '{"name": ' + HUGE_NUMBER + "}"),
        (
            "post",
            "/api/v1/players",
            '{"full_name": "A B", "email": "a@b.org", "home_venue_id": ' + HUGE_NUMBER + "}",
        ),
        (
            "post",
            "/api/v1/tournaments",
            '{"venue_id": ' + HUGE_NUMBER + ', "date": "2026-01-01", "results": []}',
        ),
        ("patch", "/api/v1/league-settings", '{"min_suspension_days": ' + HUGE_NUMBER + "}"),
    ],
)
def test_a_number_of_thousands_of_digits_is_a_400_naming_the_body(office, method, path, body):
    """Python reads at most 4,300 digits of an integer: more was a 500 on every JSON write."""
    response = getattr(office, method)(path, data=body, content_type="application/json")
    problem = assert_problem(response, 400, "body")
    assert "digits" in problem["errors"]["body"][0]


def test_a_csv_cell_of_thousands_of_digits_is_a_422_naming_the_cell(scene):
    """The same number in a spreadsheet's cell: the report is refused naming the row and column."""
    csv_body = f"place,player_id\n1,{HUGE_NUMBER}\n2,{scene.player('Ann')}\n"
    query = f"venue_id={scene.venue_id}&date=2026-01-01"
    response = scene.office.post(f"/api/v1/tournaments?{query}", data=csv_body, content_type="text/csv")
    problem = assert_problem(response, 422, "results.0.player_id")
    assert "Row 2" in problem["detail"]


def test_an_id_is_written_one_way_only(scene):
    """An id in a path is ASCII digits without a leading zero: `/seasons/01`, Arabic-Indic or
    full-width digits are not season 1 (Python's int() reads them all as 1), they are a 404."""
    season = scene.season_id
    path = f"/api/v1/seasons/{season}"
    assert scene.public.get(path).status_code == 200
    arabic = "".join(chr(0x0660 + int(d)) for d in str(season))
    fullwidth = "".join(chr(0xFF10 + int(d)) for d in str(season))
    for written in (f"0{season}", f"00{season}", arabic, fullwidth, f"+{season}", f"{season} "):
        assert_problem(scene.public.get(f"/api/v1/seasons/{written}"), 404)
        assert_problem(scene.public.get(f"/api/v1/seasons/{written}/venues/{scene.venue_id}/standings"), 404)


@pytest.mark.parametrize("value", ["yes", "on", "true", 1, 0, "1", None])
def test_a_boolean_in_a_body_is_true_or_false_only(league, office, value):
    """A body's boolean is JSON's true or false: "yes", "on", "true", 1 and 0 are refused (422)
    naming the field, and nothing is stored."""
    region = league.region()
    before = office.get(f"/api/v1/venues?region_id={region['id']}").get_json()["total"]
    response = office.post(
        "/api/v1/venues", json={"name": "Bool Arms", "region_id": region["id"], "active": value}
    )
    assert_problem(response, 422, "active")
    assert office.get(f"/api/v1/venues?region_id={region['id']}").get_json()["total"] == before
    assert (
        office.post(
            "/api/v1/venues", json={"name": "Bool Arms", "region_id": region["id"], "active": False}
        ).status_code
        == 201
    )


@pytest.mark.parametrize(
    ("value", "status"),
    [("true", 200), ("1", 200), ("false", 200), ("0", 200), ("yes", 422), ("on", 422), ("", 422)],
)
def test_a_boolean_in_a_query_is_true_false_1_or_0(office, value, status):
    """A query string's boolean is true, false, 1 or 0: "yes" and "on" are refused naming it."""
    response = office.get(f"/api/v1/tournaments?include_voided={value}")
    if status == 200:
        assert response.status_code == 200
    else:
        assert_problem(response, 422, "include_voided")


def test_each_request_is_one_json_log_line_without_secrets(scene, capsys):
    """Every request writes one JSON line (request id, method, path, status, milliseconds, role,
    key id) and never the key, the body, the query string or a personal value."""
    capsys.readouterr()
    email = "private.person@example.org"
    body = {"full_name": "Private Person", "email": email}
    created = scene.office.post("/api/v1/players", json=body, headers={"X-Request-ID": "req-1"})
    searched = scene.office.get(f"/api/v1/players?q={email}")
    refused = scene.public.get("/api/v1/nowhere")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    assert len(lines) == 3, lines
    post, search, missing = lines
    assert post["request_id"] == "req-1" == created.headers["X-Request-ID"]
    assert (post["method"], post["path"], post["status"]) == ("POST", "/api/v1/players", 201)
    assert post["role"] == "office"
    assert isinstance(post["key_id"], int) and post["ms"] >= 0 and post["time"].endswith("Z")
    assert search["path"] == "/api/v1/players" and search["status"] == searched.status_code == 200
    assert (missing["status"], missing["role"], missing["key_id"]) == (404, "public", None)
    assert missing["request_id"] == refused.get_json()["request_id"]
    text = json.dumps(lines)
    assert scene.office.key and scene.office.key not in text
    assert email not in text and "Private" not in text


def test_guessing_keys_meets_a_429_per_address(make_app):
    """Wrong keys are counted per address, tighter than normal traffic (RATELIMIT_AUTH_FAILURES,
    20 per 10 minutes by default): 120 guessed keys in a row meet a 429 with Retry-After long
    before the end; a right key from that address is still answered (a pub's shared Wi-Fi locks
    no host out), and so is another address."""
    fresh = make_app(RATELIMIT_ENABLED=True)
    client = fresh.test_client()
    key = new_key(fresh, "office")
    statuses = []
    for guess in range(120):
        answer = client.get("/api/v1/regions", headers={"Authorization": f"Bearer plk_guess{guess:04d}"})
        statuses.append(answer.status_code)
    assert statuses[:20] == [401] * 20 and set(statuses[20:]) == {429}
    problem = assert_problem(answer, 429)
    assert int(answer.headers["Retry-After"]) > 0 and "wrong API key" in problem["detail"]
    assert client.get("/api/v1/regions", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    assert_problem(client.get("/api/v1/regions", headers={"Authorization": "Bearer plk_more"}), 429)
    elsewhere = {"REMOTE_ADDR": "10.0.0.9"}
    assert (
        client.get(
            "/api/v1/regions", headers={"Authorization": f"Bearer {key}"}, environ_base=elsewhere
        ).status_code
        == 200
    )
    # The public, with no key, is not counted as guessing.
    assert client.get("/api/v1/regions").status_code == 200


def test_writes_are_limited_per_key(make_app):
    """RATELIMIT_WRITES (120 per minute by default) counts each key's changes; reads go on."""
    fresh = make_app(RATELIMIT_ENABLED=True, RATELIMIT_WRITES="3 per minute")
    office = Caller(fresh.test_client(), new_key(fresh, "office"))
    for name in ("North", "South", "East"):
        assert office.post("/api/v1/regions", json={"name": name}).status_code == 201
    refused = office.post("/api/v1/regions", json={"name": "West"})
    assert "changes with this API key" in assert_problem(refused, 429)["detail"]
    assert int(refused.headers["Retry-After"]) > 0
    assert office.get("/api/v1/regions").get_json()["total"] == 3
    other = Caller(fresh.test_client(), new_key(fresh, "office"))
    assert other.post("/api/v1/regions", json={"name": "West"}).status_code == 201


def test_r19_a_unique_violation_is_logged_without_the_value(league, office, monkeypatch, caplog):
    """R19: an email that only the unique index refuses (the service's own check out of the way,
    as a race past it would be) is a 409, and the service log names the constraint, never the
    email (PostgreSQL's error text holds it: "Key (email)=(…) already exists")."""
    email = "kept-out-of-logs@example.org"
    league.player("Lou Logless", email=email)
    monkeypatch.setattr(players, "_refuse_taken", lambda *_args, **_kwargs: None)
    with caplog.at_level(logging.DEBUG):
        response = office.post("/api/v1/players", json={"full_name": "Lou Other", "email": email})
    assert_problem(response, 409)
    assert "integrity error" in caplog.text and "email" in caplog.text
    assert email not in caplog.text and "kept-out-of-logs" not in caplog.text


def test_r19_an_unexpected_database_error_is_logged_without_the_values_sent(make_app, caplog):
    """R19: a database error no handler expects is a bare 500, logged under the request id with
    where it happened, but without the statement's parameters (they may be personal values)."""
    fresh = make_app()
    value = "dob-19880714-of-someone"

    @fresh.get("/api/v1/explode-in-database")
    def explode_in_database() -> Any:
        db.session().execute(text("SELECT no_such_column FROM players WHERE email = :v"), {"v": value})
        return {}

    with caplog.at_level(logging.DEBUG):
        response = fresh.test_client().get(
            "/api/v1/explode-in-database", headers={"X-Request-ID": "req-db-500"}
        )
    assert_problem(response, 500)
    assert "req-db-500" in caplog.text and "explode_in_database" in caplog.text
    assert value not in caplog.text and value not in response.get_data(as_text=True)
