"""R20's targeted replay as a pure computation (models/services/ratings/replay.py): for random
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
from models.services.ratings.queries import Point, Rated, computed_ratings
from models.services.ratings.replay import Replayed, StoredReport, replayed

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


def changed(
    rng: random.Random, reports: list[Rated], players: int
) -> tuple[list[Rated], list[Point], set[int]]:
    """One random change; the points of the order it touches (old and new places) and the
    players whose results it touches (before and after), as the service passes them."""
    reports = [(point, venue, list(entrants)) for point, venue, entrants in reports]
    index = rng.randrange(len(reports))
    point, venue, entrants = reports[index]
    kind = rng.choice(["places", "entrant", "void", "move", "late", "merge"])
    touched = [point]
    people = {player for player, _ in entrants}
    if kind == "places" and len(entrants) >= 2:
        order = [player for player, _ in entrants]
        rng.shuffle(order)
        reports[index] = (point, venue, [(player, place) for place, player in enumerate(order, 1)])
    elif kind == "entrant":
        newcomer = rng.randint(1, players + 3)
        kept = [player for player, _ in entrants if player != newcomer][: rng.randint(0, len(entrants))]
        reports[index] = (point, venue, [(p, place) for place, p in enumerate([*kept, newcomer], 1)])
        people.add(newcomer)
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
        touched, people = [late], set(field)
    else:  # merge: every result of one player moved to another who never met them
        duplicate, survivor = rng.sample(range(1, players + 1), 2)
        theirs = [(p, e) for p, _, e in reports if duplicate in {q for q, _ in e}]
        if not theirs or survivor in {q for _, e in theirs for q, _ in e}:
            return reports, touched, people
        reports = [
            (p, v, [(survivor if q == duplicate else q, place) for q, place in e]) for p, v, e in reports
        ]
        touched, people = [p for p, _ in theirs], {duplicate, survivor}
    return sorted(reports, key=lambda report: report[0]), touched, people


def last_before(history: list[dict[str, object]], at: Point) -> dict[int, tuple[Point, Skill]]:
    """Each player's last stored point before `at`."""
    found: dict[int, tuple[Point, Skill]] = {}
    for row in history:
        point = Point(row["date"], row["session"], row["tournament_id"])  # type: ignore[arg-type]
        player: int = row["player_id"]  # type: ignore[assignment]
        if point < at and (player not in found or found[player][0] < point):
            found[player] = (point, Skill(row["mu"], row["sigma"], row["tournaments"]))  # type: ignore[arg-type]
    return found


def replay(
    now: list[Rated], history: list[dict[str, object]], cut: Point, people: set[int] | None
) -> Replayed:
    """What the service does: walk the reports the tracked players are in, again with every
    player the walk reached tracked too, until it reaches no one untracked."""

    def before(wanted: list[int], at: Point) -> dict[int, Skill]:
        found = last_before(history, at)
        return {player: found[player][1] for player in wanted if player in found}

    tracked = None if people is None else set(people)
    while True:
        current = [r for r in now if r[0] >= cut and (tracked is None or tracked & {p for p, _ in r[2]})]
        stored = {
            tid: old
            for tid, old in stored_from(history, cut).items()
            if tracked is None or tracked & {p for p, _ in old.entrants}
        }
        out = replayed(current, stored, before, cut, tracked)
        if tracked is None or out.reached <= tracked:
            return out
        tracked |= out.reached


@settings(max_examples=300, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.integers(2, 30),
    st.integers(3, 12),
    st.integers(1, 4),
    st.booleans(),
)
def test_r20_a_replay_leaves_what_a_rebuild_gives(
    rng: random.Random, reports: int, players: int, changes: int, track: bool
) -> None:
    """R20: random changes one after another, each replayed from its earliest point (reading
    every report from it on, or only those of the players it touches and reaches): the history
    and the final states always equal a computation from scratch."""
    now = league(rng, reports, players)
    history, states, last = history_of(now)
    for _ in range(changes):
        if not now:
            break
        now, touched, people = changed(rng, now, players)
        cut = min(touched)
        out = replay(now, history, cut, people if track else None)
        before_cut = last_before(history, cut)
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
    other venue's, which come later in the order too; and, reading only the reports of the
    players it touches, reads none of the other venue's."""
    reports: list[Rated] = []
    for week in range(4):
        for venue, field in ((1, [1, 2, 3, 4]), (2, [5, 6, 7, 8])):
            point = Point(DAY0 + timedelta(days=7 * week), 1, 2 * week + venue)
            reports.append((point, venue, [(p, place) for place, p in enumerate(field, 1)]))
    history, _, _ = history_of(reports)
    first = reports[0]
    corrected = [(first[0], 1, [(2, 1), (1, 2), (3, 3), (4, 4)]), *reports[1:]]
    for people in (None, {1, 2, 3, 4}):
        out = replay(corrected, history, first[0], people)
        assert out.rated_again == 4  # venue 1's four weeks
        assert out.stale == {1, 3, 5, 7}
        assert {row["venue_id"] for row in out.points} == {1}
        assert out.reached <= {1, 2, 3, 4}
    # The reports as stored: nothing to rate again.
    out = replay(reports, history, first[0], {1, 2, 3, 4})
    assert out.rated_again == 0 and not out.points and not out.stale
