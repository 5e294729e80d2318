"""R20's targeted replay as a pure computation (models/services/rating_replay.py): for random
leagues and random changes (corrections of entrants or places, voids, a report moved in the order,
a late report for an earlier date, merges), the stored history with the replay's changes applied
is, float for float, what a computation from scratch over the changed reports gives, and so are
the players' final states; and a change reaches only the reports it must rate again."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.rules.ratings import Skill
from models.services.rating_queries import Point, Rated, computed_ratings
from models.services.rating_replay import StoredReport, replayed

pytestmark = pytest.mark.rules

DAY0 = date(2026, 9, 1)


def league(rng: random.Random, reports: int, players: int) -> list[Rated]:
    out: list[Rated] = []
    for tournament_id in range(1, reports + 1):
        field = rng.sample(range(1, players + 1), rng.randint(1, min(6, players)))
        point = Point(DAY0 + timedelta(days=rng.randint(0, 20)), rng.randint(1, 2), tournament_id)
        out.append((point, rng.randint(1, 3), [(player, place) for place, player in enumerate(field, 1)]))
    return sorted(out, key=lambda report: report[0])


def history_of(reports: list[Rated]) -> tuple[list[dict[str, object]], dict[int, Skill], dict[int, Point]]:
    states: dict[int, Skill] = {}
    last: dict[int, Point] = {}
    return computed_ratings(reports, states, last), states, last


def stored_from(history: list[dict[str, object]], cut: Point) -> dict[int, StoredReport]:
    grouped: dict[int, list[dict[str, object]]] = {}
    for row in history:
        point = Point(row["date"], row["session"], row["tournament_id"])  # type: ignore[arg-type]
        if point >= cut:
            grouped.setdefault(point.tournament_id, []).append(row)
    out = {}
    for tournament_id, rows in grouped.items():
        rows.sort(key=lambda row: row["place"])  # type: ignore[arg-type, return-value]
        first = rows[0]
        out[tournament_id] = StoredReport(
            Point(first["date"], first["session"], tournament_id),  # type: ignore[arg-type]
            first["venue_id"],  # type: ignore[arg-type]
            tuple((row["player_id"], row["place"]) for row in rows),  # type: ignore[misc]
            {row["player_id"]: Skill(row["mu"], row["sigma"], row["tournaments"]) for row in rows},  # type: ignore[arg-type, misc]
        )
    return out


def key(row: dict[str, object]) -> tuple[object, ...]:
    return tuple(sorted(row.items()))


def changed(rng: random.Random, reports: list[Rated], players: int) -> tuple[list[Rated], list[Point]]:
    """One random change, and the points of the order it touches (old and new places)."""
    reports = [(point, venue, list(entrants)) for point, venue, entrants in reports]
    index = rng.randrange(len(reports))
    point, venue, entrants = reports[index]
    kind = rng.choice(["places", "entrant", "void", "move", "late", "merge"])
    touched = [point]
    if kind == "places" and len(entrants) >= 2:
        order = [player for player, _ in entrants]
        rng.shuffle(order)
        reports[index] = (point, venue, [(player, place) for place, player in enumerate(order, 1)])
    elif kind == "entrant":
        newcomer = rng.randint(1, players + 3)
        kept = [player for player, _ in entrants if player != newcomer][: rng.randint(0, len(entrants))]
        reports[index] = (point, venue, [(p, place) for place, p in enumerate([*kept, newcomer], 1)])
    elif kind == "void":
        del reports[index]
    elif kind == "move":
        moved = Point(point.date + timedelta(days=rng.randint(-5, 5)), point.session, point.tournament_id)
        reports[index] = (moved, venue, entrants)
        touched.append(moved)
    elif kind == "late":
        late_id = max(p.tournament_id for p, _, _ in reports) + 1
        late = Point(point.date - timedelta(days=rng.randint(0, 3)), 1, late_id)
        field = rng.sample(range(1, players + 1), rng.randint(2, min(5, players)))
        reports.append((late, venue, [(p, place) for place, p in enumerate(field, 1)]))
        touched = [late]
    else:  # merge: every result of one player moved to another who never met them
        duplicate, survivor = rng.sample(range(1, players + 1), 2)
        met = {p for _, _, e in reports for p, _ in e if duplicate in {q for q, _ in e}}
        if survivor in met:
            return reports, touched
        moved_points = [p for p, _, e in reports if duplicate in {q for q, _ in e}]
        if not moved_points:
            return reports, touched
        reports = [
            (p, v, [(survivor if q == duplicate else q, place) for q, place in e]) for p, v, e in reports
        ]
        touched = moved_points
    return sorted(reports, key=lambda report: report[0]), touched


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 30), st.integers(3, 12), st.integers(1, 4))
def test_r20_a_replay_leaves_what_a_rebuild_gives(
    rng: random.Random, reports: int, players: int, changes: int
) -> None:
    """R20: random changes one after another, each replayed from its earliest point: the history
    and the final states always equal a computation from scratch."""
    now = league(rng, reports, players)
    history, states, last = history_of(now)
    for _ in range(changes):
        if not now:
            break
        now, touched = changed(rng, now, players)
        cut = min(touched)
        before_cut = {}
        for row in history:
            point = Point(row["date"], row["session"], row["tournament_id"])  # type: ignore[arg-type]
            player = row["player_id"]
            if point < cut and (player not in before_cut or before_cut[player][0] < point):
                before_cut[player] = (point, Skill(row["mu"], row["sigma"], row["tournaments"]))  # type: ignore[arg-type]

        def before(wanted: list[int], table: dict[int, tuple[Point, Skill]] = before_cut) -> dict[int, Skill]:
            return {player: table[player][1] for player in wanted if player in table}

        out = replayed([r for r in now if r[0] >= cut], stored_from(history, cut), before)
        history = [row for row in history if row["tournament_id"] not in out.stale] + out.points
        for player, (skill, point) in out.states.items():
            states[player], last[player] = skill, point
        for player in out.restore:
            if player in before_cut:
                last[player], states[player] = before_cut[player]
            else:
                states.pop(player, None)
                last.pop(player, None)
        want_history, want_states, want_last = history_of(now)
        assert sorted(map(key, history)) == sorted(map(key, want_history))
        assert (states, last) == (want_states, want_last)


def test_r20_a_correction_rates_again_only_the_reports_it_reaches() -> None:
    """R20: two venues whose players never meet, a week of reports each; correcting the first
    venue's first report rates again that venue's reports only (its players' chain), none of the
    other venue's, which come later in the order too."""
    reports: list[Rated] = []
    for week in range(4):
        for venue, field in ((1, [1, 2, 3, 4]), (2, [5, 6, 7, 8])):
            point = Point(DAY0 + timedelta(days=7 * week), 1, 2 * week + venue)
            reports.append((point, venue, [(p, place) for place, p in enumerate(field, 1)]))
    history, _, _ = history_of(reports)
    first = reports[0]
    corrected = [(first[0], 1, [(2, 1), (1, 2), (3, 3), (4, 4)]), *reports[1:]]
    out = replayed(corrected, stored_from(history, first[0]), lambda players: {})
    assert out.rated_again == 4  # venue 1's four weeks
    assert out.stale == {1, 3, 5, 7}
    assert {row["venue_id"] for row in out.points} == {1}
    # The reports as stored: nothing to rate again.
    out = replayed(reports, stored_from(history, first[0]), lambda players: {})
    assert out.rated_again == 0 and not out.points and not out.stale
