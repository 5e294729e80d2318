"""R19 privacy, walking the app's own spec: full name, email, date of birth, membership number and
PIN are personal. The public never sees them; a host sees them only for players of the host's
venues (home venue, or a venue where they have a result), and the full names of the players
barred at the host's venues on its door list; the office sees them. A rich league is seeded (the
demo league, then players, reports, a correction, a void, every kind of sanction, a lift, a
disqualification, a merge, a publication, warnings and errors; and Crystal Kim and Crystal King,
both "Crystal K."), and then EVERY GET operation of /openapi.json is called with real ids, as
JSON and as CSV, and every answer body is searched for every personal value (and for the two
Crystals' surnames). A new endpoint is walked without changing this file."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from tests.builders import OFFICE_LATE, SANCTIONS, SEASONS, TOURNAMENTS, HostFor, ago, sanctioned
from tests.support.league import Caller, League, assert_problem

PLAYERS = "/api/v1/players"
SUBSCRIPTIONS = "/api/v1/email-subscriptions"
PERSONAL_KEYS = ("email", "date_of_birth", "membership_number", "pin", "full_name")
# R19: the one answer where a host reads the full name of a player not of their venues.
DOOR_LISTS = ("GET /api/v1/venues/{venue_id}/barred", "GET /api/v1/venues/{venue_id}/barred.csv")
# Crystal Kim and Crystal King are both "Crystal K.": a surname beyond its initial must not show.
SURNAMES = re.compile(r"crystal\s+ki(m|ng)\b", re.IGNORECASE)
UNKNOWN_ID = 987654321
# Per path parameter, how many ids are tried (players: every one seeded here, see `Seeded.ids`).
CAP = 6


# The seeded league -------------------------------------------------------------------------------


@dataclass
class Seeded:
    """Ids of the league seeded for the sweep, per path parameter name, most interesting first."""

    ids: dict[str, list[int]]
    crown: int  # the demo venue the host sweep's host keeps
    own: list[int]  # players added here whose home venue is The Crown
    foreign: list[int]  # players added here who never played at The Crown nor call it home
    crystals: list[int]  # Crystal Kim and Crystal King, both "Crystal K.", played at The Anchor
    host_answers: list[tuple[str, Any]] = field(default_factory=list)  # seeding answers to the host
    public_answers: list[tuple[str, Any]] = field(default_factory=list)


def created(caller: Caller, path: str, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    response = caller.post(path, json=body)
    assert response.status_code == status, (path, response.get_data(as_text=True))
    data: dict[str, Any] = response.get_json()
    return data


def add_player(office: Caller, full_name: str, **fields: Any) -> int:
    body = {"full_name": full_name, **fields}
    return int(created(office, PLAYERS, body)["id"])


def report_body(
    venue_id: int, season_id: int, day: str, order: list[int], reason: str | None = None
) -> dict[str, Any]:
    """A report body; with the office's `reason` for a night past the hosts' window (R17)."""
    return {
        "venue_id": venue_id,
        "season_id": season_id,
        "date": day,
        "results": [{"place": place, "player_id": pid} for place, pid in enumerate(order, start=1)],
        **({} if reason is None else {"reason": reason}),
    }


def seed(runner: Any, office: Caller, public: Caller, league: League, host_for: HostFor) -> Seeded:
    """The demo league through the CLI, then the rest through HTTP as the office (and a host)."""
    loaded = runner.invoke(args=["demo", "load"])
    assert loaded.exit_code == 0, loaded.output
    venues = office.get("/api/v1/venues?per_page=500").get_json()["items"]
    crown = next(v["id"] for v in venues if v["name"] == "The Crown")
    demo_season = office.get(SEASONS).get_json()["items"][0]["id"]

    # An ended season in its own region, with a venue of its own (the demo season covers all
    # regions: it is narrowed to its own first, R2).
    demo_region = office.get("/api/v1/regions").get_json()["items"][0]["id"]
    narrowed = office.patch(f"{SEASONS}/{demo_season}", json={"region_ids": [demo_region]})
    assert narrowed.status_code == 200, narrowed.get_data(as_text=True)
    region = league.region(name="Old Marches")
    old_venue = league.venue(region["id"], name="The Anchor")["id"]
    old = league.season(name="Spring past", starts_on=ago(80), ends_on=ago(10), region_ids=[region["id"]])
    old_id = old["id"]
    chart = league.chart(name="Sweep chart")

    alice, bob, cara, dan, fay, gil, dupe, hal, twin = seed_players(office, crown, old_venue)

    # Reports in the ended season: JSON, CSV (by email and membership number), a correction, a void.
    first = created(
        office,
        TOURNAMENTS,
        report_body(old_venue, old_id, ago(75), [bob, cara, dan, fay, gil, hal], OFFICE_LATE),
    )
    csv_text = "\n".join(
        [
            "place,status,player_id,email,membership_number",
            f"1,,{dupe},,",
            "2,,,cara.quay@example.org,",
            "3,,,,196806150777",
            f"4,,{gil},,",
            "5,,,fay.fog@example.org,",
        ]
    )
    response = office.post(
        f"{TOURNAMENTS}?venue_id={old_venue}&season_id={old_id}&date={ago(72)}&reason={quote(OFFICE_LATE)}",
        data=csv_text.encode(),
        content_type="text/csv",
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    by_csv = response.get_json()
    corrected = {
        **report_body(old_venue, old_id, ago(75), [cara, bob, dan, fay, gil, hal]),
        "reason": "Misread.",
    }
    response = office.put(f"{TOURNAMENTS}/{first['id']}", json=corrected)
    assert response.status_code == 200, response.get_data(as_text=True)
    doomed = created(
        office, TOURNAMENTS, report_body(old_venue, old_id, ago(70), [hal, gil, fay, cara], OFFICE_LATE)
    )
    response = office.post(f"{TOURNAMENTS}/{doomed['id']}/void", json={"reason": "Wrong venue."})
    assert response.status_code == 200, response.get_data(as_text=True)
    third = created(
        office, TOURNAMENTS, report_body(old_venue, old_id, ago(68), [bob, dan, cara, fay], OFFICE_LATE)
    )
    # R19: two players of one display name, in the standings, the lists and the pages (numbered).
    kim = add_player(office, "Crystal Kim", email="crystal.kim@example.org", home_venue_id=old_venue)
    king = add_player(office, "Crystal King", email="crystal.king@example.org", home_venue_id=old_venue)
    created(office, TOURNAMENTS, report_body(old_venue, old_id, ago(66), [kim, king, cara, fay], OFFICE_LATE))

    # Sanctions of each kind, a lift, a disqualification, a merge, a publication.
    reminder = sanctioned(office, fay, "reminder", "late_arrival", first_day=ago(20), last_day=ago(20))
    warning = sanctioned(office, gil, "warning", "berating", first_day=ago(5), last_day=ago(5))
    suspension = sanctioned(office, dan, "suspension", "fighting", first_day=ago(3), last_day=ago(-30))
    ban = sanctioned(office, cara, "venue_ban", "outside_alcohol", venue_id=old_venue)
    crown_ban = sanctioned(office, hal, "venue_ban", "fighting", venue_id=crown, first_day=ago(1))
    lifted = created(office, f"{SANCTIONS}/{reminder['id']}/lift", {"reason": "Apologised."}, 200)
    assert lifted["lifted"] is True
    dq = created(office, f"{SEASONS}/{old_id}/disqualifications", {"player_id": gil, "reason": "Collusion."})
    merge = created(office, f"{PLAYERS}/{bob}/merge", {"duplicate_id": dupe, "reason": "Same Bob."}, 200)
    published = office.post(
        f"{SEASONS}/{old_id}/qualifiers/publish", json={"settlements": [], "note": "Done."}
    )
    assert published.status_code == 201, published.get_data(as_text=True)

    host = host_for(crown, name="Host: Crown sweep")
    answers, own_new = host_seeding_answers(host, crown, demo_season, alice, dan, hal)
    public_answers = public_seeding_answers(public, crown, demo_season, dan)

    structure, night, nights = seed_night(office, crown, [alice, bob, dan, fay], venues)

    # R23: a staff subscription that heard every event (its log holds no payload).
    webhook = office.post(
        "/api/v1/webhooks", json={"url": "https://hooks.example.org/league", "events": ["*"], "staff": True}
    ).get_json()
    assert office.post(f"/api/v1/webhooks/{webhook['id']}/ping").status_code == 202
    listed = listed_ids(office)
    mine = [alice, bob, cara, dan, fay, gil, dupe, hal, twin, own_new, kim, king]
    ids = {
        "player_id": list(dict.fromkeys([*mine, *listed["players"]])),  # every player
        "season_id": first_ids([old_id, demo_season], listed["seasons"]),
        "venue_id": first_ids([old_venue, crown], [v["id"] for v in venues]),
        "tournament_id": first_ids(
            [first["id"], by_csv["id"], doomed["id"], third["id"]],
            sorted(listed["tournaments"], reverse=True),
        ),
        "sanction_id": first_ids(
            [s["id"] for s in (reminder, warning, suspension, ban, crown_ban)], listed["sanctions"]
        ),
        "chart_id": first_ids([chart["id"]], listed["charts"]),
        "region_id": first_ids([region["id"]], listed["regions"]),
        "merge_id": first_ids([merge["merge_id"]], listed["merges"]),
        "disqualification_id": [dq["id"]],
        "key_id": first_ids([], listed["keys"]),
        "structure_id": [structure["id"]],
        "night_id": first_ids([night["id"]], nights),
        "webhook_id": [webhook["id"]],
    }
    return Seeded(
        # The site's pages (R24): a night's result, and the sitemap's first part.
        ids=ids | {"report_id": ids["tournament_id"], "part": [1]},
        crown=crown,
        own=[alice, own_new],
        foreign=[bob, cara, dan, fay, gil, dupe],
        crystals=[kim, king],
        host_answers=answers,
        public_answers=public_answers,
    )


def seed_night(
    office: Caller, crown: int, players: list[int], venues: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any], list[int]]:
    """R22: a structure, and a night at the Crown with these players signed in (the office lets
    in whoever a sanction bars, with a reason); with every night's id."""
    levels = [{"small_blind": 25, "big_blind": 50, "minutes": 20}]
    structure = created(
        office, "/api/v1/structures", {"name": "Sweep", "starting_chips": 5000, "levels": levels}
    )
    night = created(office, f"/api/v1/venues/{crown}/nights", {})
    for n, pid in enumerate(players):
        body = {
            "action_id": f"sweep-sign-in-{n}",
            "sequence": n,
            "type": "sign_in",
            "player": {"player_id": pid},
        }
        created(office, f"/api/v1/nights/{night['id']}/actions", {**body, "override_reason": "Sweep."}, 200)
    nights = [
        n["id"] for v in venues for n in office.get(f"/api/v1/venues/{v['id']}/nights").get_json()["items"]
    ]
    return structure, night, nights


