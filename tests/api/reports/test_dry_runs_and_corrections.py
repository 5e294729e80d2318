"""For hosts: a dry run answers what would be stored and stores nothing; a correction resends only
what changes; the same results posted twice are flagged (R4, R5, R17, R18)."""

from __future__ import annotations

from tests.builders import TOURNAMENTS, Scene, days_ago, iso, points_by_place, unique_email
from tests.support.league import assert_problem


def audit_total(scene: Scene) -> int:
    return int(scene.office.get("/api/v1/audit-log").get_json()["total"])


# What only a stored report has: a dry run's answer never carries them (nothing was stored).
STORED_ONLY = {"id", "version", "created_at", "updated_at", "voided", "voided_at", "void_reason"}


def test_a_dry_run_answers_what_would_be_stored_and_stores_nothing(scene: Scene) -> None:
    """A dry run says so first (`dry_run` is the answer's first key) and has no id, version or
    timestamps; a player it would register has no id and is `new`, the others are not."""
    ids = scene.add_players(9)
    body = scene.body(ids)
    body["results"].append({"place": 10, "new_player": {"full_name": "Dry Run", "email": unique_email()}})
    before, log = scene.counts(), audit_total(scene)
    tried = scene.host.post(f"{TOURNAMENTS}?dry_run=1", json=body, headers={"Idempotency-Key": "k-dry"})
    assert tried.status_code == 200, tried.get_json()
    assert "ETag" not in tried.headers
    answer = tried.get_json()
    assert list(answer)[0] == "dry_run" and answer["dry_run"] is True
    assert not STORED_ONLY & set(answer)
    assert list(answer) == [
        "dry_run",
        "venue_id",
        "season_id",
        "date",
        "session",
        "kind",
        "entrants",
        "reported_by",
        "reported_by_role",
        "results",
        "warnings",
    ]
    assert points_by_place(answer)[:3] == [(1, 30, 0, 30), (2, 20, 0, 20), (3, 10, 0, 10)]
    new = {"id": None, "display_name": "Dry R.", "label": "Dry R.", "new": True}
    assert answer["results"][9]["player"] == new
    assert [r["player"] for r in answer["results"][:9]] == [
        {"id": i, "display_name": p["display_name"], "label": p["display_name"], "new": False}
        for i, p in zip(ids, scene.roster[-9:], strict=True)
    ]
    assert scene.counts() == before and audit_total(scene) == log
    # The same key then stores for real: the dry run left nothing to replay.
    stored = scene.host.post(TOURNAMENTS, json=body, headers={"Idempotency-Key": "k-dry"})
    assert stored.status_code == 201 and "dry_run" not in stored.get_json()
    assert set(stored.get_json()) >= STORED_ONLY
    assert "new" not in stored.get_json()["results"][9]["player"]
    assert points_by_place(stored.get_json()) == points_by_place(answer)


def test_r5_a_dry_runs_warnings_name_no_player_it_would_register(scene: Scene) -> None:
    """R5: a dry run's possible-duplicate warning names the stored look-alike by id, the new player
    by name alone, and a look-alike registered earlier in the same report by its row (none of them
    was stored: an id would name nobody, or somebody registered later)."""
    match = scene.league.player("Jonathan Whitfield")
    body = scene.body(scene.players("Ann", "Bob"), days_ago(1))
    body["results"] += [
        {"place": 3, "new_player": {"full_name": "Jonathon Whitfield", "email": unique_email()}},
        {"place": 4, "new_player": {"full_name": "Jonathon Whitfield", "email": unique_email()}},
    ]
    tried = scene.office.post(f"{TOURNAMENTS}?dry_run=1", json=body).get_json()
    first, second = (w for w in tried["warnings"] if w["code"] == "possible_duplicate")
    assert first["player_ids"] == [match["id"]] and second["player_ids"] == [match["id"]]
    assert first["message"] == (
        f"place 3: the new player Jonathon W. closely matches Jonathan W. (#{match['id']}); "
        "once stored, the office can merge them (R5)."
    )
    assert second["message"] == (
        f"place 4: the new player Jonathon W. closely matches Jonathan W. (#{match['id']}) and "
        "the new player(s) of place 3; once stored, the office can merge them (R5)."
    )
    assert [r["player"]["id"] for r in tried["results"][2:]] == [None, None]
    stored = scene.office.post(TOURNAMENTS, json=body).get_json()
    new_ids = [r["player"]["id"] for r in stored["results"][2:]]
    warned = [w for w in stored["warnings"] if w["code"] == "possible_duplicate"]
    assert [w["player_ids"] for w in warned] == [[match["id"]], [new_ids[0], match["id"]]]
    assert warned[1]["message"] == (
        f"place 4: the new player Jonathon W. (#{new_ids[1]}) closely matches Jonathon W. "
        f"(#{new_ids[0]}), Jonathan W. (#{match['id']}); the office can merge them (R5)."
    )


