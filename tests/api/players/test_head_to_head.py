"""Two players against each other (GET /players/{id}/head-to-head) and a player's knockouts on the
profile (R8a): the live tournaments both played at any venue, who finished higher, who knocked
whom out; a voided report counts nowhere, a merged duplicate's results count as its survivor's
(R17), names are display names only (R19). Totals worked by hand."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.builders import TOURNAMENTS, MakeScene, Scene, days_ago
from tests.support.league import assert_problem

PLAYERS = "/api/v1/players"
PERSONAL_KEYS = {"full_name", "email", "date_of_birth", "membership_number", "pin"}


def knockout_report(
    scene: Scene, order: list[int], knockers: dict[int, int], day: date, venue_id: int | None = None
) -> dict[str, Any]:
    """The office reports `order` (places 1, 2, …) on `day`, each player of `knockers` knocked
    out by the player it maps to (R8a); the stored report."""
    body = scene.body(order, day, venue_id=venue_id, reason="Entered from the host's paper sheet")
    for row in body["results"]:
        if row["player_id"] in knockers:
            row["knocked_out_by"] = knockers[row["player_id"]]
    return scene.posted(body, scene.office)


def void(scene: Scene, report: dict[str, Any]) -> None:
    response = scene.office.post(f"{TOURNAMENTS}/{report['id']}/void", json={"reason": "Wrong night."})
    assert response.status_code == 200, response.get_data(as_text=True)


def head_to_head(scene: Scene, player: int, other: int, query: str = "") -> dict[str, Any]:
    response = scene.public.get(f"{PLAYERS}/{player}/head-to-head?other={other}{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    body: dict[str, Any] = response.get_json()
    return body


def totals(body: dict[str, Any]) -> tuple[int, int, int, int, int]:
    return (
        body["tournaments"],
        body["player_finished_higher"],
        body["other_finished_higher"],
        body["player_knocked_out_other"],
        body["other_knocked_out_player"],
    )


def profile(scene: Scene, player: int) -> dict[str, Any]:
    response = scene.public.get(f"{PLAYERS}/{player}")
    assert response.status_code == 200, response.get_data(as_text=True)
    body: dict[str, Any] = response.get_json()
    return body


def keys_in(value: Any) -> set[str]:
    """Every key of a JSON value, however deep."""
    if isinstance(value, dict):
        return set(value).union(*(keys_in(inner) for inner in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_in(inner) for inner in value))
    return set()


def knockouts_by_venue(body: dict[str, Any], season_id: int) -> dict[int, tuple[int, int]]:
    """{venue id: (knockouts made, knocked out)} of the profile's rows of the season."""
    return {
        s["venue_id"]: (s["knockouts"], s["knocked_out"])
        for s in body["seasons"]
        if s["season_id"] == season_id
    }


class Rivals:
    """Ann and Bob meet at two venues of one season (days ago; ">" finished higher; "KO" knocked
    out):

    - 40, Crown:  Ann 1 > Bob 2, Ann KO Bob
    - 35, Anchor: Bob 1 > Ann 3, Bob KO Ann
    - 30, Crown:  Ann 2 > Bob 3, Fil KO Ann, Fil KO Bob (neither knocked the other out)
    - 25, Anchor: Bob 1 > Ann 2, Bob KO Ann
    - 20, Crown:  Ann 1 > Bob 2, Ann KO Bob, voided: counts nowhere
    - 15, Crown:  Ann 1, Bob a no-show (played none: no meeting)
    - 12, Anchor: Ann alone (no meeting)
    - 10, Anchor: Dup 1 > Ann 2, Dup KO Ann; Dup (Bob's duplicate) is then merged into Bob
    """

    def __init__(self, make_scene: MakeScene) -> None:
        self.scene = scene = make_scene()
        self.crown = scene.venue_id
        self.anchor = int(scene.league.venue(scene.region["id"])["id"])
        self.ann, self.bob, self.dup = scene.players("Ann A.", "Bob B.", "Bobby B.")
        f1, f2 = self.fillers = scene.fillers(2)
        ann, bob = self.ann, self.bob
        knockout_report(scene, [ann, bob, f1], {bob: ann}, days_ago(40))
        knockout_report(scene, [bob, f1, ann, f2], {ann: bob}, days_ago(35), self.anchor)
        knockout_report(scene, [f1, ann, bob], {ann: f1, bob: f1}, days_ago(30))
        knockout_report(scene, [bob, ann, f1], {ann: bob}, days_ago(25), self.anchor)
        self.voided = knockout_report(scene, [ann, bob, f1], {bob: ann}, days_ago(20))
        void(scene, self.voided)
        scene.report([ann, f1, (bob, "no_show")], days_ago(15))
        scene.report([ann, f2], days_ago(12), venue_id=self.anchor)
        self.last = knockout_report(scene, [self.dup, ann, f1], {ann: self.dup}, days_ago(10), self.anchor)

    def merge_dup(self) -> None:
        body = {"duplicate_id": self.dup, "reason": "Bob registered twice."}
        response = self.scene.office.post(f"{PLAYERS}/{self.bob}/merge", json=body)
        assert response.status_code == 200, response.get_data(as_text=True)


