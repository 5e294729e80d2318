"""Regions and venues (R1, R3) through the HTTP API, with the list conventions: pages and ETags."""

from __future__ import annotations

import pytest

from tests.builders import days_ago
from tests.support.league import assert_problem

REGIONS = "/api/v1/regions"
VENUES = "/api/v1/venues"


# Regions ----------------------------------------------------------------------------------------


def test_office_creates_regions(office, public):
    response = office.post(REGIONS, json={"name": "  North   Shore "})
    assert response.status_code == 201
    region = response.get_json()
    assert region["name"] == "North Shore"
    assert public.get(f"{REGIONS}/{region['id']}").get_json()["name"] == "North Shore"


def test_region_names_unique(league):
    league.region(name="North")
    assert_problem(league.office.post(REGIONS, json={"name": "North"}), 409, "name")
    assert league.office.get(REGIONS).get_json()["total"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": 5}, "name"),
        ({"name": "N", "code": "N"}, "code"),
    ],
)
def test_invalid_region_refused(office, body, field):
    assert_problem(office.post(REGIONS, json=body), 422, field)
    assert office.get(REGIONS).get_json()["total"] == 0


def test_only_the_office_creates_regions(public, host_for, league):
    venue = league.venue()
    assert_problem(public.post(REGIONS, json={"name": "South"}), 401)
    assert_problem(host_for(venue["id"]).post(REGIONS, json={"name": "South"}), 403)
    assert public.get(REGIONS).get_json()["total"] == 1


# Venues (R1) ------------------------------------------------------------------------------------


def test_office_creates_venues_r1(league, public):
    region = league.region()
    response = league.office.post(
        VENUES, json={"name": "The Crown", "region_id": region["id"], "city": "Riverton"}
    )
    assert response.status_code == 201, response.get_json()
    venue = response.get_json()
    assert (venue["name"], venue["region_id"], venue["city"], venue["active"]) == (
        "The Crown",
        region["id"],
        "Riverton",
        True,
    )
    assert public.get(f"{VENUES}/{venue['id']}").get_json()["name"] == "The Crown"


def test_venue_names_unique_within_a_region(league):
    north, south = league.region(), league.region()
    league.venue(north["id"], name="The Crown")
    clash = league.office.post(VENUES, json={"name": "The Crown", "region_id": north["id"]})
    assert_problem(clash, 409, "name")
    elsewhere = league.venue(south["id"], name="The Crown")
    assert elsewhere["region_id"] == south["id"]
    assert league.office.get(VENUES).get_json()["total"] == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "V"}, "region_id"),
        ({"name": "V", "region_id": 99999}, "region_id"),
        ({"name": "V", "region_id": "1"}, "region_id"),
        ({"region_id": 1}, "name"),
        ({"name": "V", "region_id": 1, "active": "sometimes"}, "active"),
        ({"name": "V", "region_id": 1, "owner": "Pat"}, "owner"),
    ],
)
def test_invalid_venue_refused(office, body, field):
    assert_problem(office.post(VENUES, json=body), 422, field)
    assert office.get(VENUES).get_json()["total"] == 0


def test_patch_venue_audited_r18(league):
    north, south = league.region(), league.region()
    venue = league.venue(north["id"], name="The Crown")
    path = f"{VENUES}/{venue['id']}"
    response = league.office.patch(path, json={"active": False, "region_id": south["id"]})
    assert response.status_code == 200
    assert (response.get_json()["active"], response.get_json()["region_id"]) == (False, south["id"])
    log = league.office.get(f"/api/v1/audit-log?entity=venue&entity_id={venue['id']}").get_json()
    assert [e["action"] for e in log["items"]] == ["venue.update", "venue.create"]
    assert log["items"][0]["before"]["active"] is True and log["items"][0]["after"]["active"] is False
    assert log["items"][0]["after"]["region_id"] == south["id"]


def test_invalid_venue_patch_changes_nothing(league):
    region = league.region()
    league.venue(region["id"], name="The Anchor")
    venue = league.venue(region["id"], name="The Crown")
    path = f"{VENUES}/{venue['id']}"
    assert_problem(league.office.patch(path, json={"name": "The Anchor"}), 409, "name")
    assert_problem(league.office.patch(path, json={"region_id": 99999}), 422, "region_id")
    assert_problem(league.office.patch(path, json={"name": None}), 422, "name")
    assert league.office.get(path).get_json() == venue
    assert_problem(league.office.patch(f"{VENUES}/99999", json={"active": False}), 404)


