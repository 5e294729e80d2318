"""Qualifier lists from the top of each venue's table (models/services/season_lists:
compute_lists ranks DEPTH_BEYOND_QUOTA players beyond each venue's quota, and ranks a venue
whole when it cannot fill its quota from them) against ranking every table whole (R12-R14).

Random leagues built through the HTTP API, kept small by a depth of 0: several venues in two
regions, each with more players than its quota; travellers ranked high at two or three venues
(R14, qualified_elsewhere), suspended, disqualified and underage players, players with too few
events (R13), players without a date of birth (age_unverified), players with a home venue, twins
level after every tie-break (R12's tie at the cut), and two players who each lead one venue but
would rather qualify at the other, where they rank just below the cut (R14's player-optimal
assignment swaps them). The season's lists, every venue's list and players' profiles must answer
the same whatever the depth, under every policy (under most_played and home_venue no table is
cut: the last test shows why cutting would be wrong there)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask

from api import cache
from models.rules.qualifiers import quota
from models.rules.standings import Line, Row, Tier
from models.services.qualifiers import lists as season_lists
from tests.builders import (
    MakeScene,
    Scene,
    ago,
    born,
    day_after,
    days_ago,
    ended_season,
    ids_of,
    read_qualifiers,
    sanctioned,
)
from tests.support.league import Caller, League

POLICIES = ("best_rank", "most_played", "home_venue")
SEEDS = (11, 23, 37)
WHOLE = 10_000  # deeper than any table here: every table ranked whole

# A season that ended 10 days ago, its championship 5 days ago; players must be 21 on that day.
# Fields of 4 or more: every place down to 16th pays, neighbours often equal (ties on points);
# fields of 2 or 3 pay the winner 3 (a tournament played for next to nothing).
PAYS = [60, 45, 45, 34, 30, 30, 24, 20, 16, 16, 12, 9, 9, 6, 4, 2]
BANDS = [
    {"min_entrants": 1, "max_entrants": 3, "points": [3]},
    {"min_entrants": 4, "max_entrants": None, "points": PAYS},
]
# What keeps a player from qualifying anywhere (R13), and the date of birth of each kind.
ADULT, UNKNOWN_AGE, UNDERAGE, SUSPENDED, DISQUALIFIED = (
    "adult",
    "unknown_age",
    "underage",
    "suspended",
    "disqualified",
)
SKIPPED = (UNDERAGE, SUSPENDED, DISQUALIFIED)
KINDS = [ADULT] * 12 + [UNKNOWN_AGE, *SKIPPED]


@dataclass
class World:
    """The league built: its scene, venues (the first is the scene's), and each player's kind."""

    scene: Scene
    venues: list[int]
    kinds: dict[int, str] = field(default_factory=dict)
    stars: list[int] = field(default_factory=list)
    notable: set[int] = field(default_factory=set)  # whose profiles are read


def new_player(world: World, rng: random.Random, kind: str, name: str, home: int | None = None) -> int:
    """A player of this kind, living at `home` (else, two times in five, at a random venue)."""
    fields: dict[str, Any] = {"display_name": name}
    if kind == UNDERAGE:
        fields["date_of_birth"] = day_after(born(21, days_ago(5)))  # 21 the day after the championship
    elif kind != UNKNOWN_AGE:
        fields["date_of_birth"] = f"19{rng.randint(60, 99)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
    if home is not None or rng.random() < 0.4:
        fields["home_venue_id"] = home or rng.choice(world.venues)
    created = world.scene.league.player(f"Q{rng.getrandbits(40):x} Z{rng.getrandbits(40):x}", **fields)
    world.kinds[int(created["id"])] = kind
    return int(created["id"])


def build(rng: random.Random, make_scene: MakeScene, league: League, policy: str) -> World:
    """A random league of 3-4 venues, and two more for the swappers (see `swappers`).

    The first venue's three stars win there every week and none may qualify (R13): it cannot
    fill its quota from the top of its table. At the second, leaders take every place above the
    cut each week and twins, level after every tie-break, share the last place on the list (R12's
    tie at the cut): it fills its quota from the top. The ace follows the stars at the first venue
    and wins every week at the last: qualified at one, skipped at the other (R14)."""
    cut = rng.choice(["0.2", "0.25", "0.3"])
    scene = make_scene(
        **ended_season(min_age=21),
        points_chart_id=league.chart(kind="bands", bands=BANDS)["id"],
        double_qualifier_policy=policy,
        cut_fraction=float(cut),
        min_events_to_qualify=rng.choice([1, 2]),
    )
    far_region = league.region()["id"]
    venues = [scene.venue_id, *(league.venue(scene.region["id"])["id"] for _ in range(rng.randint(1, 2)))]
    venues.append(league.venue(far_region)["id"])
    swap_venues = [league.venue(far_region)["id"] for _ in range(2)]
    assert scene.patch(region_ids=[scene.region["id"], far_region]).status_code == 200
    world = World(scene, [*venues, *swap_venues])

    regulars = {
        v: [new_player(world, rng, rng.choice(KINDS), f"V{i}R{j}") for j in range(rng.randint(7, 10))]
        for i, v in enumerate(venues)
    }
    visits: dict[int, list[int]] = {v: [] for v in venues}
    for j in range(rng.randint(2, 4)):
        traveller = new_player(world, rng, rng.choice(KINDS), f"T{j}")
        world.notable.add(traveller)
        for v in rng.sample(venues, rng.randint(2, min(3, len(venues)))):
            visits[v].append(traveller)
    fields = {}
    for v in venues:
        weeks = []
        for _week in range(4 if v == venues[1] else rng.randint(3, 5)):
            field_ = rng.sample(regulars[v], rng.randint(4, len(regulars[v])))
            for traveller in visits[v]:
                if rng.random() < 0.75:
                    field_.insert(rng.randint(0, min(3, len(field_))), traveller)
            weeks.append(field_)
        fields[v] = weeks

    world.stars = [new_player(world, rng, kind, f"Star{k}") for k, kind in enumerate(rng.sample(SKIPPED, 3))]
    ace = new_player(world, rng, ADULT, "Ace")
    fields[venues[0]] = [[*world.stars, ace, *field_] for field_ in fields[venues[0]]]
    fields[venues[-1]] = [[ace, *field_] for field_ in fields[venues[-1]]]
    # Four weeks at the second venue, each headed by one leader fewer than the quota, then the twins.
    weeks = fields[venues[1]]
    leaders = next(
        n for n in range(10) if quota(Decimal(cut), sum(len(f) + n + 2 for f in weeks), len(weeks)) == n + 1
    )
    top = [new_player(world, rng, ADULT, f"Lead{k}") for k in range(leaders)]
    twins = [new_player(world, rng, UNKNOWN_AGE, "Twin"), new_player(world, rng, ADULT, "Twin")]
    fields[venues[1]] = [
        [*top, *(twins if week % 2 else twins[::-1]), *field_] for week, field_ in enumerate(weeks)
    ]
    fields.update(swappers(world, rng, *swap_venues))
    world.notable |= {*world.stars, ace, *top, *twins, *rng.sample(sorted(world.kinds), 6)}

    for v, weeks in fields.items():
        for field_ in weeks:
            scene.report(field_, venue_id=v)
    for player_id, kind in world.kinds.items():
        if kind == SUSPENDED:
            sanctioned(scene.office, player_id, "suspension", "fighting", first_day=ago(20), last_day=ago(0))
        elif kind == DISQUALIFIED:
            response = scene.office.post(
                f"/api/v1/seasons/{scene.season_id}/disqualifications",
                json={"player_id": player_id, "reason": "Collusion at the final table."},
            )
            assert response.status_code == 201, response.get_data(as_text=True)
    return world


def swappers(world: World, rng: random.Random, x: int, y: int) -> dict[int, list[list[int]]]:
    """The weeks of two venues of quota 1 (fields of 4, 2, 2, 2): Ann leads X (63 points) and is
    2nd at Y (45), where she played three times and lives; Bob the other way round. Cut after
    the quota, each table holds only its leader: Ann qualifies at X and Bob at Y. Whole, the
    player-optimal assignment (R14) gives each the venue they would rather have under most_played
    and home_venue: Ann at Y, Bob at X; best_rank keeps Ann at X and Bob at Y."""
    ann = new_player(world, rng, ADULT, "Ann", home=y)
    bob = new_player(world, rng, ADULT, "Bob", home=x)
    world.notable |= {ann, bob}

    def others(n: int) -> list[int]:
        return [new_player(world, rng, ADULT, "Other") for _ in range(n)]

    return {
        x: [[ann, bob, *others(2)], [ann, *others(1)], [*others(1), bob], [*others(1), bob]],
        y: [[bob, ann, *others(2)], [bob, *others(1)], [*others(1), ann], [*others(1), ann]],
    }


def profile(caller: Caller, player_id: int) -> list[dict[str, Any]]:
    response = caller.get(f"/api/v1/players/{player_id}")
    assert response.status_code == 200, response.get_data(as_text=True)
    items: list[dict[str, Any]] = response.get_json()["qualification"]
    return items


def forget_answers(app: Flask) -> None:
    """Drop every answer and computation cached by data version (api/cache): the data does not
    change between the two reads, the depth does."""
    with app.app_context():
        cache.clear()


def answers(app: Flask, world: World) -> dict[str, Any]:
    """Everything the office reads of the season's qualification (every reason and flag as R13
    gives it; the public's words for them are test_qualifiers.py's), computed afresh."""
    forget_answers(app)
    office, season_id = world.scene.office, world.scene.season_id
    return {
        "season": read_qualifiers(office, season_id),
        "venues": {v: read_qualifiers(office, season_id, v) for v in world.venues},
        "profiles": {p: profile(office, p) for p in sorted(world.notable)},
    }


@dataclass
class Call:
    players: frozenset[int]  # the lines it was given: the venue's whole table, or its top
    depth: int
    rows: int  # the rows ranked
    venue: int = 0


def spy_on_compute_lists(monkeypatch: pytest.MonkeyPatch) -> list[list[Call]]:
    """Each computation of the lists, as every table it ranked (the lines given, of which venue)."""
    runs: list[list[Call]] = []
    compute = season_lists._compute_lists
    leading_rows: Callable[[Sequence[Line], Sequence[Tier], int], list[Row]] = season_lists.leading_rows
    table_of = season_lists.venue_table

    def computing(*args: Any, **kwargs: Any) -> Any:
        runs.append([])
        return compute(*args, **kwargs)

    def ranking(lines: Sequence[Line], tiers: Sequence[Tier], depth: int) -> list[Row]:
        rows = leading_rows(lines, tiers, depth)
        runs[-1].append(Call(frozenset(line.player_id for line in lines), depth, len(rows)))
        return rows

    def table(venue_id: int, *args: Any) -> Any:
        runs[-1][-1].venue = venue_id  # each table is made right after its rows are ranked
        return table_of(venue_id, *args)

    monkeypatch.setattr(season_lists, "_compute_lists", computing)
    monkeypatch.setattr(season_lists, "leading_rows", ranking)
    monkeypatch.setattr(season_lists, "venue_table", table)
    return runs


def publish_settling(world: World, venue_id: int, player_id: int) -> Any:
    """The office publishes the season's lists, its draw sending this player of this venue."""
    return world.scene.office.post(
        f"/api/v1/seasons/{world.scene.season_id}/qualifiers/publish",
        json={
            "note": "Drawn at the office.",
            "settlements": [{"venue_id": venue_id, "player_id": player_id}],
        },
    )