def test_r8a_head_to_head_counts_live_meetings_at_every_venue_and_knockouts_each_way(
    make_scene: MakeScene,
) -> None:
    """R8a, R17: before the merge Ann and Bob met 4 times (the voided report and the no-show
    left out): 2 finishes higher and 1 knockout each way but Bob's 2. Merging Dup into Bob adds
    Dup's meeting: 5, Ann higher 2, Bob 3; Ann knocked Bob out once, Bob her 3 times."""
    rivals = Rivals(make_scene)
    scene, ann, bob = rivals.scene, rivals.ann, rivals.bob
    before = head_to_head(scene, ann, bob)
    assert totals(before) == (4, 2, 2, 1, 2)
    assert totals(head_to_head(scene, ann, rivals.dup)) == (1, 0, 1, 0, 1)
    rivals.merge_dup()
    body = head_to_head(scene, ann, bob)
    assert totals(body) == (5, 2, 3, 1, 3)
    # Bob's side is the mirror.
    assert totals(head_to_head(scene, bob, ann)) == (5, 3, 2, 3, 1)
    assert body["player"] == {"id": ann, "display_name": "Ann A.", "label": "Ann A."}
    assert body["other"] == {"id": bob, "display_name": "Bob B.", "label": "Bob B."}
    assert (body["page"], body["per_page"], body["pages"]) == (1, 50, 1)
    meetings = [
        (
            m["date"],
            m["venue_id"],
            m["kind"],
            m["player_place"],
            m["other_place"],
            m["finished_higher"],
            m["knockout"],
        )
        for m in body["meetings"]
    ]
    crown, anchor = rivals.crown, rivals.anchor
    assert meetings == [
        (days_ago(10).isoformat(), anchor, "regular", 2, 1, "other", "other"),
        (days_ago(25).isoformat(), anchor, "regular", 2, 1, "other", "other"),
        (days_ago(30).isoformat(), crown, "regular", 2, 3, "player", None),
        (days_ago(35).isoformat(), anchor, "regular", 3, 1, "other", "other"),
        (days_ago(40).isoformat(), crown, "regular", 1, 2, "player", "player"),
    ]
    first = body["meetings"][0]
    assert first["tournament_id"] == rivals.last["id"] and first["entrants"] == 3
    venue_names = {m["venue_id"]: m["venue_name"] for m in body["meetings"]}
    assert venue_names == {crown: rivals.scene.venue["name"], anchor: venue_names[anchor]}
    assert rivals.voided["id"] not in {m["tournament_id"] for m in body["meetings"]}
    # Paged, latest first; the totals are over every page.
    second = head_to_head(scene, ann, bob, "&per_page=2&page=2")
    assert totals(second) == totals(body) and second["pages"] == 3
    assert [m["tournament_id"] for m in second["meetings"]] == [
        m["tournament_id"] for m in body["meetings"][2:4]
    ]


