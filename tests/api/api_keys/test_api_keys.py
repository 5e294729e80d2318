"""API keys: the `keys create` command, the office's key endpoints, and the identical 401."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.league import Caller, assert_problem

KEYS = "/api/v1/api-keys"
REPO = Path(__file__).resolve().parents[3]


def cli_key(runner: Any, *args: str) -> str:
    result = runner.invoke(args=["keys", "create", *args])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) >= 2
    key: str = lines[-1]
    assert key.startswith("plk_") and " " not in key
    return key


# The command line -------------------------------------------------------------------------------


def test_cli_office_key_works(runner, client, public):
    key = cli_key(runner, "--role", "office", "--name", "Office: Dana")
    office = Caller(client, key)
    listed = office.get(KEYS)
    assert listed.status_code == 200
    names = {item["name"]: item for item in listed.get_json()["items"]}
    assert names["Office: Dana"]["role"] == "office"
    assert names["Office: Dana"]["venue_ids"] == []
    assert names["Office: Dana"]["key_prefix"] == key[:10]
    # The office key can do office things.
    assert office.post("/api/v1/regions", json={"name": "North"}).status_code == 201
    assert public.get("/api/v1/regions").get_json()["total"] == 1


def test_cli_host_key_bound_to_venues(runner, client, league):
    first, second = league.venue(), league.venue()
    key = cli_key(
        runner,
        "--role",
        "host",
        "--venue",
        str(second["id"]),
        "--venue",
        str(first["id"]),
        "--name",
        "Host: Pat",
    )
    host = Caller(client, key)
    created = host.post("/api/v1/players", json={"full_name": "Sam Park", "email": "sam@example.org"})
    assert created.status_code == 201
    assert_problem(host.get(KEYS), 403)
    stored = [k for k in league.office.get(KEYS).get_json()["items"] if k["name"] == "Host: Pat"]
    assert [(k["role"], k["venue_ids"]) for k in stored] == [("host", sorted([first["id"], second["id"]]))]


def test_cli_key_creation_audited_r18(runner, office):
    cli_key(runner, "--role", "office", "--name", "Office: Lee")
    entries = office.get("/api/v1/audit-log?entity=api_key&actor=command%20line").get_json()["items"]
    ours = [e for e in entries if e["after"]["name"] == "Office: Lee"]
    assert [(e["action"], e["actor"], e["actor_role"]) for e in ours] == [
        ("api_key.create", "command line", "system")
    ]
    assert ours[0]["after"]["role"] == "office"
    assert "key_hash" not in ours[0]["after"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--role", "host", "--name", "Host: Nobody"], "venue"),
        (["--role", "host", "--venue", "99999", "--name", "Host: Ghost"], "99999"),
        (["--role", "office", "--venue", "1", "--name", "Office: Venue"], "venue"),
        (["--role", "admin", "--name", "Root"], "role"),
        (["--role", "office"], "name"),
    ],
)
def test_cli_refuses_bad_keys(runner, office, args, message):
    before = office.get(KEYS).get_json()["total"]
    result = runner.invoke(args=["keys", "create", *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "plk_" not in result.output
    assert office.get(KEYS).get_json()["total"] == before


UNKNOWN_VENUE = "There is no venue with id 99999."
UNBOUND_HOST = "A host key is bound to at least one venue."


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--role", "host", "--venue", "99999", "--name", "Host: Ghost"], UNKNOWN_VENUE),
        (["--role", "host", "--name", "Host: Nobody"], UNBOUND_HOST),
    ],
)
def test_cli_says_a_refusal_once(runner, args, message):
    """The refusal's detail, once: one "Error:" line, each problem in it once."""
    result = runner.invoke(args=["keys", "create", *args])
    assert result.exit_code == 1
    assert result.output.count(message) == 1, result.output
    assert result.output.count("Error:") == 1 and len(result.output.strip().splitlines()) == 1, result.output
    assert ".;" not in result.output and ".." not in result.output


