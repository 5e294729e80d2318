"""Publishing the qualifier lists through the HTTP API (R12, R18): only the office, only after
the season, refusals changing nothing; published lists stay as published while later corrections,
sanctions and disqualifications show as `changes` (and in `view=current`) until the office
publishes again; ties at the cut settled by naming who goes; every publication audited."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from api import db
from api.qualifiers.answers import qualification_head
from api.qualifiers.schemas import SeasonQualifiersOut
from models.actor import PUBLIC
from models.rules.qualifier_lists import regions_of, season_of_player
from models.services.qualifiers.queries import qualification_of
from tests.builders import (
    TOURNAMENTS,
    MakeScene,
    Scene,
    ago,
    audit_entries,
    ended_season,
    ids_of,
    person,
    qualifiers_path,
    read_qualifiers,
    sanctioned,
)
from tests.support.league import Caller, assert_problem

NO_CHANGES = {"changed": False, "would_come_in": [], "would_drop_out": []}


def publish_path(scene: Scene) -> str:
    return f"{qualifiers_path(scene.season_id)}/publish"


def publish(scene: Scene, caller: Caller | None = None, **body: Any) -> Any:
    """POST the publication (the office unless told); the response."""
    return (caller or scene.office).post(publish_path(scene), json={"settlements": [], **body})


def published(scene: Scene, **body: Any) -> dict[str, Any]:
    response = publish(scene, **body)
    assert response.status_code == 201, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def official(scene: Scene, query: str = "") -> dict[str, Any]:
    return read_qualifiers(scene.public, scene.season_id, query=query)


def venue_official(scene: Scene, query: str = "") -> dict[str, Any]:
    return read_qualifiers(scene.public, scene.season_id, scene.venue_id, query)


def venue_qualifiers(season: dict[str, Any], venue_id: int) -> list[int]:
    (venue,) = [v for v in season["venues"] if v["venue_id"] == venue_id]
    return ids_of(venue["qualifiers"])


def publications(scene: Scene) -> list[dict[str, Any]]:
    return audit_entries(scene.office, f"action=qualifiers.publish&entity=season&entity_id={scene.season_id}")


def change(player_id: int, venue_id: int) -> tuple[int, int]:
    return (player_id, venue_id)


def changes_of(changes: dict[str, Any]) -> tuple[bool, list[tuple[int, int]], list[tuple[int, int]]]:
    """(changed, sorted (player, venue) coming in, sorted (player, venue) dropping out)."""

    def pairs(items: list[dict[str, Any]]) -> list[tuple[int, int]]:
        return sorted((int(i["player"]["id"]), int(i["venue_id"])) for i in items)

    return changes["changed"], pairs(changes["would_come_in"]), pairs(changes["would_drop_out"])


@pytest.fixture()
def four(make_scene: MakeScene) -> tuple[Scene, list[int], dict[str, Any]]:
    """An ended season; one 10-entrant tournament: Ace, Bee, Cat, Dan, fillers (all born 1990).
    Quota 2: Ace and Bee qualify."""
    scene = make_scene(**ended_season())
    ids = [person(scene, name, date_of_birth="1990-01-01") for name in ("Ace", "Bee", "Cat", "Dan")]
    fillers = [person(scene, f"~f{i}", date_of_birth="1990-01-01") for i in range(6)]
    report = scene.report([*ids, *fillers])
    return scene, ids + fillers, report


def nothing_published(scene: Scene) -> None:
    season = official(scene)
    assert (season["published"], season["published_at"], season["note"], season["changes"]) == (
        False,
        None,
        None,
        None,
    )
    assert publications(scene) == []


# Who, when, and what a publication answers -------------------------------------------------


def test_office_publishes_after_the_season_and_the_lists_become_official_r12(four: Any) -> None:
    """R12: 201; the answer and every later read say published, with the note and time."""
    scene, (ace, bee, *_rest), _report = four
    before = official(scene)
    assert before["published"] is False
    answer = published(scene, note="Lists for the spring playoffs.")
    assert answer["published"] is True
    assert answer["published_at"]
    assert answer["note"] == "Lists for the spring playoffs."
    assert answer["provisional"] is False
    assert answer["season_id"] == scene.season_id
    assert venue_qualifiers(answer, scene.venue_id) == [ace, bee]
    assert answer["venues"] == before["venues"]
    season = official(scene)
    assert season["published"] is True
    assert (season["published_at"], season["note"]) == (answer["published_at"], answer["note"])
    assert season["changes"] == NO_CHANGES
    assert season["venues"] == answer["venues"]
    assert season["regions"] == answer["regions"]
    venue = venue_official(scene)
    assert (venue["published"], venue["published_at"], venue["note"]) == (
        True,
        answer["published_at"],
        answer["note"],
    )
    assert venue["changes"] == NO_CHANGES
    assert ids_of(venue["qualifiers"]) == [ace, bee]


def test_only_the_office_publishes_r12(four: Any, host_for: Any) -> None:
    scene, _ids, _report = four
    assert_problem(publish(scene, scene.public), 401)
    assert_problem(publish(scene, scene.host), 403)
    assert_problem(publish(scene, host_for(scene.venue_id, name="Host: Other")), 403)
    nothing_published(scene)


@pytest.mark.parametrize("ends", [-30, 0])
def test_no_publishing_until_after_the_seasons_last_day_r12(make_scene: MakeScene, ends: int) -> None:
    """R12: while the season runs (its last day included) publishing is a 422 naming R12."""
    scene = make_scene(starts_on=ago(60), ends_on=ago(ends))
    scene.padded(scene.players("Ace", "Bee"), 10)
    assert_problem(publish(scene, note="Too soon."), 422, rule="R12")
    nothing_published(scene)
    assert official(scene)["provisional"] is True


def test_publishing_an_unknown_season_is_404(four: Any) -> None:
    scene, _ids, _report = four
    assert_problem(scene.office.post(f"{qualifiers_path(999_999)}/publish", json={}), 404)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"settlements": "Ace"}, "settlements"),
        ({"settlements": [{"venue_id": 1}]}, "settlements.0.player_id"),
        ({"settlements": [{"player_id": 1}]}, "settlements.0.venue_id"),
        ({"note": "x" * 2001}, "note"),
        ({"note": 12}, "note"),
    ],
)
def test_malformed_publication_is_422_and_publishes_nothing(
    four: Any, body: dict[str, Any], field: str
) -> None:
    scene, _ids, _report = four
    assert_problem(scene.office.post(publish_path(scene), json=body), 422, field)
    nothing_published(scene)


def test_a_settlement_at_a_venue_without_a_list_is_refused(four: Any) -> None:
    scene, (ace, *_rest), _report = four
    body = {"settlements": [{"venue_id": 999_999, "player_id": ace}]}
    assert_problem(scene.office.post(publish_path(scene), json=body), 422, "settlements.0.venue_id")
    nothing_published(scene)


# Published lists stay as published; changes show ------------------------------------------


def correct(scene: Scene, report: dict[str, Any], order: list[int]) -> None:
    """The office corrects the report to this finishing order (R17)."""
    body = {**scene.body(order, date.fromisoformat(report["date"])), "reason": "Sheet misread."}
    response = scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=body)
    assert response.status_code == 200, response.get_data(as_text=True)


def test_a_correction_after_publishing_shows_as_changes_not_in_the_official_list_r12(four: Any) -> None:
    """R12: Cat and Dan now top the corrected report; the official list still says Ace and Bee,
    `changes` says who would come in and drop out, view=current gives the new list; publishing
    again makes it official and clears the changes."""
    scene, ids, report = four
    ace, bee, cat, dan, *fillers = ids
    first = published(scene, note="First.")
    correct(scene, report, [cat, dan, ace, bee, *fillers])
    season = official(scene)
    assert venue_qualifiers(season, scene.venue_id) == [ace, bee]
    assert season["venues"] == first["venues"]
    assert (season["published_at"], season["note"]) == (first["published_at"], "First.")
    v = scene.venue_id
    assert changes_of(season["changes"]) == (
        True,
        [change(cat, v), change(dan, v)],
        [change(ace, v), change(bee, v)],
    )
    venue = venue_official(scene)
    assert ids_of(venue["qualifiers"]) == [ace, bee]
    assert changes_of(venue["changes"]) == (
        True,
        [change(cat, v), change(dan, v)],
        [change(ace, v), change(bee, v)],
    )
    current = official(scene, "?view=current")
    assert venue_qualifiers(current, scene.venue_id) == [cat, dan]
    assert ids_of(venue_official(scene, "?view=current")["qualifiers"]) == [cat, dan]
    # The profile follows the official list too.
    profile = scene.public.get(f"/api/v1/players/{ace}").get_json()["qualification"]
    assert (profile[0]["qualified_at"], profile[0]["published"]) == (scene.venue_id, True)
    # Publishing again.
    second = published(scene, note="Second.")
    assert venue_qualifiers(second, scene.venue_id) == [cat, dan]
    season = official(scene)
    assert venue_qualifiers(season, scene.venue_id) == [cat, dan]
    assert season["note"] == "Second."
    assert season["changes"] == NO_CHANGES
    assert venue_official(scene)["changes"] == NO_CHANGES


def test_a_suspension_after_publishing_shows_as_changes_r12_r13(four: Any) -> None:
    """R12/R13: a suspension on the season's last day, recorded after publishing."""
    scene, (ace, bee, cat, *_rest), _report = four
    published(scene)
    sanctioned(scene.office, ace, "suspension", "fighting", first_day=ago(20), last_day=ago(0))
    season = official(scene)
    assert venue_qualifiers(season, scene.venue_id) == [ace, bee]
    v = scene.venue_id
    assert changes_of(season["changes"]) == (True, [change(cat, v)], [change(ace, v)])
    assert venue_qualifiers(official(scene, "?view=current"), v) == [bee, cat]
    published(scene)
    assert venue_qualifiers(official(scene), v) == [bee, cat]
    assert official(scene)["changes"] == NO_CHANGES