def seed_players(office: Caller, crown: int, old_venue: int) -> list[int]:
    """Players with every personal field (membership number = date of birth + PIN), and a
    possible duplicate of Alice."""
    alice = add_player(
        office,
        "Alice Wonderprivate",
        email="alice.wonder@example.org",
        membership_number="198507211234",
        home_venue_id=crown,
    )
    bob = add_player(
        office,
        "Bob Anchorman",
        email="bob.anchor@example.org",
        date_of_birth="1979-03-04",
        membership_number="197903045678",
        home_venue_id=old_venue,
    )
    cara = add_player(
        office,
        "Cara Quayside",
        email="cara.quay@example.org",
        membership_number="199212310042",
        home_venue_id=old_venue,
    )
    dan = add_player(
        office,
        "Dan Driftwood",
        email="dan.drift@example.org",
        membership_number="196806150777",
        home_venue_id=old_venue,
    )
    fay = add_player(office, "Fay Fogbank", email="fay.fog@example.org", date_of_birth="2001-11-09")
    gil = add_player(office, "Gil Gangway", email="gil.gang@example.org", membership_number="197712249001")
    dupe = add_player(office, "Robert Anchorman", email="robert.a@example.org", date_of_birth="1979-03-04")
    hal = add_player(office, "Hal Harbour", email="hal.harbour@example.org", membership_number="198802290315")
    # A possible duplicate of Alice (R5): created with a warning listing her.
    twin = created(office, PLAYERS, {"full_name": "Alice Wonderprivat", "email": "alice.twin@example.org"})
    assert [w["code"] for w in twin["warnings"]] == ["possible_duplicate"]
    return [alice, bob, cara, dan, fay, gil, dupe, hal, int(twin["id"])]


