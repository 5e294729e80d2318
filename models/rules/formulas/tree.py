"""R7 formulas: the tree a formula is read into, and the reference evaluation of it, one place at
a time (`evaluate`, `points_of`). Each node also computes its values at many places at once, a
column, for a `Run` (models/rules/formulas/work.py). `and`, `or` and `if` evaluate only what they
need, left to right."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal, DecimalException, DivisionByZero, Overflow
from typing import Protocol

from models.rules.formulas.exact import (
    ARITHMETIC,
    COLUMN_ARITHMETIC,
    COMPARE,
    CONTEXT,
    MOST_POINTS,
    ONE_ARGUMENT,
    EvaluationError,
    whole_points,
)

Value = Decimal | bool
# A part's values at the places asked for, in their order (see `work.Run`).
Column = list[Value]

# The functions a run computes once per argument (`work.Run.costly`; their work: `work.WORK`).
COSTLY = ("sqrt", "ln", "log10")


class FieldRun(Protocol):
    """What a node asks of the evaluation of a field's places a column at a time (`work.Run`)."""

    n: Decimal
    k: Decimal

    def spend(self, kind: str, times: int = 1) -> None: ...

    def of(self, node: Node, places: list[int]) -> Column: ...

    def apply(
        self, function: Callable[..., Value], places: list[int], *columns: Column, kind: str = "cheap"
    ) -> Column: ...

    def costly(self, name: str, places: list[int], column: Column) -> Column: ...

    def power(self, places: list[int], bases: Column, exponents: Column) -> Column: ...


class Env:
    """What a tree is evaluated in, one place at a time: the variables' values (the reference
    evaluation; a chart computes every place of a field at once, with `work.Run`)."""

    def __init__(self, n: Decimal, p: Decimal, k: Decimal) -> None:
        self.variables = {"n": n, "p": p, "k": k}

    def value(self, node: Node) -> Value:
        return node.value(self)


@dataclass(frozen=True)
class Node:
    position: int

    @property
    def truth(self) -> bool:
        """Whether the node is a truth value (a comparison, `and`, `or`, `not`)."""
        return False

    def children(self) -> tuple[Node, ...]:
        return ()

    def value(self, env: Env) -> Value:
        """The node's value, its children's had from `env` (the reference evaluation)."""
        raise NotImplementedError

    def column(self, run: FieldRun, places: list[int]) -> Column:
        """The same values at each of `places` of the field `run` evaluates (in their order), its
        children's had from `run` for the places that need them."""
        raise NotImplementedError

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children():
            yield from child.walk()


@dataclass(frozen=True)
class Number(Node):
    number: Decimal

    def value(self, env: Env) -> Value:
        return self.number

    def column(self, run: FieldRun, places: list[int]) -> Column:
        return [self.number] * len(places)


@dataclass(frozen=True)
class Variable(Node):
    name: str

    def value(self, env: Env) -> Value:
        return env.variables[self.name]

    def column(self, run: FieldRun, places: list[int]) -> Column:
        if self.name == "p":
            run.spend("lookup", len(places))
            return list(map(Decimal, places))
        return [run.n if self.name == "n" else run.k] * len(places)


@dataclass(frozen=True)
class Negate(Node):
    operand: Node

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)

    def value(self, env: Env) -> Value:
        return CONTEXT.minus(number(self.operand, env))

    def column(self, run: FieldRun, places: list[int]) -> Column:
        return run.apply(CONTEXT.minus, places, run.of(self.operand, places))


def number(node: Node, env: Env) -> Decimal:
    value = env.value(node)
    assert isinstance(value, Decimal)
    return value


def truth(node: Node, env: Env) -> bool:
    value = env.value(node)
    assert isinstance(value, bool)
    return value


@dataclass(frozen=True)
class Arithmetic(Node):
    operator: str
    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def value(self, env: Env) -> Value:
        return ARITHMETIC[self.operator](number(self.left, env), number(self.right, env))

    def column(self, run: FieldRun, places: list[int]) -> Column:
        left, right = run.of(self.left, places), run.of(self.right, places)
        if self.operator == "^":
            return run.power(places, left, right)
        kind = "divide" if self.operator == "/" else "cheap"
        return run.apply(COLUMN_ARITHMETIC[self.operator], places, left, right, kind=kind)