def test_a_disqualification_after_publishing_shows_as_changes_r12_r13(four: Any) -> None:
    scene, (ace, bee, cat, *_rest), _report = four
    published(scene)
    response = scene.office.post(
        f"/api/v1/seasons/{scene.season_id}/disqualifications",
        json={"player_id": bee, "reason": "Chip dumping."},
    )
    assert response.status_code == 201
    v = scene.venue_id
    season = official(scene)
    assert venue_qualifiers(season, v) == [ace, bee]
    assert changes_of(season["changes"]) == (True, [change(cat, v)], [change(bee, v)])
    current = read_qualifiers(scene.office, scene.season_id, scene.venue_id, "?view=current")
    assert ids_of(current["qualifiers"]) == [ace, cat]
    assert [(s["player"]["id"], s["reason"]) for s in current["skipped"]] == [(bee, "disqualified")]
    public = venue_official(scene, "?view=current")  # R19: the public's word for it
    assert [(s["player"]["id"], s["reason"]) for s in public["skipped"]] == [(bee, "ineligible")]
    assert venue_official(scene)["skipped"] == []


def test_a_change_that_keeps_the_same_qualifiers_is_no_change_r12(four: Any) -> None:
    """R12: a correction below the cut changes no one's qualification: changed is false."""
    scene, ids, report = four
    ace, bee, cat, dan, *fillers = ids
    published(scene)
    correct(scene, report, [ace, bee, dan, cat, *fillers])
    assert official(scene)["changes"] == NO_CHANGES


