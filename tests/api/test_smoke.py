from tests.conftest import assert_problem


def test_health(public):
    response = public.get("/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}


def test_region_create_and_list(office, public):
    created = office.post("/api/v1/regions", json={"name": "North"})
    assert created.status_code == 201
    listed = public.get("/api/v1/regions").get_json()
    assert listed["total"] == 1 and listed["items"][0]["name"] == "North"


def test_rolled_back_between_tests(public):
    assert public.get("/api/v1/regions").get_json()["total"] == 0


def test_season_overlap_r2(league):
    region = league.region()
    league.season(region_ids=[region["id"]])
    response = league.office.post(
        "/api/v1/seasons", json={"name": "Clash", "starts_on": "2026-03-01", "ends_on": "2026-04-30"}
    )
    assert_problem(response, 422, "starts_on", rule="R2")