def test_r17_a_merged_away_id_answers_for_its_survivor(make_scene: MakeScene) -> None:
    """R17: Dup's id, once merged into Bob, answers for Bob (as his rating history does); Bob
    against his own duplicate is refused naming `other`."""
    rivals = Rivals(make_scene)
    rivals.merge_dup()
    scene, ann, bob, dup = rivals.scene, rivals.ann, rivals.bob, rivals.dup
    body = head_to_head(scene, dup, ann)
    assert body["player"]["id"] == bob and totals(body) == (5, 3, 2, 3, 1)
    assert head_to_head(scene, ann, dup)["other"]["id"] == bob
    assert_problem(scene.public.get(f"{PLAYERS}/{bob}/head-to-head?other={dup}"), 422, "other", rule="R17")


def test_r8a_profile_counts_knockouts_per_venue_and_season(make_scene: MakeScene) -> None:
    """R8a: each profile row (venue, season) counts the knockouts made and suffered in its live
    regular reports. Ann: 1 made and 1 suffered at the Crown (the voided report left out), none
    made and 3 suffered at the Anchor; Bob (with Dup merged in): 0 and 2 at the Crown, 3 and 0
    at the Anchor; Fil knocked two out at the Crown."""
    rivals = Rivals(make_scene)
    rivals.merge_dup()
    scene, crown, anchor = rivals.scene, rivals.crown, rivals.anchor
    season = scene.season_id
    assert knockouts_by_venue(profile(scene, rivals.ann), season) == {crown: (1, 1), anchor: (0, 3)}
    assert knockouts_by_venue(profile(scene, rivals.bob), season) == {crown: (0, 2), anchor: (3, 0)}
    assert knockouts_by_venue(profile(scene, rivals.fillers[0]), season) == {crown: (2, 0), anchor: (0, 0)}


def test_r8a_the_nemesis_is_named_from_three_knockouts(make_scene: MakeScene) -> None:
    """R8a: Bob knocked Ann out twice before the merge: no nemesis. With Dup's knockout his
    (R17), three: Bob is her nemesis. Nobody knocked Bob out three times."""
    rivals = Rivals(make_scene)
    scene, ann, bob = rivals.scene, rivals.ann, rivals.bob
    assert profile(scene, ann)["nemesis"] is None
    rivals.merge_dup()
    body = profile(scene, ann)
    assert body["nemesis"] == {
        "player": {"id": bob, "display_name": "Bob B.", "label": "Bob B."},
        "knockouts": 3,
    }
    assert body["label"] == "Ann A."
    assert profile(scene, bob)["nemesis"] is None


def test_r8a_a_nemesis_tie_goes_to_the_latest_and_a_voided_report_counts_nowhere(
    make_scene: MakeScene,
) -> None:
    """R8a: Cat and Dan each knock Eve out twice: no nemesis. Cat a third time: Cat (3). Dan a
    third time, later: 3 each, Dan did it last, Dan. That report voided: Cat again."""
    scene = make_scene()
    cat, dan, eve = scene.players("Cat C.", "Dan D.", "Eve E.")
    (filler,) = scene.fillers(1)
    for day_ago, knocker in ((40, cat), (38, dan), (36, cat), (34, dan)):
        knockout_report(scene, [knocker, eve, filler], {eve: knocker}, days_ago(day_ago))
    assert profile(scene, eve)["nemesis"] is None
    knockout_report(scene, [cat, eve, filler], {eve: cat}, days_ago(30))
    assert profile(scene, eve)["nemesis"]["player"]["id"] == cat
    later = knockout_report(scene, [dan, eve, filler], {eve: dan}, days_ago(28))
    nemesis = profile(scene, eve)["nemesis"]
    assert (nemesis["player"]["id"], nemesis["knockouts"]) == (dan, 3)
    void(scene, later)
    nemesis = profile(scene, eve)["nemesis"]
    assert (nemesis["player"]["id"], nemesis["knockouts"]) == (cat, 3)