# Ties at the cut: settlements ----------------------------------------------------------------


@pytest.fixture()
def tie(make_scene: MakeScene) -> tuple[Scene, int, int, int]:
    """Quota 1; Bee (the lower id) and Ace level after every tie-break at the top; Cat below."""
    scene = make_scene(**ended_season(), cut_fraction=0.1)
    bee, ace, cat = (person(scene, name, date_of_birth="1990-01-01") for name in ("Bee", "Ace", "Cat"))
    scene.padded([bee, ace, cat], 10)
    scene.padded([ace, bee, cat], 10)
    return scene, bee, ace, cat


def test_the_office_settles_a_tie_at_the_cut_by_naming_who_goes_r12(tie: Any) -> None:
    """R12: unsettled, Bee (the lower id) goes, flagged tie_at_cut; the office's settlement names
    Ace, who then qualifies flagged tie_settled; Bee does not."""
    scene, bee, ace, _cat = tie
    live = venue_official(scene)
    assert ids_of(live["qualifiers"]) == [bee]
    assert "tie_at_cut" in live["qualifiers"][0]["flags"]
    assert ids_of(live["tied_out"]) == [ace]
    answer = published(
        scene, settlements=[{"venue_id": scene.venue_id, "player_id": ace}], note="Drawn by lot."
    )
    assert venue_qualifiers(answer, scene.venue_id) == [ace]
    venue = venue_official(scene)
    assert ids_of(venue["qualifiers"]) == [ace]
    assert "tie_settled" in venue["qualifiers"][0]["flags"]
    assert "tie_at_cut" not in venue["qualifiers"][0]["flags"]
    assert bee not in ids_of(venue["qualifiers"])
    assert venue["changes"] == NO_CHANGES
    assert ids_of(venue_official(scene, "?view=current")["qualifiers"]) == [ace]
    (entry,) = publications(scene)
    assert {"venue_id": scene.venue_id, "player_id": ace} in entry["after"]["settlements"]