def test_venue_list_filters(league, public):
    north, south = league.region(), league.region()
    crown = league.venue(north["id"], name="The Crown", city="Riverton")
    anchor = league.venue(south["id"], name="The Anchor", city="Crownsville")
    closed = league.venue(north["id"], name="Old Mill", city="Lakeside", active=False)

    def ids(query: str) -> list[int]:
        return [v["id"] for v in public.get(f"{VENUES}?{query}").get_json()["items"]]

    assert ids("") == [closed["id"], anchor["id"], crown["id"]]  # by name
    assert ids(f"region_id={north['id']}") == [closed["id"], crown["id"]]
    assert ids("active=false") == [closed["id"]]
    assert ids("q=crown") == [anchor["id"], crown["id"]]  # name or city
    assert ids(f"q=crown&region_id={north['id']}&active=true") == [crown["id"]]


# Lists: pages and totals ------------------------------------------------------------------------


def test_pages_and_total(league, public):
    names = [league.region(name=f"Region {letter}")["name"] for letter in "ABCDE"]
    first = public.get(f"{REGIONS}?per_page=2").get_json()
    assert [r["name"] for r in first["items"]] == names[:2]
    assert (first["total"], first["page"], first["per_page"], first["pages"]) == (5, 1, 2, 3)
    last = public.get(f"{REGIONS}?per_page=2&page=3").get_json()
    assert [r["name"] for r in last["items"]] == names[4:]
    beyond = public.get(f"{REGIONS}?per_page=2&page=4").get_json()
    assert (beyond["items"], beyond["total"]) == ([], 5)


def test_page_defaults(league, public):
    league.region()
    body = public.get(REGIONS).get_json()
    assert (body["page"], body["per_page"], body["total"], body["pages"]) == (1, 50, 1, 1)
    assert public.get(f"{REGIONS}?per_page=500").get_json()["per_page"] == 500


def test_fifty_per_page_by_default(office, public):
    for number in range(51):
        assert office.post(REGIONS, json={"name": f"Region {number:02d}"}).status_code == 201
    body = public.get(REGIONS).get_json()
    assert (len(body["items"]), body["total"], body["pages"]) == (50, 51, 2)
    assert [r["name"] for r in public.get(f"{REGIONS}?page=2").get_json()["items"]] == ["Region 50"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("per_page=501", "per_page"),
        ("per_page=0", "per_page"),
        ("page=0", "page"),
        ("page=abc", "page"),
        ("per_page=1.5", "per_page"),
        ("page=-1", "page"),
    ],
)
def test_bad_pages_refused(public, query, field):
    assert_problem(public.get(f"{REGIONS}?{query}"), 422, field)


# Lists: ETags -----------------------------------------------------------------------------------


def test_public_get_sends_etag_and_honours_if_none_match(league, public):
    region = league.region()
    first = public.get(REGIONS)
    etag = first.headers["ETag"]
    assert etag and "Authorization" in first.headers["Vary"]

    again = public.get(REGIONS, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    one = public.get(f"{REGIONS}/{region['id']}")
    assert (
        public.get(f"{REGIONS}/{region['id']}", headers={"If-None-Match": one.headers["ETag"]}).status_code
        == 304
    )

    # A change makes a new ETag, and the old one gets the whole answer.
    league.region()
    changed = public.get(REGIONS, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.get_json()["total"] == 2
    assert changed.headers["ETag"] != etag


def test_etag_differs_when_the_answer_differs_by_caller_r19(league, public, office):
    player = league.player("Ann Lee")
    path = f"/api/v1/players/{player['id']}"
    public_etag = public.get(path).headers["ETag"]
    assert office.get(path).headers["ETag"] != public_etag
    # The office does not get a 304 for the public's (smaller) answer.
    assert office.get(path, headers={"If-None-Match": public_etag}).status_code == 200


def test_errors_have_no_etag(public):
    response = public.get(f"{REGIONS}/99999")
    assert response.status_code == 404
    assert "ETag" not in response.headers


def test_venue_cannot_move_away_from_its_reports_season_r2(scene, league):
    """R2: a venue whose reports belong to a season of its region cannot move to a region that
    season does not cover; with no such reports it can."""
    players = scene.add_players(2)
    scene.posted(scene.body(players, day=days_ago(3)))
    other = league.region()
    response = league.office.patch(f"/api/v1/venues/{scene.venue_id}", json={"region_id": other["id"]})
    assert_problem(response, 422, "region_id", rule="R2")
    assert league.office.get(f"/api/v1/venues/{scene.venue_id}").get_json()["region_id"] != other["id"]
    empty = league.venue()
    moved = league.office.patch(f"/api/v1/venues/{empty['id']}", json={"region_id": other["id"]})
    assert moved.status_code == 200 and moved.get_json()["region_id"] == other["id"]
