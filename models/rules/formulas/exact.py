"""R7 formulas: the exact decimals a formula computes with (its own context of 28 significant
digits; the global context is never touched) and the operations on them that can have no value
(a division by zero, a logarithm of 0 or less, …): roots and logarithms come from `Decimal`, `^`
is Decimal power, and no binary float appears anywhere."""

from __future__ import annotations

import operator
from collections.abc import Callable
from decimal import (
    ROUND_CEILING,
    ROUND_FLOOR,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    Overflow,
)

MOST_POINTS = Decimal(100_000)


def context(rounding: str = ROUND_HALF_EVEN) -> Context:
    """The evaluation's own decimal context: 28 significant digits; an invalid operation, a
    division by zero or a number beyond 10^9999 stops the evaluation. (Rounding to a whole
    number uses one of its own rounding: `round` half up, `floor`, `ceil`.)"""
    return Context(
        prec=28,
        rounding=rounding,
        Emax=9999,
        Emin=-9999,
        traps=[InvalidOperation, DivisionByZero, Overflow],
    )


CONTEXT = context()


class EvaluationError(ValueError):
    """R7: the formula cannot be evaluated here (a division by zero, a logarithm of 0 or less, …)."""


def divide(a: Decimal, b: Decimal) -> Decimal:
    if b.is_zero():
        raise EvaluationError("division by zero")
    return CONTEXT.divide(a, b)


def power(a: Decimal, b: Decimal) -> Decimal:
    if a.is_zero() and b <= 0:
        raise EvaluationError("0 raised to a power of 0 or less")
    if a < 0 and b != b.to_integral_value():
        raise EvaluationError("a negative number raised to a fractional power")
    return CONTEXT.power(a, b)


ARITHMETIC: dict[str, Callable[[Decimal, Decimal], Decimal]] = {
    "+": CONTEXT.add,
    "-": CONTEXT.subtract,
    "*": CONTEXT.multiply,
    "/": divide,
    "^": power,
}
# A column's division: a division by zero (or 0 / 0) traps, and the place is then evaluated
# alone by `divide`, which says why.
COLUMN_ARITHMETIC = {**ARITHMETIC, "/": CONTEXT.divide}


COMPARE: dict[str, Callable[[Decimal, Decimal], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def _sqrt(x: Decimal) -> Decimal:
    if x < 0:
        raise EvaluationError("a square root of a number below 0")
    return CONTEXT.sqrt(x)


def _logarithm(of: Callable[[Decimal], Decimal]) -> Callable[[Decimal], Decimal]:
    def logarithm(x: Decimal) -> Decimal:
        if x <= 0:
            raise EvaluationError("a logarithm of 0 or less")
        return of(x)

    return logarithm


def _integral(rounding: str) -> Callable[[Decimal], Decimal]:
    """x rounded to a whole number this way (ROUND_FLOOR, …)."""
    return context(rounding).to_integral_value


ONE_ARGUMENT: dict[str, Callable[[Decimal], Decimal]] = {
    "sqrt": _sqrt,
    "ln": _logarithm(CONTEXT.ln),
    "log10": _logarithm(CONTEXT.log10),
    "floor": _integral(ROUND_FLOOR),
    "ceil": _integral(ROUND_CEILING),
    "round": _integral(ROUND_HALF_UP),
    "abs": CONTEXT.abs,
}


HALF_UP = context(ROUND_HALF_UP)


def whole_points(value: Decimal) -> int:
    """R7: a value of 100,000 or less as points: rounded half up, 0 below 0."""
    return 0 if value <= 0 else int(HALF_UP.to_integral_value(value))