def test_cli_says_a_refusal_once_on_a_real_terminal(database_url):
    """The command run as a person runs it (`flask --app app keys create …`): the refusal once
    across stdout and stderr, exit status 1, nothing stored (a refusal writes nothing)."""
    command = [sys.executable, "-m", "flask", "--app", "app", "keys", "create", "--role", "host"]
    command += ["--venue", "99999", "--name", "Host: Ghost"]
    env = {**os.environ, "DATABASE_URL": database_url, "REQUEST_LOG": "0"}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, (done.stdout, done.stderr)
    said = done.stdout + done.stderr
    assert said.count(UNKNOWN_VENUE) == 1 and said.count("Error:") == 1, said
    assert done.stdout == "" and "plk_" not in said


# The office's endpoints -------------------------------------------------------------------------


def test_post_answers_the_key_once(office, client, league):
    venue = league.venue()
    response = office.post(KEYS, json={"name": "Host: Kim", "role": "host", "venue_ids": [venue["id"]]})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    secret = created["key"]
    assert secret.startswith("plk_") and len(secret) > 40
    assert created["venue_ids"] == [venue["id"]] and created["role"] == "host"
    assert created["revoked_at"] is None

    # It works...
    assert (
        Caller(client, secret)
        .post("/api/v1/players", json={"full_name": "Sam Park", "email": "sam@example.org"})
        .status_code
        == 201
    )
    # ...and is never shown again, nor its hash.
    digest = hashlib.sha256(secret.encode()).hexdigest()
    for response in (office.get(KEYS), office.get(f"{KEYS}/{created['id']}")):
        text = response.get_data(as_text=True)
        assert secret not in text and digest not in text
    listed = office.get(KEYS).get_json()["items"]
    assert all(
        set(item) == {"id", "name", "role", "venue_ids", "key_prefix", "created_at", "revoked_at"}
        for item in listed
    )
    one = office.get(f"{KEYS}/{created['id']}").get_json()
    assert "key" not in one and "key_hash" not in one
    # Nor does the audit log keep it.
    log = office.get(f"/api/v1/audit-log?entity=api_key&entity_id={created['id']}")
    assert secret not in log.get_data(as_text=True) and digest not in log.get_data(as_text=True)


def test_delete_revokes_once_r17a(office, client, league):
    """A revoked key answers 401; R17a: a key is revoked once (a second DELETE is a 409)."""
    venue = league.venue()
    created = office.post(
        KEYS, json={"name": "Host: Kim", "role": "host", "venue_ids": [venue["id"]]}
    ).get_json()
    host = Caller(client, created["key"])
    assert host.get("/api/v1/players").status_code == 200

    response = office.delete(f"{KEYS}/{created['id']}")
    assert response.status_code == 204 and response.get_data() == b""
    assert_problem(host.get("/api/v1/players"), 401)
    assert office.get(f"{KEYS}/{created['id']}").get_json()["revoked_at"] is not None
    # R17a: revoked once: revoking again is a 409 saying so, changes nothing, and is logged once.
    again = assert_problem(office.delete(f"{KEYS}/{created['id']}"), 409, rule="R17a")
    assert f"API key {created['id']} was already revoked" in again["detail"]
    log = office.get(f"/api/v1/audit-log?entity=api_key&entity_id={created['id']}").get_json()
    assert [e["action"] for e in log["items"]] == ["api_key.revoke", "api_key.create"]
    assert log["items"][0]["before"]["revoked_at"] is None
    assert log["items"][0]["after"]["revoked_at"] is not None
    assert_problem(office.delete(f"{KEYS}/99999"), 404)


