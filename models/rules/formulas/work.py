"""R7 formulas: evaluating every place of a field at once, its work counted and bounded.

A chart needs a formula's value at every place 1..k of a field, and a save-time check at every
place of every field from 2 to max_entrants. `Run` computes each part of the tree as a column
(its values at every place that needs it, in one go) rather than place by place: a part of no
variable is computed once, a part of n and k alone once per field, a part of p alone once per
place, the costly functions once per argument; `if`, `and` and `or` compute each side only at
the places that need it, as the reference evaluation does. Where an operation has no value, the
first such place is found and evaluated alone by the reference (`evaluate`), so a field fails
at the same place, with the same reason, as evaluating its places one by one would."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, cast

from models.rules.formulas.exact import MOST_POINTS, ONE_ARGUMENT, EvaluationError, power, whole_points
from models.rules.formulas.parser import parse
from models.rules.formulas.tree import Column, Node, Number, Value, Variable, evaluate

# The work of an evaluation, in units of about a tenth of a microsecond of a server's core, as
# measured (bench/formula_charts.py): each operation at each place, and each part asked for at a
# field (`call`), however few its places.
WORK = {
    "call": 20,
    "cheap": 2,  # + - * min max abs, a comparison, a sign
    "divide": 4,
    "rounding": 2,  # floor ceil round
    "merge": 1,  # `if`, `and`, `or`, `not`: a place's side chosen
    "lookup": 2,  # a part of p alone, or p, at a place
    "place": 7,  # a place's value rounded to points and checked
    "sqrt": 80,
    "ln": 540,
    "log10": 540,
    "power": 900,  # to an exponent that is not a whole number from -1000 to 1000
    "whole power": 13,
    "remembered": 6,  # a costly function of an argument met before
}
# A run remembers at most this many arguments of the costly functions (a few MB).
MOST_ARGUMENTS_REMEMBERED = 20_000
MOST_WHOLE_EXPONENT = 1000


class TooMuchWork(Exception):  # noqa: N818 - a limit reached, not a fault
    """R7: the evaluation would take more work than it is allowed (`Work.most`)."""


class PlaceFailure(Exception):  # noqa: N818 - where a column has no value
    """An operation has no value at `place` (the first place of its column where it has none)."""

    def __init__(self, place: int) -> None:
        super().__init__(place)
        self.place = place


class Work:
    """The units an evaluation has spent, and the most it may (None: no limit)."""

    __slots__ = ("most", "spent")

    def __init__(self, most: int | None = None) -> None:
        self.most = most
        self.spent = 0

    def spend(self, kind: str, times: int = 1) -> None:
        """`times` operations of this kind (a WORK key); TooMuchWork past the most."""
        self.spent += WORK[kind] * times
        if self.most is not None and self.spent > self.most:
            raise TooMuchWork


def dependencies(tree: Node) -> dict[int, frozenset[str]]:
    """The variables each node of the tree (by id) depends on."""
    found: dict[int, frozenset[str]] = {}

    def visit(node: Node) -> frozenset[str]:
        names = frozenset([node.name]) if isinstance(node, Variable) else frozenset()
        for child in node.children():
            names |= visit(child)
        found[id(node)] = names
        return names

    visit(tree)
    return found


CONSTANT, BY_FIELD, BY_PLACE = "constant", "by field", "by place"


@dataclass(frozen=True)
class Plan:
    """A tree with how often each of its parts (by id) is computed: once (CONSTANT: no variable),
    once per field (BY_FIELD: n and k alone), once per place (BY_PLACE: p alone); the others (a
    variable, a number, a part of p with n or k) at every place they are asked for."""

    tree: Node
    kinds: dict[int, str]


@lru_cache(maxsize=256)
def plan(text: str) -> Plan:
    """The plan of a formula's text (cached by the text: it depends on nothing else)."""
    tree = parse(text)
    depends = dependencies(tree)
    kinds: dict[int, str] = {}
    for node in tree.walk():
        variables = depends[id(node)]
        if isinstance(node, Number | Variable):
            continue
        if not variables:
            kinds[id(node)] = CONSTANT
        elif "p" not in variables:
            kinds[id(node)] = BY_FIELD
        elif variables == {"p"}:
            kinds[id(node)] = BY_PLACE
    return Plan(tree, kinds)