def first_ids(preferred: list[int], rest: list[int], cap: int = CAP) -> list[int]:
    ordered = list(dict.fromkeys([*preferred, *rest]))
    return ordered[: max(cap, len(preferred))]


def listed_ids(office: Caller) -> dict[str, list[int]]:
    """Every id the office's lists give, by what they list."""
    lists = {
        "players": PLAYERS,
        "seasons": SEASONS,
        "tournaments": f"{TOURNAMENTS}?include_voided=true",
        "sanctions": SANCTIONS,
        "keys": "/api/v1/api-keys",
        "charts": "/api/v1/points-charts",
        "regions": "/api/v1/regions",
        "merges": "/api/v1/player-merges",
    }
    ids = {}
    for name, path in lists.items():
        joiner = "&" if "?" in path else "?"
        ids[name] = [item["id"] for item in office.get(f"{path}{joiner}per_page=500").get_json()["items"]]
    return ids


def host_seeding_answers(
    host: Caller, crown: int, demo_season: int, alice: int, dan: int, hal: int
) -> tuple[list[tuple[str, Any]], int]:
    """A host of The Crown: a player of their own, a possible duplicate (a warning), and errors;
    the answers they got, and their new player's id."""
    answers: list[tuple[str, Any]] = []
    own_new = host.post(
        PLAYERS,
        json={"full_name": "Hal Harbor", "email": "hal.harbor@example.org", "home_venue_id": crown},
    )
    assert own_new.status_code == 201, own_new.get_data(as_text=True)
    assert [w["code"] for w in own_new.get_json()["warnings"]] == ["possible_duplicate"]
    answers.append(("POST /players (possible duplicate)", own_new))
    refused = host.post(TOURNAMENTS, json=report_body(crown, demo_season, ago(1), [alice, dan, hal]))
    assert_problem(refused, 422)
    assert str(dan) in refused.get_data(as_text=True)
    answers.append(("POST /tournaments naming suspended players", refused))
    answers.append(("GET unknown player", host.get(f"{PLAYERS}/{UNKNOWN_ID}")))
    assert answers[-1][1].status_code == 404
    bad = host.post(PLAYERS, json={"full_name": "X Y", "email": "xy@example.org", "membership_number": "1"})
    assert_problem(bad, 422, "membership_number")
    answers.append(("POST /players with a bad number", bad))
    return answers, int(own_new.get_json()["id"])


