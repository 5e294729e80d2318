"""R8a: knockouts and bounties. A result may name who knocked its player out: an entrant of the
same report who finished higher (never the winner's, never oneself). A season may pay points for
each player knocked out, and a bounty on one player (the venue's leader before the night, or the
winner of its last report) to whoever knocks them out. Those points are part of the result's
points, whatever its status (R6): a player keeps the knockouts made before leaving."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from models.errors import Problem


class Bounty(StrEnum):
    NONE = "none"
    VENUE_LEADER = "venue_leader"  # the venue's standings leader before the night (R11; ties all)
    LAST_WINNER = "last_winner"  # the winner of the venue's previous regular report in the season


BOUNTIES = tuple(kind.value for kind in Bounty)


@dataclass(frozen=True)
class Knockouts:
    """A season's knockout settings: points per player knocked out, and the bounty."""

    points: int = 0
    bounty: Bounty = Bounty.NONE
    bounty_points: int = 0

    @property
    def scores(self) -> bool:
        """Whether knockouts earn anything: off, no result's points depend on them."""
        return self.points > 0 or (self.bounty != Bounty.NONE and self.bounty_points > 0)

    @property
    def has_bounty(self) -> bool:
        return self.bounty != Bounty.NONE and self.bounty_points > 0


OFF = Knockouts()


@dataclass(frozen=True)
class Earned:
    """What a player's knockouts in one report earn: how many they made, and the points."""

    knockouts: int = 0
    points: int = 0


NOTHING = Earned()


def knockout_problems(
    rows: Sequence[tuple[int, int | None]], statuses: Sequence[str | None] = ()
) -> list[Problem]:
    """R8a: each row's (place, knocker's row index or None) checked: the knocker is another
    entrant who finished higher, and the winner has none; with the rows' `statuses` (R6; none
    given: `played`), a `no_show`, who never played a hand, knocks no one out. Rows are named
    `results.N.knocked_out_by`."""
    problems = []
    for n, (place, by) in enumerate(rows):
        if by is None:
            continue
        path = f"results.{n}.knocked_out_by"
        if place == 1:
            problems.append(Problem(path, "The winner was knocked out by nobody.", "R8a"))
        elif by == n:
            problems.append(Problem(path, "A player does not knock themselves out.", "R8a"))
        elif by < len(statuses) and statuses[by] == NO_SHOW:
            who = f"The knocker named, who finished {ordinal(rows[by][0])},"
            problems.append(Problem(path, no_show_knocker(who), "R8a"))
        elif rows[by][0] >= place:
            problems.append(
                Problem(
                    path,
                    f"The knocker finished {ordinal(rows[by][0])}, not higher than {ordinal(place)}: "
                    "a player is knocked out by someone who finished higher.",
                    "R8a",
                )
            )
    return problems


# R6's status of an entrant who signed in but never played a hand (EntrantStatus.NO_SHOW:
# rules/reports.py imports this module, not the other way round).
NO_SHOW = "no_show"


def no_show_knocker(who: str) -> str:
    """R8a: why a no_show is no one's knocker, in words (`who`: the knocker as the caller names
    them)."""
    return f"{who} is a no_show: a no_show never played a hand, so knocks no one out (R6)."


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def knockouts_earned(
    knocked: Iterable[tuple[int, int | None]], settings: Knockouts, bounties: Collection[int] = ()
) -> dict[int, Earned]:
    """R8a: from each result's (player, knocked out by), what each knocker earns: the season's
    points for each player they knocked out, and the bounty for each bounty player among them.
    Counted whether or not the season pays for them (a league sees its knockouts either way)."""
    made: dict[int, list[int]] = {}
    for victim, by in knocked:
        if by is not None:
            made.setdefault(by, []).append(victim)
    paid_bounties = set(bounties) if settings.has_bounty else set()
    return {
        by: Earned(
            len(victims),
            settings.points * len(victims)
            + settings.bounty_points * len(paid_bounties.intersection(victims)),
        )
        for by, victims in made.items()
    }


def leaders(ranks: Mapping[int, int]) -> set[int]:
    """R8a's venue_leader: every player ranked first (R11), ties all carrying the bounty."""
    return {pid for pid, rank in ranks.items() if rank == 1}