class Run:
    """An evaluation of a formula for one field or many (a save-time check, field after field):
    what it has computed so far, kept for the fields that follow, and the work it has done. Its
    own: nothing is shared between runs, so what a run costs depends on nothing but the formula
    and its fields."""

    def __init__(self, text: str, work: Work | None = None) -> None:
        self.plan = plan(text)
        self.work = work or Work()
        self.spend = self.work.spend
        self.n = self.k = Decimal(0)
        self.constants: dict[int, Value] = {}
        self.by_field: dict[int, Value] = {}
        self.by_place: dict[int, dict[int, Value]] = {}
        self.arguments: dict[str, dict[Any, Decimal]] = {}

    def values(self, n: int, k: int, places: list[int]) -> Column:
        """The formula's values at `places` of a field of n entrants with k scoring places;
        PlaceFailure at the first of them (in the order the parts are computed) with none."""
        if (self.n, self.k) != (n, k):
            self.n, self.k, self.by_field = Decimal(n), Decimal(k), {}
        return self.of(self.plan.tree, places)

    def of(self, node: Node, places: list[int]) -> Column:
        """A node's values at `places`, from what the run remembers where it can."""
        if not places:
            return []
        key = id(node)
        kind = self.plan.kinds.get(key)
        self.spend("call")
        if kind is None:
            return node.column(self, places)
        if kind is BY_PLACE:
            known = self.by_place.setdefault(key, {})
            missing = [place for place in places if place not in known]
            if missing:
                known.update(zip(missing, node.column(self, missing), strict=True))
            self.spend("lookup", len(places))
            return [known[place] for place in places]
        remembered = self.by_field if kind is BY_FIELD else self.constants
        if key not in remembered:
            # At the first place that needs it: that is where it fails, if it does.
            remembered[key] = node.column(self, places[:1])[0]
        return [remembered[key]] * len(places)

    def apply(
        self, function: Callable[..., Value], places: list[int], *columns: Column, kind: str = "cheap"
    ) -> Column:
        """`function` of the columns, place by place; PlaceFailure at the first with no value."""
        self.spend(kind, len(places))
        try:
            return list(map(function, *columns))
        except (ArithmeticError, ValueError):
            for place, arguments in zip(places, zip(*columns, strict=True), strict=True):
                try:
                    function(*arguments)
                except (ArithmeticError, ValueError):
                    raise PlaceFailure(place) from None
            raise

    def costly(self, name: str, places: list[int], column: Column) -> Column:
        """A costly function of one argument (sqrt, ln, log10), once per argument."""
        function = ONE_ARGUMENT[name]
        remembered = self.arguments.setdefault(name, {})
        found: Column = []
        for place, argument in zip(places, column, strict=True):
            value = remembered.get(argument)
            if value is None:
                self.spend(name)
                try:
                    value = function(argument)  # type: ignore[arg-type]
                except (ArithmeticError, ValueError):
                    raise PlaceFailure(place) from None
                if len(remembered) < MOST_ARGUMENTS_REMEMBERED:
                    remembered[argument] = value
            else:
                self.spend("remembered")
            found.append(value)
        return found

    def power(self, places: list[int], bases: Column, exponents: Column) -> Column:
        """a ^ b at each place: a whole exponent is cheap; another is remembered per (a, b), as
        written (Decimal's power is correctly rounded almost always, but not proven so)."""
        remembered = self.arguments.setdefault("^", {})
        found: Column = []
        for place, base, exponent in zip(places, bases, exponents, strict=True):
            assert isinstance(base, Decimal) and isinstance(exponent, Decimal)
            whole = exponent == exponent.to_integral_value() and abs(exponent) <= MOST_WHOLE_EXPONENT
            key = None if whole else (str(base), str(exponent))
            value = None if key is None else remembered.get(key)
            if value is None:
                self.spend("whole power" if whole else "power")
                try:
                    value = power(base, exponent)
                except (ArithmeticError, ValueError):
                    raise PlaceFailure(place) from None
                if key is not None and len(remembered) < MOST_ARGUMENTS_REMEMBERED:
                    remembered[key] = value
            else:
                self.spend("remembered")
            found.append(value)
        return found


def field_points(
    text: str, n: int, k: int, run: Run | None = None
) -> tuple[list[int], EvaluationError | None]:
    """R7: the points of places 1..k of a field of n by the formula `text` (its value rounded
    half up, 0 below 0), each place's as `points_of` gives it, computed a column at a time
    (`Run`: give one to carry what it remembers, and its work, across fields). With no value, or
    a value above 100,000, at some place: the points of the places before it, and why it has
    none (an EvaluationError), else every place's and None. TooMuchWork when the run's work is
    used up."""
    run = run or Run(text)
    places = list(range(1, k + 1))
    failing: int | None = None
    while True:
        try:
            values = run.values(n, k, places)
            break
        except PlaceFailure as failure:
            # The first place with no value is this one or an earlier one: the places before it
            # again, until they all have one.
            failing, places = failure.place, places[: failure.place - 1]
    run.spend("place", len(values))
    numbers = cast(list[Decimal], values)  # a formula gives a number (parse)
    if numbers and max(numbers) > MOST_POINTS:
        above = next(index for index, value in enumerate(numbers) if value > MOST_POINTS)
        return list(map(whole_points, numbers[:above])), EvaluationError("a value above 100,000")
    points = list(map(whole_points, numbers))
    if failing is None:
        return points, None
    try:
        evaluate(run.plan.tree, n, failing, k)
    except EvaluationError as exc:
        return points, exc
    raise AssertionError(f"the formula {text!r} has a value at n = {n}, p = {failing}")