def public_seeding_answers(public: Caller, crown: int, demo_season: int, dan: int) -> list[tuple[str, Any]]:
    """The public's refused attempts while the league was seeded, and its requests for the
    weekly email naming a player's address (R23: answered as for anyone's, naming no one)."""
    dans = "dan.drift@example.org"
    answers = [
        ("public report", public.post(TOURNAMENTS, json=report_body(crown, demo_season, ago(1), [dan]))),
        ("public unknown player", public.get(f"{PLAYERS}/{UNKNOWN_ID}")),
        ("public bad page", public.get(f"{PLAYERS}?per_page=0")),
        ("public asks the weekly email for a player", public.post(SUBSCRIPTIONS, json={"email": dans})),
        ("public asks it on the page", public.client.post("/email/subscribe", data={"email": dans})),
    ]
    assert [r.status_code for _, r in answers] == [401, 404, 422, 202, 200]
    return answers


# Personal values ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Personal:
    """One personal value of one player."""

    player_id: int
    key: str
    value: str


def personal_values(office: Caller, player_ids: list[int]) -> list[Personal]:
    """Every personal value of these players (and of every listed player), as the office sees it."""
    listed = office.get(f"{PLAYERS}?per_page=500").get_json()["items"]
    records = {p["id"]: p for p in listed}
    for pid in player_ids:
        if pid not in records:  # merged away: not listed, still a record
            records[pid] = office.get(f"{PLAYERS}/{pid}").get_json()
    found = []
    for record in records.values():
        for key in PERSONAL_KEYS:
            if record.get(key) is not None:
                found.append(Personal(record["id"], key, str(record[key])))
    return found


# The walk ----------------------------------------------------------------------------------------


@dataclass
class Answer:
    operation: str  # "GET /api/v1/players/{player_id}"
    url: str
    headers: dict[str, str]
    status: int
    mimetype: str
    text: str


def example(param: dict[str, Any]) -> str:
    """A sensible value for a query parameter the operation requires, from its schema."""
    schema = param.get("schema", {})
    if param["name"] == "entrants":
        return "12"
    if "enum" in schema:
        return str(schema["enum"][0])
    if schema.get("type") == "integer":
        return str(max(1, int(schema.get("minimum", 1))))
    if schema.get("type") == "boolean":
        return "true"
    if schema.get("format") == "date":
        return ago(0)
    return "a"


