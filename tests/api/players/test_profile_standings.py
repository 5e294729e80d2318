"""A player's profile shows their standing at every venue they played (R11) without ranking the
venue's table (models/services/standings.player_rows: only the lines level on points with theirs
are compared, the others counted). For every player of random leagues full of ties, the profile's
row must be the venue standings' row for that player, at each venue and in each season."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.builders import MakeScene, days_ago
from tests.support.league import League

# Few distinct points: fields of 4 or more pay places in pairs, so players level on points are
# common and R11's later steps (wins, countback, best single, played) decide, or nothing does.
BANDS = [
    {"min_entrants": 1, "max_entrants": 3, "points": [10]},
    {"min_entrants": 4, "max_entrants": None, "points": [30, 30, 20, 20, 10, 10]},
]
SHOWN = ("rank", "tied", "points", "bonus_points", "played", "wins", "best_finish")


@pytest.mark.parametrize("seed", [3, 17, 29])
def test_r11_a_profiles_standing_is_the_venue_tables_row(
    make_scene: MakeScene, league: League, seed: int
) -> None:
    """R9-R11: two venues, an attendance bonus and count_best, random fields (and two players level
    after every step): each player's profile row equals their venue standings row."""
    rng = random.Random(seed)
    scene = make_scene(
        points_chart_id=league.chart(kind="bands", bands=BANDS)["id"],
        count_best=rng.choice([None, 2, 3]),
        attendance_bonus=[{"events": 3, "points": 5}],
    )
    other = int(league.venue(scene.region["id"])["id"])
    players = scene.add_players(14)
    twins = players[:2]  # first and second in turn, every night at the first venue: level throughout
    for night, day_ago in enumerate(range(40, 20, -2)):
        for venue in (scene.venue_id, other):
            field = rng.sample(players[2:], rng.randint(2, 9))
            if venue == scene.venue_id:
                field = [*(twins if night % 2 else twins[::-1]), *field]
            scene.report(field, days_ago(day_ago), venue_id=venue)
    compared = tied = 0
    for venue in (scene.venue_id, other):
        table = {row["player"]["id"]: row for row in scene.standings(venue_id=venue)["standings"]}
        for player in players:
            profile = scene.public.get(f"/api/v1/players/{player}").get_json()
            records = [
                s for s in profile["seasons"] if (s["season_id"], s["venue_id"]) == (scene.season_id, venue)
            ]
            if player not in table:
                assert records == []
                continue
            (record,) = records
            shown: dict[str, Any] = {k: record[k] for k in SHOWN}
            assert shown == {k: table[player][k] for k in SHOWN}, (venue, player)
            compared += 1
            tied += bool(record["tied"])
    assert compared >= 20 and tied >= 2
