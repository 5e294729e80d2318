"""R20 skill ratings: the Plackett-Luce model of Weng and Lin (2011) as openskill computes it with
its defaults (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300), the ordinal shown, who is
provisional, and the rating table's ranks. Pure: states in, states out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from openskill.models import PlackettLuce

from models.rules.reports import EntrantStatus

# One model for the league, openskill's defaults untouched (R20).
MODEL = PlackettLuce()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma
PROVISIONAL_BELOW = 5  # rated tournaments
MAX_MIN_TOURNAMENTS = 1000  # the table's `min_tournaments` filter goes 0..1000
Z = 3  # the ordinal shown is mu - 3 sigma
TWO_PLACES = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating state: mu, sigma (floats, exactly as openskill returns them) and how many
    tournaments have been rated."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    tournaments: int = 0


NEW = Skill()


def rated(status: str) -> bool:
    """R20: a no-show is not rated; every other status is rated at its place."""
    return status != EntrantStatus.NO_SHOW


def rate(entrants: Sequence[tuple[Skill, int]]) -> list[Skill]:
    """R20: one report's rated entrants (each with its state before and its place) rated by the
    model; fewer than two change nothing (a game needs two sides). Each entrant is a team of one,
    ranked by place (a shared place would be a tie, as the model takes it)."""
    if len(entrants) < 2:
        return [skill for skill, _ in entrants]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill, _ in entrants]
    after = MODEL.rate(teams, ranks=[float(place) for _, place in entrants])
    return [
        Skill(team[0].mu, team[0].sigma, skill.tournaments + 1)
        for team, (skill, _) in zip(after, entrants, strict=True)
    ]


def ordinal(mu: float, sigma: float) -> Decimal:
    """R20: the rating shown, mu - 3 sigma rounded to two decimals, a half up (of the exact value
    of the float: 1.005 is stored a little under, and shows 1.00)."""
    return Decimal(mu - Z * sigma).quantize(TWO_PLACES, rounding=ROUND_HALF_UP)


def provisional(tournaments: int) -> bool:
    """R20: fewer than 5 rated tournaments."""
    return tournaments < PROVISIONAL_BELOW


def table_ranks(ratings: Sequence[Decimal]) -> list[int]:
    """Ranks of ratings sorted best first: equal ratings share a rank, the next rank skips
    (1, 2, 2, 4), as standings do (R11)."""
    ranks: list[int] = []
    for index, value in enumerate(ratings):
        if index and value == ratings[index - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(index + 1)
    return ranks