def get_operations(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    for path, item in spec["paths"].items():
        if "get" in item:
            yield path, item["get"], [*item.get("parameters", []), *item["get"].get("parameters", [])]


def requests_of(
    path: str, params: list[dict[str, Any]], ids: dict[str, list[int]]
) -> Iterator[tuple[str, dict[str, str]]]:
    """(url, headers) to call for one GET operation: each combination of real ids; as JSON, with
    ?format=csv, with Accept: text/csv; each optional enum or boolean query value; per_page=500 for
    lists; and an unknown id (404) and a bad page (422) for the error answers."""
    names = [p["name"] for p in params if p["in"] == "path"]
    missing = [n for n in names if n not in ids]
    assert not missing, f"{path}: no seeded ids for path parameter(s) {missing}; add them to `seed`"
    query = {p["name"]: example(p) for p in params if p["in"] == "query" and p.get("required")}
    optional = [p for p in params if p["in"] == "query" and not p.get("required")]
    optional_names = {p["name"] for p in optional}
    variants: list[tuple[dict[str, str], dict[str, str]]] = [
        (query, {}),
        ({**query, "format": "csv"}, {}),
        (query, {"Accept": "text/csv"}),
    ]
    if "per_page" in optional_names:
        variants.append(({**query, "per_page": "500"}, {}))
        variants.append(({**query, "per_page": "500", "format": "csv"}, {}))
    for p in optional:
        schema = p.get("schema", {})
        values = [str(v) for v in schema.get("enum", [])]
        if schema.get("type") == "boolean":
            values = ["true"]
        variants += [({**query, p["name"]: value, "per_page": "500"}, {}) for value in values]
    for combo in itertools.product(*[ids[n] for n in names]):
        url = path.format(**dict(zip(names, combo, strict=True)))
        for args, headers in variants:
            yield (f"{url}?{urlencode(args)}" if args else url), headers
    if names:
        yield path.format(**dict.fromkeys(names, UNKNOWN_ID)), {}
    if "per_page" in optional_names:
        yield path.format(**{n: ids[n][0] for n in names}) + "?per_page=0", {}


def walk(caller: Caller, spec: dict[str, Any], ids: dict[str, list[int]]) -> tuple[list[Answer], set[str]]:
    """Call every GET operation of the spec as the caller; the answers and the operations walked."""
    answers: list[Answer] = []
    walked: set[str] = set()
    for path, _operation, params in get_operations(spec):
        for url, headers in requests_of(path, params, ids):
            response = caller.get(url, headers=headers)
            answers.append(
                Answer(
                    f"GET {path}",
                    url,
                    headers,
                    response.status_code,
                    response.mimetype,
                    # An image card (R24) is searched as text too: it draws display names only.
                    response.get_data().decode("utf-8", "replace"),
                )
            )
            walked.add(f"GET {path}")
    return answers, walked


def keys_in(value: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (key, object holding it) of a JSON value, however deep."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key, value
            yield from keys_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_in(inner)


def is_error_map(holder: dict[str, Any]) -> bool:
    """A problem's `errors` ({field: [message, ...]}): a key there names a field sent, not a value."""
    return all(isinstance(v, list) and all(isinstance(m, str) for m in v) for v in holder.values())


def csv_header(answer: Answer) -> list[str]:
    rows = list(csv.reader(io.StringIO(answer.text.lstrip("\ufeff"))))
    return rows[0] if rows else []


def leaks(answer: Answer, secrets: list[Personal]) -> list[str]:
    """Personal values (emails, ISO dates of birth, membership numbers) found in the answer's body."""
    text = answer.text.lower()
    return sorted(
        {
            f"{s.key} of player {s.player_id}: {s.value}"
            for s in secrets
            if s.key != "pin" and s.value.lower() in text
        }
    )


def personal_keys(answer: Answer) -> list[str]:
    """Personal keys in a JSON answer (anywhere) or personal columns in a CSV answer."""
    if answer.mimetype == "text/csv":
        return [c for c in csv_header(answer) if c in PERSONAL_KEYS]
    if "json" not in answer.mimetype:
        return []
    return sorted({key for key, _ in keys_in(json.loads(answer.text)) if key in PERSONAL_KEYS})


def describe(answer: Answer, found: list[str]) -> str:
    return f"{answer.operation} {answer.url} {answer.headers} -> {answer.status}: {found}"


@pytest.fixture()
def seeded(runner: Any, office: Caller, public: Caller, league: League, host_for: HostFor) -> Seeded:
    return seed(runner, office, public, league, host_for)


def spec_of(public: Caller) -> dict[str, Any]:
    response = public.get("/openapi.json")
    assert response.status_code == 200
    data: dict[str, Any] = response.get_json()
    return data


# The sweeps (R19) --------------------------------------------------------------------------------


def test_the_public_never_sees_a_personal_value_anywhere_r19(
    seeded: Seeded, office: Caller, public: Caller
) -> None:
    """R19: every GET operation of the spec, as the public, with real ids, JSON and CSV, lists
    and errors: no full name, email, date of birth or membership number of anyone, no personal
    key, and no surname of Crystal Kim or Crystal King beyond its initial (they are told apart
    by their numbers: "Crystal K. #48")."""
    spec = spec_of(public)
    secrets = personal_values(office, seeded.ids["player_id"])
    kinds = {s.key for s in secrets}
    assert kinds == set(PERSONAL_KEYS), kinds
    assert len([s for s in secrets if s.key == "email"]) >= 36 + 9
    # The checker finds what the office is allowed to see (so it can fail).
    office_answer = office.get(f"{PLAYERS}/{seeded.foreign[0]}")
    as_answer = Answer("office", "", {}, 200, office_answer.mimetype, office_answer.get_data(as_text=True))
    assert leaks(as_answer, secrets) and personal_keys(as_answer)
    assert SURNAMES.search(office.get(f"{PLAYERS}/{seeded.crystals[0]}").get_data(as_text=True))

    answers, walked = walk(public, spec, seeded.ids)
    operations = {f"GET {path}" for path, _, _ in get_operations(spec)}
    assert len(walked) >= len(operations) == sum("get" in item for item in spec["paths"].values())
    assert len(operations) >= 29
    statuses = {a.status for a in answers}
    assert {200, 401, 404, 422} <= statuses, statuses
    # The public does read players, standings, reports and qualifiers (so there is something to leak).
    read = {a.operation for a in answers if a.status == 200}
    for must in (
        "/api/v1/players/{player_id}",
        "/api/v1/seasons/{season_id}/venues/{venue_id}/standings",
        "/api/v1/tournaments/{tournament_id}",
        "/api/v1/seasons/{season_id}/qualifiers",
    ):
        assert f"GET {must}" in read, must
    assert any(a.mimetype == "text/csv" and a.status == 200 for a in answers)

    problems = []
    for answer in answers + [
        Answer(name, "", {}, r.status_code, r.mimetype, r.get_data(as_text=True))
        for name, r in seeded.public_answers
    ]:
        found = leaks(answer, secrets) + [f"key {k}" for k in personal_keys(answer)]
        if SURNAMES.search(answer.text):
            found.append(f"a surname: {SURNAMES.search(answer.text).group(0)}")  # type: ignore[union-attr]
        if found:
            problems.append(describe(answer, found))
    assert not problems, f"{len(problems)} answer(s) leak personal data:\n" + "\n".join(problems[:40])
    # The two Crystals are listed to the public, told apart by their numbers (so there was
    # something to leak).
    numbered = {f"Crystal K. #{pid}" for pid in seeded.crystals}
    assert any(all(label in a.text for label in numbered) for a in answers if "json" in a.mimetype)
    assert any(all(label in a.text for label in numbered) for a in answers if a.mimetype == "text/html")


def allowed_players(office: Caller, venue_id: int, player_ids: list[int]) -> set[int]:
    """R19: players of the venue: home venue, or a result there (voided reports too)."""
    players = office.get(f"{PLAYERS}?per_page=500").get_json()["items"]
    allowed = {p["id"] for p in players if p["home_venue_id"] == venue_id}
    for pid in player_ids:
        if office.get(f"{PLAYERS}/{pid}").get_json()["home_venue_id"] == venue_id:
            allowed.add(pid)
    page = 1
    while True:
        listing = office.get(
            f"{TOURNAMENTS}?venue_id={venue_id}&include_voided=true&per_page=500&page={page}"
        ).get_json()
        for item in listing["items"]:
            allowed |= {r["player"]["id"] for r in item["results"]}
        if page >= listing["pages"]:
            break
        page += 1
    return allowed


def test_a_host_sees_personal_values_only_of_their_venues_players_r19(
    seeded: Seeded, office: Caller, public: Caller, host_for: HostFor
) -> None:
    """R19: the same sweep as a host of The Crown: no personal value of a player who neither calls
    The Crown home nor has a result there; and the host does see their own players' values."""
    spec = spec_of(public)
    host = host_for(seeded.crown, name="Host: Crown reader")
    secrets = personal_values(office, seeded.ids["player_id"])
    allowed = allowed_players(office, seeded.crown, seeded.ids["player_id"])
    assert set(seeded.own) <= allowed
    assert set(seeded.foreign).isdisjoint(allowed)
    shared = {s.value.lower() for s in secrets if s.player_id in allowed}
    # A value the host may read holds any value it contains ("Alice Wonderprivat", a look-alike's
    # name, is in "Alice Wonderprivate", the host's own player's).
    forbidden = [
        s for s in secrets if s.player_id not in allowed and not any(s.value.lower() in v for v in shared)
    ]
    assert {s.player_id for s in forbidden} >= set(seeded.foreign) - {seeded.foreign[-1]}
    own_values = [s for s in secrets if s.player_id in seeded.own and s.key == "email"]
    assert own_values

    answers, walked = walk(host, spec, seeded.ids)
    assert len(walked) >= sum("get" in item for item in spec["paths"].values())
    seeding = [
        Answer(name, "", {}, r.status_code, r.mimetype, r.get_data(as_text=True))
        for name, r in seeded.host_answers
    ]
    problems = []
    for answer in answers + seeding:
        # R19: the door list of the host's venue names its barred players in full, whoever they are.
        door = answer.operation in DOOR_LISTS and answer.url.startswith(f"/api/v1/venues/{seeded.crown}/")
        hidden = [s for s in forbidden if not (door and s.key == "full_name")]
        found = leaks(answer, hidden)
        if "json" in answer.mimetype and answer.text:
            for key, holder in keys_in(json.loads(answer.text)):
                if door and key == "full_name":
                    continue
                if key in PERSONAL_KEYS and not is_error_map(holder) and holder.get("id") not in allowed:
                    found.append(f"key {key} on player {holder.get('id')}")
        if SURNAMES.search(answer.text):
            found.append("a Crystal's surname")
        if found:
            problems.append(describe(answer, sorted(set(found))))
    assert not problems, f"{len(problems)} answer(s) leak personal data:\n" + "\n".join(problems[:40])
    # The Crown's door list does name, in full, players barred there who never played there
    # (Dan, suspended; Hal, banned from The Crown), and nothing else of them.
    crown_door = f"/api/v1/venues/{seeded.crown}/"
    doors = [
        a for a in answers if a.operation in DOOR_LISTS and a.status == 200 and a.url.startswith(crown_door)
    ]
    assert {a.mimetype for a in doors} == {"application/json", "text/csv"} and all(
        "Dan Driftwood" in a.text and "Hal Harbour" in a.text for a in doors
    )
    # ...and the host does see their own players' personal values somewhere.
    shown = [a for a in answers if leaks(a, own_values)]
    assert shown, "the host never saw a personal value of their own venue's players"
    assert any(a.operation == "GET /api/v1/players/{player_id}" for a in shown)


# Search (R19) ------------------------------------------------------------------------------------


def search(caller: Caller, text: str) -> list[int]:
    response = caller.get(f"{PLAYERS}?{urlencode({'q': text, 'per_page': 500})}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return [p["id"] for p in response.get_json()["items"]]


SEARCHES = [
    "alice.wonder@example.org",
    "alice.wonder",
    "wonderpriv",
    "Wonderprivate",
    "198507211234",
    "1985-07-21",
]


def test_public_search_matches_display_names_only_r19(seeded: Seeded, office: Caller, public: Caller) -> None:
    """R19: the public's search matches display names ("Alice W."), never an email, a part of the
    full name missing from the display name, or anything else personal; the office's does."""
    alice = seeded.own[0]
    assert public.get(f"{PLAYERS}/{alice}").get_json()["display_name"] == "Alice W."
    assert alice in search(public, "alice w")
    for text in SEARCHES:
        assert search(public, text) == [], text
        if not text[0].isdigit():
            assert alice in search(office, text), text