def test_r19_players_are_shown_by_display_name_told_apart_by_number(make_scene: MakeScene) -> None:
    """R19: the public sees display names only; two players of one display name are labelled
    with their numbers, in the head-to-head and on a profile whose nemesis shares the name; an
    erased player shows the display name the erasure gave."""
    scene = make_scene()
    kim, king = scene.players("Crystal K.", "Crystal K.")
    (filler,) = scene.fillers(1)
    for day_ago in (30, 25, 20):
        knockout_report(scene, [king, kim, filler], {kim: king}, days_ago(day_ago))
    response = scene.public.get(f"{PLAYERS}/{kim}/head-to-head?other={king}")
    body = response.get_json()
    assert not PERSONAL_KEYS & keys_in(body)
    assert (body["player"]["label"], body["other"]["label"]) == (f"Crystal K. #{kim}", f"Crystal K. #{king}")
    assert totals(body) == (3, 0, 3, 0, 3)
    kims = profile(scene, kim)
    assert kims["label"] == f"Crystal K. #{kim}"
    assert kims["nemesis"]["player"] == {
        "id": king,
        "display_name": "Crystal K.",
        "label": f"Crystal K. #{king}",
    }
    assert not PERSONAL_KEYS & keys_in(kims)
    erased = scene.office.post(f"{PLAYERS}/{king}/erase", json={"reason": "Asked by email."})
    assert erased.status_code == 200, erased.get_data(as_text=True)
    shown = erased.get_json()["display_name"]
    assert head_to_head(scene, kim, king)["other"] == {"id": king, "display_name": shown, "label": shown}
    assert profile(scene, kim)["nemesis"]["player"]["display_name"] == shown


def test_r8a_head_to_head_refusals_are_problems(scene: Scene) -> None:
    """An unknown player is a 404 (naming `other` for the other); `other` left out, unreadable or
    naming the player is a 422 naming `other`; an unknown parameter a 400."""
    ann, bob = scene.players("Ann A.", "Bob B.")
    path = f"{PLAYERS}/{ann}/head-to-head"
    unknown = 987654321
    assert (
        str(unknown)
        in assert_problem(scene.public.get(f"{PLAYERS}/{unknown}/head-to-head?other={bob}"), 404)["detail"]
    )
    assert str(unknown) in assert_problem(scene.public.get(f"{path}?other={unknown}"), 404, "other")["detail"]
    for query in ("", "?other=", "?other=abc", "?other=0", "?other=1.5", "?other=²", f"?other={ann}"):
        assert_problem(scene.public.get(path + query), 422, "other")
    assert_problem(scene.public.get(f"{path}?other={bob}&per_page=0"), 422, "per_page")
    assert_problem(scene.public.get(f"{path}?other={bob}&venue_id=1"), 400, "venue_id")
    # Never met: a 200 with nothing in it.
    body = head_to_head(scene, ann, bob)
    assert totals(body) == (0, 0, 0, 0, 0) and body["meetings"] == [] and body["pages"] == 0


def test_r8a_head_to_head_is_fresh_after_a_write(scene: Scene) -> None:
    """The answer is cached and revalidated as other player reads are: a 304 while nothing
    changed, a new answer once a report is posted or voided."""
    ann, bob = scene.players("Ann A.", "Bob B.")
    path = f"{PLAYERS}/{ann}/head-to-head?other={bob}"
    knockout_report(scene, [ann, bob], {bob: ann}, days_ago(20))
    first = scene.public.get(path)
    etag = first.headers["ETag"]
    assert scene.public.get(path, headers={"If-None-Match": etag}).status_code == 304
    report = knockout_report(scene, [bob, ann], {ann: bob}, days_ago(18))
    after = scene.public.get(path, headers={"If-None-Match": etag})
    assert after.status_code == 200 and totals(after.get_json()) == (2, 1, 1, 1, 1)
    void(scene, report)
    again = scene.public.get(path, headers={"If-None-Match": after.headers["ETag"]})
    assert again.status_code == 200 and totals(again.get_json()) == (1, 1, 0, 1, 0)