def by_player(items: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {int(item["player"]["id"]): item for item in items}


def qualified_where(answer: dict[str, Any]) -> dict[int, list[int]]:
    """Each venue's qualifiers (player ids, in order) in the season's lists."""
    return {v["venue_id"]: ids_of(v["qualifiers"]) for v in answer["season"]["venues"]}


def reasons_and_flags(season: dict[str, Any]) -> set[str]:
    seen = set()
    for venue in season["venues"]:
        seen |= {s["reason"] for s in venue["skipped"]}
        seen |= {flag for q in [*venue["qualifiers"], *venue["tied_out"]] for flag in q["flags"]}
    return seen


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("policy", POLICIES)
def test_top_of_each_table_gives_the_lists_of_whole_tables_r12_r13_r14(
    app: Flask,
    make_scene: MakeScene,
    league: League,
    monkeypatch: pytest.MonkeyPatch,
    policy: str,
    seed: int,
) -> None:
    """R12-R14: with each table cut right after its quota (DEPTH_BEYOND_QUOTA 0), the season's
    lists, each venue's list and the qualification on the profiles of travellers, stars, leaders,
    twins, swappers and a few others are those of tables ranked whole; and the cut did leave
    players out, and a venue was ranked again."""
    world = build(random.Random(f"{policy}-{seed}"), make_scene, league, policy)

    monkeypatch.setattr(season_lists, "DEPTH_BEYOND_QUOTA", 0)
    runs = spy_on_compute_lists(monkeypatch)
    trimmed = answers(app, world)
    trimmed_runs = list(runs)
    monkeypatch.setattr(season_lists, "DEPTH_BEYOND_QUOTA", WHOLE)
    whole = answers(app, world)

    assert qualified_where(trimmed) == qualified_where(whole)
    assert trimmed["season"] == whole["season"]
    for venue_id in world.venues:
        assert trimmed["venues"][venue_id] == whole["venues"][venue_id], venue_id
    for player_id in world.notable:
        assert trimmed["profiles"][player_id] == whole["profiles"][player_id], player_id

    # Not vacuous. Each computation with the depth of 0 ranked every venue, some short of whole;
    # ranked the first venue again, whole (its top is all stars, who may not qualify); and still
    # answered from some table cut short.
    # Under most_played and home_venue tables are never cut (a player left out of a full venue
    # may belong there): every table is ranked whole.
    assert trimmed_runs, "the lists were never computed"
    # Every venue's whole table, from the computation with no cut.
    whole_tables = {call.venue: call.players for call in runs[len(trimmed_runs)]}
    assert set(whole_tables) == set(world.venues)

    def cut_short(call: Call) -> bool:
        return call.rows < len(whole_tables[call.venue])

    for calls in trimmed_runs:
        assert {call.venue for call in calls} == set(world.venues)
        assert all(call.players <= whole_tables[call.venue] for call in calls)
        if policy != "best_rank":
            assert not any(cut_short(call) for call in calls), calls
            continue
        assert any(cut_short(call) for call in calls), calls
        first_venue = [call for call in calls if call.venue == world.venues[0]]
        assert [cut_short(call) for call in first_venue] == [True, False], first_venue
        final = {call.venue: call for call in calls}
        assert any(cut_short(call) for call in final.values()), f"every table ended whole: {calls}"
    # The league has what it was built for.
    assert {
        "underage",
        "disqualified",
        "suspended",
        "qualified_elsewhere",
        "tie_at_cut",
        "age_unverified",
    } <= reasons_and_flags(whole["season"])

    # R12's draw: the office publishes, settling the twins' tie at the cut for the one turned
    # away; the current lists, computed with that draw, and the changes since are the same
    # whatever the depth.
    twin_list = whole["venues"][world.venues[1]]
    (turned_away,) = ids_of(twin_list["tied_out"])
    published = publish_settling(world, world.venues[1], turned_away)
    assert published.status_code == 201, published.get_data(as_text=True)
    current = {}
    for depth in (0, WHOLE):
        monkeypatch.setattr(season_lists, "DEPTH_BEYOND_QUOTA", depth)
        forget_answers(app)
        current[depth] = [
            read_qualifiers(world.scene.office, world.scene.season_id, query="?view=current"),
            read_qualifiers(world.scene.office, world.scene.season_id),
        ]
    assert current[0] == current[WHOLE]
    settled = next(v for v in current[0][0]["venues"] if v["venue_id"] == world.venues[1])
    assert turned_away in ids_of(settled["qualifiers"])
    assert "tie_settled" in by_player(settled["qualifiers"])[turned_away]["flags"]


# R14 at the shipped depth -------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
def test_a_player_below_the_depth_where_they_would_rather_qualify_still_goes_there_r14(
    app: Flask, make_scene: MakeScene, league: League, monkeypatch: pytest.MonkeyPatch, policy: str
) -> None:
    """R14 with the shipped DEPTH_BEYOND_QUOTA. Two venues of quota 1 (20% of 3 and of 6.33).
    X: Ann 1st, Bob 2nd (4 entrants); Bob 2nd of 2. Y: Bob 1st, eleven suspended players, Ann
    13th (15 entrants); Ann 2nd of 2, twice. Ann lives at Y and played there 3 times (X: once);
    Bob lives at X and played there twice (Y: once). Under most_played and home_venue each would
    rather qualify where the other leads, and each is the best eligible player there once the
    other has gone: the player-optimal stable assignment is Ann at Y, Bob at X. Under best_rank
    it is Ann at X, Bob at Y. Ann is ranked 13th at Y, past quota + depth (11), with fewer points
    than the 11th: a computation that leaves her out of Y's table cannot place her there."""
    scene = make_scene(
        **ended_season(min_age=21), points_chart_id=league.chart(kind="bands", bands=BANDS)["id"]
    )
    assert scene.patch(double_qualifier_policy=policy).status_code == 200
    x, y = scene.venue_id, int(league.venue(scene.region["id"])["id"])
    world = World(scene, [x, y])
    rng = random.Random(policy)
    ann = new_player(world, rng, ADULT, "Ann", home=y)
    bob = new_player(world, rng, ADULT, "Bob", home=x)
    world.notable |= {ann, bob}
    barred = [new_player(world, rng, SUSPENDED, f"Barred{k}") for k in range(11)]
    others = [new_player(world, rng, ADULT, "Other") for _ in range(7)]
    scene.report([ann, bob, others[0], others[1]], venue_id=x)  # Ann 60, Bob 45
    scene.report([others[2], bob], venue_id=x)  # Bob 0
    scene.report([bob, *barred, ann, others[3], others[4]], venue_id=y)  # Bob 60, ..., Ann 9
    scene.report([others[5], ann], venue_id=y)  # Ann 0
    scene.report([others[6], ann], venue_id=y)  # Ann 0
    for player_id in barred:
        sanctioned(scene.office, player_id, "suspension", "fighting", first_day=ago(20), last_day=ago(0))
    expected = {x: [ann], y: [bob]} if policy == "best_rank" else {x: [bob], y: [ann]}

    shipped = season_lists.DEPTH_BEYOND_QUOTA
    assert 1 + shipped <= 11  # Y's table, cut at quota + depth, stops above Ann (9 points < 12)
    monkeypatch.setattr(season_lists, "DEPTH_BEYOND_QUOTA", WHOLE)
    whole = answers(app, world)
    assert qualified_where(whole) == expected
    assert [v["quota"] for v in whole["season"]["venues"]] == [1, 1]

    monkeypatch.setattr(season_lists, "DEPTH_BEYOND_QUOTA", shipped)
    runs = spy_on_compute_lists(monkeypatch)
    trimmed = answers(app, world)
    y_table = [call for calls in runs for call in calls if call.venue == y]
    if policy == "best_rank":
        assert any(call.rows < 17 for call in y_table), y_table
    else:
        assert y_table and all(call.rows == 17 for call in y_table), y_table
    assert qualified_where(trimmed) == expected
    assert trimmed == whole


def everything_read(world: World) -> dict[str, Any]:
    """What `answers` reads, as the process keeps it (nothing forgotten first)."""
    office, season_id = world.scene.office, world.scene.season_id
    return {
        "season": read_qualifiers(office, season_id),
        "venues": {v: read_qualifiers(office, season_id, v) for v in world.venues},
        "profiles": {p: profile(office, p) for p in sorted(world.notable)},
    }


@pytest.mark.parametrize("policy", POLICIES)
def test_a_write_at_one_venue_ranks_that_venue_alone_again_r12_r13_r14(
    app: Flask,
    make_scene: MakeScene,
    league: League,
    monkeypatch: pytest.MonkeyPatch,
    policy: str,
) -> None:
    """R12-R14, the kept parts (season_lists.Parts): after a report at one venue, then its
    correction, then its void, the next computation of the season's lists ranks that venue's
    table alone again, and the season's lists, every venue's list and the profiles are those
    computed from nothing. A report there that moves the travellers up moves where they qualify
    (R14), so the lists drawn from kept parts must follow it."""
    world = build(random.Random(f"parts-{policy}"), make_scene, league, policy)
    scene = world.scene
    before = everything_read(world)  # every venue's part kept
    runs = spy_on_compute_lists(monkeypatch)
    venue, leaders = world.venues[2], world.venues[1]
    # The leaders' venue's first qualifier wins six nights here: 360 points against 240 there.
    mover = before["venues"][leaders]["qualifiers"][0]["player"]["id"]
    nights = [scene.report([mover, *scene.fillers(9)], days_ago(70 - k), venue_id=venue) for k in range(6)]
    first = nights[0]

    def changed_venue_alone_then_same_as_fresh() -> dict[str, Any]:
        runs.clear()
        kept = everything_read(world)
        assert runs, "the lists were not computed again after the write"
        assert all({call.venue for call in calls} == {venue} for calls in runs), runs
        fresh = answers(app, world)  # and every part kept again, from nothing
        assert kept == fresh
        return kept

    after_report = changed_venue_alone_then_same_as_fresh()
    corrected = scene.office.put(
        f"/api/v1/tournaments/{first['id']}",
        json={
            "reason": "The wrong night's order was entered.",
            "results": [{"place": p, "player_id": pid} for p, pid in enumerate(scene.fillers(5), start=1)],
        },
    )
    assert corrected.status_code == 200, corrected.get_data(as_text=True)
    changed_venue_alone_then_same_as_fresh()
    voided = scene.office.post(f"/api/v1/tournaments/{first['id']}/void", json={"reason": "Entered twice."})
    assert voided.status_code == 200, voided.get_data(as_text=True)
    changed_venue_alone_then_same_as_fresh()
    # Not vacuous: the nights changed this venue's list, and the leaders' venue's (whose table
    # they left as it was) when the mover would rather qualify here (R14).
    assert after_report["venues"][venue] != before["venues"][venue]
    if policy != "home_venue":
        assert after_report["venues"][leaders] != before["venues"][leaders]