@dataclass(frozen=True)
class Comparison(Node):
    operator: str
    left: Node
    right: Node

    @property
    def truth(self) -> bool:
        return True

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def value(self, env: Env) -> Value:
        return COMPARE[self.operator](number(self.left, env), number(self.right, env))

    def column(self, run: FieldRun, places: list[int]) -> Column:
        left, right = run.of(self.left, places), run.of(self.right, places)
        return run.apply(COMPARE[self.operator], places, left, right)


@dataclass(frozen=True)
class Logic(Node):
    operator: str  # "and" or "or"
    left: Node
    right: Node

    @property
    def truth(self) -> bool:
        return True

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def value(self, env: Env) -> Value:
        first = truth(self.left, env)
        if self.operator == "and":
            return first and truth(self.right, env)
        return first or truth(self.right, env)

    def column(self, run: FieldRun, places: list[int]) -> Column:
        # The right side where it decides: where the left is true for `and`, false for `or`.
        first = run.of(self.left, places)
        deciding = self.operator == "and"
        second = iter(
            run.of(self.right, [at for at, value in zip(places, first, strict=True) if value is deciding])
        )
        run.spend("merge", len(places))
        return [next(second) if value is deciding else value for value in first]


@dataclass(frozen=True)
class Not(Node):
    operand: Node

    @property
    def truth(self) -> bool:
        return True

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)

    def value(self, env: Env) -> Value:
        return not truth(self.operand, env)

    def column(self, run: FieldRun, places: list[int]) -> Column:
        run.spend("merge", len(places))
        return [not value for value in run.of(self.operand, places)]


@dataclass(frozen=True)
class If(Node):
    condition: Node
    then: Node
    otherwise: Node

    def children(self) -> tuple[Node, ...]:
        return (self.condition, self.then, self.otherwise)

    def value(self, env: Env) -> Value:
        return number(self.then if truth(self.condition, env) else self.otherwise, env)

    def column(self, run: FieldRun, places: list[int]) -> Column:
        # Each branch only at the places that take it.
        condition = run.of(self.condition, places)
        then = iter(run.of(self.then, [at for at, chosen in zip(places, condition, strict=True) if chosen]))
        otherwise = iter(
            run.of(self.otherwise, [at for at, chosen in zip(places, condition, strict=True) if not chosen])
        )
        run.spend("merge", len(places))
        return [next(then) if chosen else next(otherwise) for chosen in condition]


@dataclass(frozen=True)
class Call(Node):
    function: str
    arguments: tuple[Node, ...]

    def children(self) -> tuple[Node, ...]:
        return self.arguments

    def value(self, env: Env) -> Value:
        values = [number(argument, env) for argument in self.arguments]
        if self.function == "min":
            return min(values)
        if self.function == "max":
            return max(values)
        return ONE_ARGUMENT[self.function](values[0])

    def column(self, run: FieldRun, places: list[int]) -> Column:
        columns = [run.of(argument, places) for argument in self.arguments]
        if self.function in ("min", "max"):
            return run.apply(min if self.function == "min" else max, places, *columns)
        if self.function in COSTLY:
            return run.costly(self.function, places, columns[0])
        kind = "cheap" if self.function == "abs" else "rounding"
        return run.apply(ONE_ARGUMENT[self.function], places, columns[0], kind=kind)


def evaluate(tree: Node, n: int, p: int, k: int, env: Env | None = None) -> Decimal:
    """R7: the formula's exact value for place p of n entrants with k scoring places; raises
    EvaluationError where it has none (a division by zero, a logarithm of 0 or less, a number
    beyond 10^9999, …)."""
    try:
        return number(tree, env or Env(Decimal(n), Decimal(p), Decimal(k)))
    except EvaluationError:
        raise
    except DivisionByZero:
        raise EvaluationError("division by zero") from None
    except Overflow:
        raise EvaluationError("a number too large to compute") from None
    except DecimalException:
        raise EvaluationError("an operation with no value") from None


def points_of(tree: Node, n: int, p: int, k: int, env: Env | None = None) -> int:
    """R7: the whole points the formula gives place p ≤ k: its value rounded half up, 0 below 0;
    refused (EvaluationError) above 100,000."""
    value = evaluate(tree, n, p, k, env)
    if value > MOST_POINTS:
        raise EvaluationError("a value above 100,000")
    return whole_points(value)
