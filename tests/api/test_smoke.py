from sqlalchemy import text

from tests.support.databases import watch_writes, wrote
from tests.support.league import assert_problem, new_key


def test_health(public):
    response = public.get("/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}


def test_region_create_and_list(office, public):
    created = office.post("/api/v1/regions", json={"name": "North"})
    assert created.status_code == 201
    listed = public.get("/api/v1/regions").get_json()
    assert listed["total"] == 1 and listed["items"][0]["name"] == "North"


def test_rolled_back_between_tests(office, public, engine):
    """Nothing a test writes is committed: a region the app has just stored and lists is not in
    the database for a connection outside the test's transaction (so no test sees another's)."""
    created = office.post("/api/v1/regions", json={"name": "Isolated"})
    assert created.status_code == 201
    region_id = created.get_json()["id"]
    assert public.get(f"/api/v1/regions/{region_id}").status_code == 200
    with engine.connect() as outside:
        committed = outside.execute(text("SELECT count(*) FROM regions WHERE id = :id"), {"id": region_id})
        assert committed.scalar_one() == 0


def test_season_overlap_r2(league):
    region = league.region()
    league.season(region_ids=[region["id"]])
    response = league.office.post(
        "/api/v1/seasons", json={"name": "Clash", "starts_on": "2026-03-01", "ends_on": "2026-04-30"}
    )
    assert_problem(response, 422, "starts_on", rule="R2")


def test_a_test_that_only_reads_is_not_taken_for_a_writer(app, connection, public):
    """The standings and ratings checks after a test (tests/conftest.py) are skipped only after
    a test that changed no row: reads, however many, change none."""
    assert public.get("/api/v1/regions").status_code == 200
    assert public.get("/health").status_code == 200
    assert not wrote(connection)


def test_every_way_a_test_writes_is_seen(app, connection, public):
    """A write through the app, or plain SQL on the test's connection, marks the test as a
    writer, so the checks after it run (R1, R9-R11, R20)."""
    new_key(app, "office", name="Office: Watched")
    assert wrote(connection)
    watch_writes(connection)
    assert not wrote(connection)
    connection.execute(text("UPDATE regions SET name = name WHERE id = 0"))
    assert wrote(connection)