def test_a_key_never_revokes_itself_r18(office, client):
    """The key making the request is refused its own revocation (403): it keeps working, and
    nothing is audited (R18). Another office key revokes it."""
    own = next(
        k
        for k in office.get(f"{KEYS}?per_page=500").get_json()["items"]
        if office.key.startswith(k["key_prefix"])
    )
    refused = assert_problem(office.delete(f"{KEYS}/{own['id']}"), 403)
    assert refused["detail"] == (
        f"API key {own['id']} is the key you are using: it cannot revoke itself. "
        "Revoke it with another office key."
    )
    assert office.get(f"{KEYS}/{own['id']}").get_json()["revoked_at"] is None
    assert office.get("/api/v1/audit-log?action=api_key.revoke").get_json()["total"] == 0
    other = Caller(
        client, office.post(KEYS, json={"name": "Office: Spare", "role": "office"}).get_json()["key"]
    )
    assert other.delete(f"{KEYS}/{own['id']}").status_code == 204
    assert_problem(office.get(KEYS), 401)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "H", "role": "host"}, "venue_ids"),
        ({"name": "H", "role": "host", "venue_ids": []}, "venue_ids"),
        ({"name": "O", "role": "office", "venue_ids": ["VENUE"]}, "venue_ids.0"),
        ({"name": "O", "role": "admin"}, "role"),
        ({"role": "office"}, "name"),
        ({"name": "O", "role": "office", "secret": "mine"}, "secret"),
    ],
)
def test_invalid_keys_refused(office, body, field):
    before = office.get(KEYS).get_json()["total"]
    assert_problem(office.post(KEYS, json=body), 422, field)
    assert office.get(KEYS).get_json()["total"] == before


def test_unknown_venue_named_by_its_index(office, league):
    venue = league.venue()
    response = office.post(KEYS, json={"name": "H", "role": "host", "venue_ids": [99999, venue["id"]]})
    body = assert_problem(response, 422, "venue_ids.0")
    assert "venue_ids.1" not in body["errors"]
    response = office.post(KEYS, json={"name": "O", "role": "office", "venue_ids": [venue["id"]]})
    assert_problem(response, 422, "venue_ids")


# Who gets 401 and 403 ---------------------------------------------------------------------------


def test_unknown_revoked_and_malformed_keys_get_the_same_401(office, client):
    revoked = office.post(KEYS, json={"name": "Gone", "role": "office"}).get_json()
    assert office.delete(f"{KEYS}/{revoked['id']}").status_code == 204
    headers = [
        "Bearer plk_not-a-key",
        f"Bearer {revoked['key']}",
        "Basic xyz",
        "Bearer",
        "Bearer ",
        "",
        "bearer " + "x" * 500,
        revoked["key"],
    ]
    bodies = []
    for header in headers:
        response = client.get(KEYS, headers={"Authorization": header})
        body = assert_problem(response, 401)
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        body.pop("request_id")
        bodies.append(body)
    assert all(body == bodies[0] for body in bodies), bodies
    # Public reads are refused too with a bad key, rather than served as the public.
    assert_problem(client.get("/api/v1/regions", headers={"Authorization": "Bearer nope"}), 401)


OFFICE_ONLY = [
    ("GET", KEYS),
    ("POST", KEYS),
    ("GET", f"{KEYS}/1"),
    ("DELETE", f"{KEYS}/1"),
    ("GET", "/api/v1/audit-log"),
    ("POST", "/api/v1/regions"),
    ("POST", "/api/v1/venues"),
    ("PATCH", "/api/v1/venues/1"),
    ("POST", "/api/v1/points-charts"),
    ("POST", "/api/v1/seasons"),
    ("PATCH", "/api/v1/seasons/1"),
    ("PATCH", "/api/v1/players/1"),
]


@pytest.mark.parametrize(("method", "path"), OFFICE_ONLY)
def test_host_key_forbidden_on_office_endpoints(host_for, league, method, path):
    host = host_for(league.venue()["id"])
    kwargs = {"json": {}} if method in ("POST", "PATCH") else {}
    body = assert_problem(host.request(method, path, **kwargs), 403)
    assert "office" in body["detail"]


@pytest.mark.parametrize(("method", "path"), OFFICE_ONLY)
def test_public_unauthorised_on_office_endpoints(public, method, path):
    kwargs = {"json": {}} if method in ("POST", "PATCH") else {}
    response = public.request(method, path, **kwargs)
    assert_problem(response, 401)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