def test_a_settlement_naming_a_player_not_tied_at_the_cut_is_refused_r12(tie: Any) -> None:
    """R12: naming Cat (below the tie) is a 422 naming that settlement's player_id; nothing is
    published, not even the valid settlement beside it."""
    scene, _bee, ace, cat = tie
    settlements = [
        {"venue_id": scene.venue_id, "player_id": ace},
        {"venue_id": scene.venue_id, "player_id": cat},
    ]
    problem = assert_problem(publish(scene, settlements=settlements), 422, "settlements.1.player_id")
    assert "settlements.0.player_id" not in problem["errors"]
    nothing_published(scene)


def test_a_settlement_where_there_is_no_tie_is_refused_r12(four: Any) -> None:
    scene, (ace, *_rest), _report = four
    settlements = [{"venue_id": scene.venue_id, "player_id": ace}]
    assert_problem(publish(scene, settlements=settlements), 422, "settlements.0.player_id")
    nothing_published(scene)


# The audit log (R18) -------------------------------------------------------------------------


def test_every_publication_is_audited_r18(four: Any) -> None:
    """R18: each publication is an audit entry qualifiers.publish on the season, by the office's
    key; a refused one is not."""
    scene, ids, report = four
    published(scene, note="First.")
    (first,) = publications(scene)
    assert (first["action"], first["entity"], first["entity_id"]) == (
        "qualifiers.publish",
        "season",
        scene.season_id,
    )
    assert first["actor"] == "Office: Test"
    assert first["actor_role"] == "office"
    correct(scene, report, [ids[2], ids[3], ids[0], ids[1], *ids[4:]])
    assert_problem(publish(scene, settlements=[{"venue_id": scene.venue_id, "player_id": ids[5]}]), 422)
    assert len(publications(scene)) == 1
    published(scene, note="Second.")
    entries = publications(scene)
    assert len(entries) == 2
    assert {e["entity_id"] for e in entries} == {scene.season_id}


@pytest.mark.parametrize("view", ["official", "current"])
def test_season_lists_written_directly_are_the_schemas_dump_r12(four: Any, app: Any, view: str) -> None:
    """R12: the season-wide answer is written without the schema's per-field dump (for speed);
    it must be exactly what SeasonQualifiersOut dumps of the same lists: before publishing, and
    after it with a correction pending (published_at, note and changes set)."""
    scene, (ace, bee, cat, dan, *fillers), report = four

    def compare() -> None:
        answer = scene.public.get(f"{qualifiers_path(scene.season_id)}?view={view}")
        assert answer.status_code == 200
        # A GET's context: the publication's day is read on the league's clock (R2a).
        with app.test_request_context():
            found = qualification_of(db.session(), PUBLIC, scene.season_id, current=view == "current")
            body = {**qualification_head(found), "venues": found.lists, "regions": regions_of(found.lists)}
            expected = json.loads(json.dumps(SeasonQualifiersOut().dump(body)))
        assert answer.get_json() == expected

    compare()
    published(scene, note="Lists for the spring playoffs.")
    correct(scene, report, [cat, dan, ace, bee, *fillers])
    compare()
    assert read_qualifiers(scene.public, scene.season_id)["changes"]["changed"] is True


def test_a_profile_reads_a_published_season_as_published_r12_r14(four: Any) -> None:
    """R12, R14: a profile reads a published season from the publication (computing nothing):
    every player's qualification equals the published lists read whole (`season_of_player`),
    and a venue the player qualified at stays named after a void took away their result there
    (the official list is frozen), while the venues listed are those still played."""
    scene, ids, report = four
    ace, bee, *_rest = ids
    other = int(scene.league.venue(scene.region["id"])["id"])
    scene.report([*scene.fillers(8), ace], venue_id=other)
    lists = published(scene)["venues"]
    for player_id in ids:
        (season,) = scene.public.get(f"/api/v1/players/{player_id}").get_json()["qualification"]
        played = [v["venue_id"] for v in season["venues"]]
        expected = season_of_player(scene.season_id, lists, season["provisional"], True, player_id, played)
        assert season == expected, player_id
    assert [season["qualified_at"] for season in profile_of(scene, ace)] == [scene.venue_id]
    voided = scene.office.post(f"{TOURNAMENTS}/{report['id']}/void", json={"reason": "Posted twice."})
    assert voided.status_code == 200, voided.get_data(as_text=True)
    (season,) = profile_of(scene, ace)
    assert (season["qualified_at"], season["published"]) == (scene.venue_id, True)
    assert [v["venue_id"] for v in season["venues"]] == [other]
    assert profile_of(scene, bee) == []  # Bee played nowhere else: the season is not Bee's any more


def profile_of(scene: Scene, player_id: int) -> list[dict[str, Any]]:
    qualification: list[dict[str, Any]] = scene.public.get(f"/api/v1/players/{player_id}").get_json()[
        "qualification"
    ]
    return qualification
