"""R20 skill ratings: the Plackett-Luce model of Weng and Lin (2011) as openskill computes it with
its defaults (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300), the ordinal shown, who is
provisional, and the rating table's ranks. Pure: states in, states out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from openskill.models import PlackettLuce

from models.rules.reports import EntrantStatus

# One model for the league, openskill's defaults untouched (R20).
MODEL = PlackettLuce()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma
BETA_SQUARED: float = MODEL.beta**2
TAU_SQUARED: float = MODEL.tau * MODEL.tau
KAPPA: float = MODEL.kappa
PROVISIONAL_BELOW = 5  # rated tournaments
MAX_MIN_TOURNAMENTS = 1000  # the table's `min_tournaments` filter goes 0..1000
Z = 3  # the ordinal shown is mu - 3 sigma
TWO_PLACES = Decimal("0.01")
# What the rating shown means, as people read it (the console, the site, the embedded pages, the
# emails): never "mu − 3 sigma", which says how it is computed, not what it tells.
RATING_MEANS = (
    "it measures how well a player finishes against the players they meet, at every venue: it "
    "rises when they finish above stronger players, and it is kept on the low side until they "
    "have played often, so higher is better"
)


def rating_words(rating: Decimal | float, tournaments: int, is_provisional: bool, you: bool = False) -> str:
    """A rating in a sentence, with what it means: "5.87 after 12 rated nights" and, while it is
    provisional (R20), how many of the nights it needs. `you`: said to the player themself."""
    shown = f"{Decimal(str(rating)).quantize(TWO_PLACES, rounding=ROUND_HALF_UP)}"
    nights = f"{tournaments} rated night{'' if tournaments == 1 else 's'}"
    said = f"{shown} after {nights}"
    if is_provisional:
        whose = "your" if you else "the"
        said += f" (provisional: {whose} rating settles after {PROVISIONAL_BELOW} nights)"
    return said


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
    """R20: one report's rated entrants (each with its state before and its place, in place
    order) rated by the model; fewer than two change nothing (a game needs two sides). Each
    entrant is a team of one, ranked by place (a shared place is a tie, as the model takes it).

    The arithmetic of openskill's `PlackettLuce.rate` for teams of one, operation for operation
    and in its order, so the floats are the very ones it returns (a property test holds it to
    openskill, ties included), without what costs it three times as much at a report's size: the
    deep copy of every rating, the checks of its arguments, the sorting and unsorting by rank, and
    the terms its loops compute and then drop (those of worse places). With teams of one a
    player's share of the team's variance is exactly 1.0 and the default gamma is sigma / c."""
    if len(entrants) < 2:
        return [skill for skill, _ in entrants]
    field = _Field.of(entrants)
    rated_after: list[Skill] = []
    for i, (skill, _) in enumerate(entrants):
        omega, delta = field.terms(i)
        variance = field.variances[i]
        omega *= variance / field.c
        delta *= variance / field.c**2
        delta *= math.sqrt(variance) / field.c  # gamma
        rated_after.append(
            Skill(
                skill.mu + omega,
                field.sigmas[i] * math.sqrt(max(1 - delta, KAPPA)),
                skill.tournaments + 1,
            )
        )
    return rated_after


@dataclass(frozen=True, slots=True)
class _Field:
    """What the model computes once per game: each entrant's sigma widened by tau and its
    variance, c, the strengths exp(mu / c), for each entrant the entrants placed at or above it
    (`upto`: its terms run over those only) and how many share its place (A_q), and each place's
    sum of the strengths placed at or below it (sum_q), added in entrant order."""

    sigmas: list[float]
    variances: list[float]
    c: float
    strengths: list[float]
    upto: list[int]
    shared: list[int]
    sum_q: list[float]
    tied: bool

    @classmethod
    def of(cls, entrants: Sequence[tuple[Skill, int]]) -> _Field:
        count = len(entrants)
        places = [place for _, place in entrants]
        if any(places[i] > places[i + 1] for i in range(count - 1)):
            raise ValueError("entrants must be in place order")
        sigmas = [math.sqrt(skill.sigma * skill.sigma + TAU_SQUARED) for skill, _ in entrants]
        variances = [sigma**2 for sigma in sigmas]
        collective = 0.0
        for variance in variances:
            collective += variance + BETA_SQUARED
        c = math.sqrt(collective)
        upto = [count] * count
        for i in range(count - 2, -1, -1):
            upto[i] = i + 1 if places[i] != places[i + 1] else upto[i + 1]
        shared = [0] * count
        start = 0
        while start < count:
            end = upto[start]
            shared[start:end] = [end - start] * (end - start)
            start = end
        strengths = [math.exp(skill.mu / c) for skill, _ in entrants]
        sum_q = [0.0] * count
        reach = 0
        for i in range(count):
            for q in range(reach):
                sum_q[q] += strengths[i]
            for q in range(reach, upto[i]):
                sum_q[q] = strengths[i]
            reach = upto[i]
        tied = any(size != 1 for size in shared)
        return cls(sigmas, variances, c, strengths, upto, shared, sum_q, tied)

    def terms(self, i: int) -> tuple[float, float]:
        """Entrant i's omega and delta before scaling, summed over q in the model's order."""
        omega = 0.0
        delta = 0.0
        strength, sum_q = self.strengths[i], self.sum_q
        if self.tied:
            for q in range(self.upto[i]):
                share = strength / sum_q[q]
                size = self.shared[q]
                delta += share * (1 - share) / size
                if q == i:
                    omega += (1 - share) / size
                else:
                    omega -= share / size
            return omega, delta
        for q in range(i):  # every A_q is 1, and a division by 1 is exact
            share = strength / sum_q[q]
            delta += share * (1 - share)
            omega -= share
        share = strength / sum_q[i]
        delta += share * (1 - share)
        omega += 1 - share
        return omega, delta


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