def test_a_dry_run_is_refused_like_the_real_thing_r4(scene: Scene) -> None:
    body = scene.body(scene.add_players(3))
    body["results"][2]["place"] = 2
    before = scene.counts()
    refused = scene.host.post(f"{TOURNAMENTS}?dry_run=1", json=body)
    assert_problem(refused, 422, "results.2.place", rule="R4")
    assert scene.counts() == before


def test_a_dry_run_correction_changes_nothing_r17(scene: Scene) -> None:
    """R17: a correction's dry run is plainly one too: `dry_run` first, no id, no version (not the
    stored one, nor the one it would claim), no timestamps; the report stays as it was."""
    ids = scene.add_players(4)
    report = scene.posted(scene.body(ids))
    url = f"{TOURNAMENTS}/{report['id']}"
    results = scene.body(ids[::-1])["results"]
    results.append({"place": 5, "new_player": {"full_name": "Late Comer", "email": unique_email()}})
    tried = scene.host.put(f"{url}?dry_run=1", json={"results": results, "reason": "x"})
    assert tried.status_code == 200 and "ETag" not in tried.headers
    answer = tried.get_json()
    assert list(answer)[0] == "dry_run" and answer["dry_run"] is True
    assert not STORED_ONLY & set(answer) and answer["entrants"] == 5
    assert answer["results"][0]["player"] == {
        "id": ids[-1],
        "display_name": scene.roster[-1]["display_name"],
        "label": scene.roster[-1]["display_name"],
        "new": False,
    }
    new = {"id": None, "display_name": "Late C.", "label": "Late C.", "new": True}
    assert answer["results"][4]["player"] == new
    assert scene.public.get(url).get_json()["results"][0]["player"]["id"] == ids[0]
    assert scene.public.get(url).get_json()["version"] == 1
    corrected = scene.host.put(url, json={"results": results, "reason": "x"})
    assert corrected.status_code == 200 and "dry_run" not in corrected.get_json()
    assert corrected.get_json()["version"] == 2 and corrected.headers["ETag"]


def test_a_correction_may_resend_only_the_results_r17(scene: Scene) -> None:
    """R17: venue, date, session and kind left out keep the stored ones (JSON and CSV)."""
    ids = scene.add_players(4)
    report = scene.posted(scene.body(ids, days_ago(3), session=2))
    url = f"{TOURNAMENTS}/{report['id']}"
    corrected = scene.host.put(url, json={"results": scene.body(ids[::-1])["results"], "reason": "reversed"})
    assert corrected.status_code == 200, corrected.get_json()
    fixed = corrected.get_json()
    assert (fixed["venue_id"], fixed["date"], fixed["session"], fixed["kind"]) == (
        scene.venue_id,
        iso(days_ago(3)),
        2,
        "regular",
    )
    assert fixed["results"][0]["player"]["id"] == ids[-1]
    csv_body = "place,player_id\n" + "".join(f"{i},{pid}\n" for i, pid in enumerate(ids, start=1))
    again = scene.host.put(f"{url}?reason=back", data=csv_body, content_type="text/csv")
    assert again.status_code == 200, again.get_json()
    assert (again.get_json()["date"], again.get_json()["session"]) == (iso(days_ago(3)), 2)
    assert again.get_json()["results"][0]["player"]["id"] == ids[0]


