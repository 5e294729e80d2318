"""Which reports a change of the results makes the ratings rate again (R20), and what they give:
the walk of `replay_from` (ratings.py), pure (the stored history and the current reports in, the
changes to store out), so that a correction of tonight's report rates again only what it reaches,
not every report after it.

A report keeps its stored points when nothing it was rated from has changed: it is still there
with the same date, session, venue and rated entrants at the same places, and every entrant comes
to it in the state its stored point was rated from. Then the model gives the very same floats, so
the stored points are what a rebuild would give. Everything else is rated again, in the order:

- a report the change made new, or changed (its entrants, places, date, session or venue), and
  the stored points of a report no longer rated (voided, or moved elsewhere in the order) are
  dropped;
- a player whose state now differs from their stored one at the same place in the order (they
  played in a report rated again, and came out of it with other floats, or a report of theirs was
  dropped) is `unclean`: every later report of theirs is rated again, until one gives them their
  stored state back.

Each player's stored history is a chain (each point rated from the one before it), so a report
none of whose entrants is unclean met each of them in the state its point was rated from. The
one change that breaks chains, deleting reports with their points (the demo's removal), replays
everything from its point instead (`replay_from(..., whole=True)`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from models.rules.ratings import Skill, rate
from models.services.ratings.queries import Point, Rated, point_row


@dataclass(frozen=True)
class StoredReport:
    """A rated report as its stored points hold it: where it is in the order, its venue, its
    rated entrants by place, and each one's state after it."""

    point: Point
    venue_id: int
    entrants: tuple[tuple[int, int], ...]
    after: dict[int, Skill]


@dataclass
class Replayed:
    """What a replay changes: the reports whose stored points go (`stale`), the points to store,
    and the players whose rating row is to be written (`states`: the state and its last point) or
    set back to their state before the replay's point (`restore`: absent from `states`)."""

    stale: set[int] = field(default_factory=set)
    points: list[dict[str, Any]] = field(default_factory=list)
    states: dict[int, tuple[Skill, Point]] = field(default_factory=dict)
    restore: set[int] = field(default_factory=set)
    rated_again: int = 0
    reached: set[int] = field(default_factory=set)  # every player the walk found unclean


# The states of these players just before a point of the order, from the stored history (their
# last point before it; absent: not rated before it).
Before = Callable[[list[int], Point], dict[int, Skill]]


def replayed(
    current: Iterable[Rated],
    stored: dict[int, StoredReport],
    before: Before,
    point: Point,
    tracked: set[int] | None = None,
) -> Replayed:
    """R20: `current`, the live reports from the replay's `point` on as the results now hold
    them; `stored`, the stored reports from the same point on, by report id; `before`, states
    from the stored history. Returns what to store so that the ratings equal a rebuild.

    `tracked`: when given, `current` and `stored` hold only the reports one of these players is
    in (every player the change touched among them, so every changed report is there). A player
    outside it is on their stored chain wherever the walk meets them (their reports left out
    were not reached), so their state before a report is their last stored point before it. The
    answer holds when every player the walk found unclean (`reached`) is tracked; otherwise the
    caller walks again with them tracked too, or rates everything again (ratings.py does)."""
    events: list[tuple[Point, int, Rated | StoredReport]] = []
    now: dict[int, Rated] = {}
    for report in current:
        if len(report[2]) >= 2:  # fewer than two rated entrants: never rated, no points
            now[report[0].tournament_id] = report
            events.append((report[0], 1, report))
    for tournament_id, old in stored.items():
        if not _same(now.get(tournament_id), old):
            events.append((old.point, 0, old))  # dropped before anything at its place is rated
    events.sort(key=lambda event: (event[0], event[1]))
    walk = _Walk(stored, before, point, tracked)
    # Every tracked player's state before the point, read once (not once per report rated again).
    met = {player for report in now.values() for player, _ in report[2]}
    met.update(player for old in stored.values() for player, _ in old.entrants)
    walk.at_point = before(sorted(p for p in met if tracked is None or p in tracked), point)
    for _point, _kind, item in events:
        if isinstance(item, StoredReport):
            walk.drop(item)
        else:
            walk.rate(item)
    return walk.result()


@dataclass
class _Walk:
    """The replay's walk through the order: each player's state now, their last point, and who
    is unclean (their state differs from their stored one at the same place in the order)."""

    stored: dict[int, StoredReport]
    before: Before
    point: Point
    tracked: set[int] | None
    state: dict[int, Skill] = field(default_factory=dict)
    last: dict[int, Point] = field(default_factory=dict)
    unclean: set[int] = field(default_factory=set)
    out: Replayed = field(default_factory=Replayed)
    at_point: dict[int, Skill] = field(default_factory=dict)  # tracked players' states before the point

    def _tracks(self, player: int) -> bool:
        return self.tracked is None or player in self.tracked

    def _unclean(self, player: int) -> None:
        self.unclean.add(player)
        self.out.reached.add(player)

    def drop(self, old: StoredReport) -> None:
        self.out.stale.add(old.point.tournament_id)
        for player, _ in old.entrants:
            self._unclean(player)

    def _states_before(self, point: Point, players: list[int]) -> list[Skill]:
        """Each entrant's state coming to this report: a tracked player's from the walk (first met:
        their state before the replay's point), anyone else's from their stored chain."""
        for player in players:
            if self._tracks(player) and player not in self.state:
                self.state[player] = self.at_point.get(player, Skill())
        others = [p for p in players if not self._tracks(p)]
        chained = self.before(others, point) if others else {}
        return [self.state[p] if self._tracks(p) else chained.get(p, Skill()) for p in players]

    def rate(self, report: Rated) -> None:
        point, venue_id, entrants = report
        old = self.stored.get(point.tournament_id)
        if old is not None and _keeps(old, report, self.state, self.unclean):
            for player, _ in entrants:
                if self._tracks(player):
                    self.state[player] = old.after[player]
                    self.last[player] = point
            return
        before = self._states_before(point, [player for player, _ in entrants])
        after = rate([(skill, place) for skill, (_, place) in zip(before, entrants, strict=True)])
        self.out.rated_again += 1
        if old is not None:
            self.out.stale.add(point.tournament_id)
        same = old is not None and _same(report, old)
        for (player, place), skill in zip(entrants, after, strict=True):
            if self._tracks(player):
                self.state[player] = skill
                self.last[player] = point
            if same and old is not None and old.after[player] == skill:
                self.unclean.discard(player)  # back on its stored chain: what follows still holds
            else:
                self._unclean(player)
            self.out.points.append(point_row(point, venue_id, player, place, len(entrants), skill))

    def result(self) -> Replayed:
        for player in self.unclean:
            if player in self.last:
                self.out.states[player] = (self.state[player], self.last[player])
            else:
                self.out.restore.add(player)  # their every point from the replay's point on is gone
        return self.out


def _same(report: Rated | None, old: StoredReport | None) -> bool:
    if report is None or old is None:
        return False
    point, venue_id, entrants = report
    return point == old.point and venue_id == old.venue_id and tuple(entrants) == old.entrants


def _keeps(old: StoredReport, report: Rated, state: dict[int, Skill], unclean: set[int]) -> bool:
    """The stored points of this report still hold: the same report, and every entrant in the
    state its point was rated from (none unclean, and one rated tournament more than now, which a
    break in the chain would show)."""
    if not _same(report, old):
        return False
    for player, _ in report[2]:
        if player in unclean:
            return False
        if player in state and old.after[player].tournaments != state[player].tournaments + 1:
            return False
    return True