def test_the_same_results_under_another_session_are_flagged(scene: Scene) -> None:
    ids = scene.add_players(4)
    first = scene.posted(scene.body(ids, days_ago(2)))
    twin = scene.posted(scene.body(ids, days_ago(2), session=2))
    (warning,) = twin["warnings"]
    assert warning["code"] == "matches_report" and str(first["id"]) in warning["message"]
    other = scene.posted(scene.body(ids[::-1], days_ago(2), session=3))
    assert other["warnings"] == []


def test_racing_corrections_with_if_match_lose_nothing_silently_r17(scene):
    """R17: two people correct the same report from the same read. With If-Match (the ETag the
    read gave, which names the report's version) the first wins and the second gets a 412
    naming If-Match, changing nothing; read again, the second succeeds. Without If-Match the
    last one wins and each is audited. The ETag moves with every correction."""
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    report = scene.posted(scene.body([ann, bob, cy], days_ago(2)))
    path = f"{TOURNAMENTS}/{report['id']}"

    def correction(order: list[int], reason: str) -> dict[str, object]:
        return {"results": scene.body(order)["results"], "reason": reason}

    etag = scene.office.get(path).headers["ETag"]
    assert f"r{report['id']}v1" in etag
    first = scene.office.put(path, json=correction([bob, ann, cy], "Bob won."), headers={"If-Match": etag})
    assert first.status_code == 200 and first.get_json()["version"] == 2
    second = scene.host.put(path, json=correction([cy, ann, bob], "Cy won."), headers={"If-Match": etag})
    assert "version 2" in assert_problem(second, 412, "If-Match")["detail"]
    assert scene.public.get(path).get_json()["results"][0]["player"]["id"] == bob
    void = scene.office.post(f"{path}/void", json={"reason": "Twice."}, headers={"If-Match": etag})
    assert_problem(void, 412, "If-Match")
    nonsense = scene.office.put(
        path, json=correction([cy, ann, bob], "x"), headers={"If-Match": '"nonsense"'}
    )
    assert_problem(nonsense, 412, "If-Match")
    again = scene.host.get(path)
    assert again.headers["ETag"] != etag
    third = scene.host.put(
        path, json=correction([cy, ann, bob], "Cy won."), headers={"If-Match": again.headers["ETag"]}
    )
    assert third.status_code == 200 and third.get_json()["version"] == 3
    assert third.headers["ETag"] == f'"r{report["id"]}v3"'
    # Without If-Match (or with *), the last one wins; every correction is in the log.
    last = scene.office.put(path, json=correction([ann, bob, cy], "Ann."), headers={"If-Match": "*"})
    assert last.status_code == 200 and last.get_json()["version"] == 4
    assert scene.office.put(path, json=correction([bob, ann, cy], "Bob.")).status_code == 200
    log = scene.office.get(f"/api/v1/audit-log?action=tournament.correct&entity_id={report['id']}").get_json()
    assert log["total"] == 4


def test_a_reports_etag_revalidates_and_moves_with_what_it_shows_r17(scene):
    """R17: the ETag of a report names its version, yet a cached read still revalidates (304),
    and a change the version does not count (a player's new display name) still gives a new
    answer: no reader is served a stale report."""
    ann, bob = scene.players("Ann", "Bob")
    report = scene.posted(scene.body([ann, bob], days_ago(2)))
    path = f"{TOURNAMENTS}/{report['id']}"
    first = scene.public.get(path)
    assert first.headers["ETag"] == scene.public.get(path).headers["ETag"]  # the second from the cache
    assert scene.public.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    renamed = scene.office.patch(f"/api/v1/players/{ann}", json={"display_name": "Annie Z."})
    assert renamed.status_code == 200
    after = scene.public.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200
    assert after.get_json()["results"][0]["player"]["display_name"] == "Annie Z."
    assert f"r{report['id']}v1" in after.headers["ETag"]  # the same version: If-Match still holds
