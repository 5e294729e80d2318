"""R7 `formula` charts: the points of place p among n entrants as an expression the league writes.

A small parser of our own reads the text into a tree of the allowed pieces only (numbers, the
variables `n` `p` `k`, the listed functions, `+ - * / ^`, comparisons, `and` `or` `not`,
`if(c, a, b)` and parentheses); nothing is ever handed to `eval`, and every error names its
character (1 is the first). Comparisons are truth values: only `if`, `and`, `or` and `not` take
them, and arithmetic on a truth value (or a truth value as the result) is refused when parsed.

The tree is evaluated in exact decimals with its own context (28 significant digits; the global
context is never touched): roots and logarithms come from `Decimal`, `^` is Decimal power, and no
binary float appears anywhere. `and`, `or` and `if` evaluate only what they need, left to right.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import (
    ROUND_CEILING,
    ROUND_FLOOR,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Context,
    Decimal,
    DecimalException,
    DivisionByZero,
    InvalidOperation,
    Overflow,
)
from functools import lru_cache
from typing import Any, cast

MAX_LENGTH = 500
MAX_NODES = 200
MAX_DEPTH = 40  # nested parentheses, calls and unary signs: the parser's recursion stays small
MOST_POINTS = Decimal(100_000)
VARIABLES = ("n", "p", "k")
KEYWORDS = ("and", "or", "not", "if")
# name: (fewest, most) arguments; None: any number from the fewest.
FUNCTIONS: dict[str, tuple[int, int | None]] = {
    "sqrt": (1, 1),
    "ln": (1, 1),
    "log10": (1, 1),
    "min": (2, None),
    "max": (2, None),
    "floor": (1, 1),
    "ceil": (1, 1),
    "round": (1, 1),
    "abs": (1, 1),
}
COMPARISONS = ("<=", ">=", "==", "!=", "<", ">")
SPACE = " \t\r\n"
DIGITS = "0123456789"
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"


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


class FormulaError(ValueError):
    """R7: the text is not a formula of the allowed pieces; `position` is its character (from 1)."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} at character {position}")
        self.position = position


class EvaluationError(ValueError):
    """R7: the formula cannot be evaluated here (a division by zero, a logarithm of 0 or less, …)."""


# The tree ------------------------------------------------------------------------------------

Value = Decimal | bool
# A part's values at the places asked for, in their order (see `Run` below).
Column = list[Value]


class Env:
    """What a tree is evaluated in, one place at a time: the variables' values (the reference
    evaluation; a chart computes every place of a field at once, with `Run` below)."""

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

    def column(self, run: Run, places: list[int]) -> Column:
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

    def column(self, run: Run, places: list[int]) -> Column:
        return [self.number] * len(places)


@dataclass(frozen=True)
class Variable(Node):
    name: str

    def value(self, env: Env) -> Value:
        return env.variables[self.name]

    def column(self, run: Run, places: list[int]) -> Column:
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

    def column(self, run: Run, places: list[int]) -> Column:
        return run.apply(CONTEXT.minus, places, run.of(self.operand, places))


def number(node: Node, env: Env) -> Decimal:
    value = env.value(node)
    assert isinstance(value, Decimal)
    return value


def truth(node: Node, env: Env) -> bool:
    value = env.value(node)
    assert isinstance(value, bool)
    return value


def _divide(a: Decimal, b: Decimal) -> Decimal:
    if b.is_zero():
        raise EvaluationError("division by zero")
    return CONTEXT.divide(a, b)


def _power(a: Decimal, b: Decimal) -> Decimal:
    if a.is_zero() and b <= 0:
        raise EvaluationError("0 raised to a power of 0 or less")
    if a < 0 and b != b.to_integral_value():
        raise EvaluationError("a negative number raised to a fractional power")
    return CONTEXT.power(a, b)


ARITHMETIC: dict[str, Callable[[Decimal, Decimal], Decimal]] = {
    "+": CONTEXT.add,
    "-": CONTEXT.subtract,
    "*": CONTEXT.multiply,
    "/": _divide,
    "^": _power,
}
# A column's division: a division by zero (or 0 / 0) traps, and the place is then evaluated
# alone by `_divide`, which says why.
COLUMN_ARITHMETIC = {**ARITHMETIC, "/": CONTEXT.divide}


@dataclass(frozen=True)
class Arithmetic(Node):
    operator: str
    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def value(self, env: Env) -> Value:
        return ARITHMETIC[self.operator](number(self.left, env), number(self.right, env))

    def column(self, run: Run, places: list[int]) -> Column:
        left, right = run.of(self.left, places), run.of(self.right, places)
        if self.operator == "^":
            return run.power(places, left, right)
        kind = "divide" if self.operator == "/" else "cheap"
        return run.apply(COLUMN_ARITHMETIC[self.operator], places, left, right, kind=kind)


COMPARE: dict[str, Callable[[Decimal, Decimal], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


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

    def column(self, run: Run, places: list[int]) -> Column:
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

    def column(self, run: Run, places: list[int]) -> Column:
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

    def column(self, run: Run, places: list[int]) -> Column:
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

    def column(self, run: Run, places: list[int]) -> Column:
        # Each branch only at the places that take it.
        condition = run.of(self.condition, places)
        then = iter(run.of(self.then, [at for at, chosen in zip(places, condition, strict=True) if chosen]))
        otherwise = iter(
            run.of(self.otherwise, [at for at, chosen in zip(places, condition, strict=True) if not chosen])
        )
        run.spend("merge", len(places))
        return [next(then) if chosen else next(otherwise) for chosen in condition]


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

    def column(self, run: Run, places: list[int]) -> Column:
        columns = [run.of(argument, places) for argument in self.arguments]
        if self.function in ("min", "max"):
            return run.apply(min if self.function == "min" else max, places, *columns)
        if self.function in COSTLY:
            return run.costly(self.function, places, columns[0])
        kind = "cheap" if self.function == "abs" else "rounding"
        return run.apply(ONE_ARGUMENT[self.function], places, columns[0], kind=kind)


# The parser ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: str  # "number", "name", "op", "(", ")", ",", "end"
    text: str
    position: int  # from 1


def _shown(char: str) -> str:
    return f"`{char}`" if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"


def _skip(text: str, index: int, chars: str) -> int:
    """The index after the run of `chars` that starts at `index`."""
    while index < len(text) and text[index] in chars:
        index += 1
    return index


def tokens(text: str) -> Iterator[Token]:
    """The tokens of the text, one at a time (so the parser reports the first problem in the
    text, whatever it is); FormulaError at a character no token starts with."""
    index = 0
    while index < len(text):
        char = text[index]
        start = index
        if char in SPACE:
            index += 1
            continue
        if char in DIGITS or (char == "." and text[index + 1 : index + 2] in tuple(DIGITS)):
            index = _skip(text, index, DIGITS)
            if text[index : index + 1] == ".":
                index = _skip(text, index + 1, DIGITS)
            yield Token("number", text[start:index], start + 1)
        elif char in LETTERS:
            index = _skip(text, index, LETTERS + DIGITS)
            yield Token("name", text[start:index], start + 1)
        elif text.startswith(("<=", ">=", "==", "!="), index):
            yield Token("op", text[index : index + 2], start + 1)
            index += 2
        elif char in "+-*/^<>":
            yield Token("op", char, start + 1)
            index += 1
        elif char in "(),":
            yield Token(char, char, start + 1)
            index += 1
        elif char == "=":
            raise FormulaError("`=` is not an operator (compare with `==`)", start + 1)
        else:
            raise FormulaError(f"unexpected character {_shown(char)}", start + 1)
    yield Token("end", "", len(text) + 1)


class Parser:
    """Recursive descent, loosest first: or, and, not, a comparison, + -, * /, signs, ^ (to the
    right, so 2^3^2 is 2^9), then numbers, names, calls and parentheses."""

    def __init__(self, text: str) -> None:
        self.upcoming = tokens(text)
        self.tokens: list[Token] = []
        self.at = 0
        self.nodes = 0
        self.depth = 0

    @property
    def token(self) -> Token:
        while len(self.tokens) <= self.at:
            self.tokens.append(next(self.upcoming))
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.token
        self.at += 1
        return token

    def expect(self, kind: str, what: str) -> Token:
        if self.token.kind != kind:
            raise FormulaError(f"expected {what}, found {describe(self.token)}", self.token.position)
        return self.take()

    def made(self, node: Node) -> Node:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise FormulaError(f"more than {MAX_NODES} pieces", node.position)
        return node

    def deeper(self, position: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(f"nested more than {MAX_DEPTH} deep", position)

    def formula(self) -> Node:
        node = self.disjunction()
        if self.token.kind != "end":
            raise FormulaError(f"unexpected {describe(self.token)}", self.token.position)
        return node

    def disjunction(self) -> Node:
        node = self.conjunction()
        while self.token.kind == "name" and self.token.text == "or":
            position = self.take().position
            node = self.made(
                Logic(
                    position,
                    "or",
                    truth_value(node, "or", position),
                    truth_value(self.conjunction(), "or", position),
                )
            )
        return node

    def conjunction(self) -> Node:
        node = self.negation()
        while self.token.kind == "name" and self.token.text == "and":
            position = self.take().position
            node = self.made(
                Logic(
                    position,
                    "and",
                    truth_value(node, "and", position),
                    truth_value(self.negation(), "and", position),
                )
            )
        return node

    def negation(self) -> Node:
        if self.token.kind == "name" and self.token.text == "not":
            position = self.take().position
            self.deeper(position)
            node = self.made(Not(position, truth_value(self.negation(), "not", position)))
            self.depth -= 1
            return node
        return self.comparison()

    def comparison(self) -> Node:
        node = self.sum()
        if self.token.kind == "op" and self.token.text in COMPARISONS:
            operator = self.take()
            right = self.sum()
            node = self.made(
                Comparison(
                    operator.position,
                    operator.text,
                    arithmetic_value(node, operator),
                    arithmetic_value(right, operator),
                )
            )
            if self.token.kind == "op" and self.token.text in COMPARISONS:
                raise FormulaError("comparisons do not chain (join them with `and`)", self.token.position)
        return node

    def sum(self) -> Node:
        return self.left_to_right("+-", self.product)

    def product(self) -> Node:
        return self.left_to_right("*/", self.signed)

    def left_to_right(self, operators: str, operand: Callable[[], Node]) -> Node:
        """Operands joined by these operators, grouped from the left (a - b - c is (a - b) - c)."""
        node = operand()
        while self.token.kind == "op" and self.token.text in operators:
            operator = self.take()
            right = operand()
            node = self.made(
                Arithmetic(
                    operator.position,
                    operator.text,
                    arithmetic_value(node, operator),
                    arithmetic_value(right, operator),
                )
            )
        return node

    def signed(self) -> Node:
        if self.token.kind == "op" and self.token.text in "+-":
            operator = self.take()
            self.deeper(operator.position)
            operand = arithmetic_value(self.signed(), operator)
            self.depth -= 1
            return operand if operator.text == "+" else self.made(Negate(operator.position, operand))
        return self.power()

    def power(self) -> Node:
        node = self.atom()
        if self.token.kind == "op" and self.token.text == "^":
            operator = self.take()
            self.deeper(operator.position)
            exponent = self.signed()  # to the right: 2^3^2 is 2^(3^2), and 2^-1 is a half
            self.depth -= 1
            node = self.made(
                Arithmetic(
                    operator.position,
                    "^",
                    arithmetic_value(node, operator),
                    arithmetic_value(exponent, operator),
                )
            )
        return node

    def atom(self) -> Node:
        token = self.token
        if token.kind == "number":
            self.take()
            try:
                value = CONTEXT.create_decimal(token.text)
            except DecimalException:
                raise FormulaError("a number too large", token.position) from None
            return self.made(Number(token.position, value))
        if token.kind == "(":
            self.take()
            self.deeper(token.position)
            node = self.disjunction()
            self.depth -= 1
            self.expect(")", "`)` closing the `(` at character " + str(token.position))
            return node
        if token.kind == "name":
            return self.named(token)
        raise FormulaError(f"expected a number, a name or `(`, found {describe(token)}", token.position)

    def named(self, token: Token) -> Node:
        self.take()
        name = token.text
        if name in VARIABLES:
            return self.made(Variable(token.position, name))
        if name == "if" or name in FUNCTIONS:
            if self.token.kind != "(":
                raise FormulaError(f"`{name}` needs its arguments in parentheses", self.token.position)
            self.deeper(self.take().position)
            arguments = [self.disjunction()]
            while self.token.kind == ",":
                self.take()
                arguments.append(self.disjunction())
            self.expect(")", f"`,` or `)` in the arguments of `{name}`")
            self.depth -= 1
            return self.made(self.call(token, arguments))
        if name in KEYWORDS:
            raise FormulaError(f"unexpected `{name}`", token.position)
        raise FormulaError(f"unknown name `{name}`", token.position)

    def call(self, token: Token, arguments: list[Node]) -> Node:
        name = token.text
        if name == "if":
            if len(arguments) != 3:
                raise FormulaError("`if` takes 3 arguments (condition, then, else)", token.position)
            condition, then, otherwise = arguments
            if not condition.truth:
                raise FormulaError(
                    "the condition of `if` must be a comparison or `and`/`or`/`not`", condition.position
                )
            for branch in (then, otherwise):
                if branch.truth:
                    raise FormulaError("the branches of `if` must be numbers", branch.position)
            return If(token.position, condition, then, otherwise)
        fewest, most = FUNCTIONS[name]
        if len(arguments) < fewest or (most is not None and len(arguments) > most):
            wanted = f"{fewest}" if fewest == most else f"at least {fewest}"
            raise FormulaError(
                f"`{name}` takes {wanted} argument{'s' if wanted != '1' else ''}", token.position
            )
        for argument in arguments:
            if argument.truth:
                raise FormulaError(f"the arguments of `{name}` must be numbers", argument.position)
        return Call(token.position, name, tuple(arguments))


def describe(token: Token) -> str:
    return "the end" if token.kind == "end" else f"`{token.text}`"


def truth_value(node: Node, operator: str, position: int) -> Node:
    """The node, if a truth value: else refused at the operator (`and`, `or`, `not`)."""
    if not node.truth:
        raise FormulaError(f"`{operator}` takes comparisons, not numbers", position)
    return node


def arithmetic_value(node: Node, operator: Token) -> Node:
    """The node, if a number: else refused at the operator (a truth value is no number)."""
    if node.truth:
        raise FormulaError(
            f"a comparison is a truth value, not a number: `{operator.text}` cannot take it "
            "(use if(condition, a, b))",
            operator.position,
        )
    return node


@lru_cache(maxsize=256)
def parse(text: str) -> Node:
    """R7: the tree of a formula's text, or FormulaError naming the first problem's character.
    Cached by the text (a parse depends on nothing else)."""
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("a formula cannot be empty", 1)
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"a formula has at most {MAX_LENGTH} characters", MAX_LENGTH + 1)
    node = Parser(text).formula()
    if node.truth:
        raise FormulaError("a formula gives points, not a truth value (use if(condition, a, b))", 1)
    return node


def misread_number(text: str) -> FormulaError | None:
    """R7, when a formula is saved: its first number that the formula would not read as written,
    at its character: one that ends with its point (`5.`; `.5` is 0.5) or has more significant
    digits than the 28 it computes with (it would be rounded). None when every number reads as
    written. (A formula saved earlier is read as it always was: `5.` as 5.)"""
    for token in _tokens_before_error(text):
        if token.kind != "number":
            continue
        if token.text.endswith("."):
            written = token.text[:-1]
            return FormulaError(
                f"a number ends with its point (write {written} or {written}.0)", token.position
            )
        if CONTEXT.create_decimal(token.text) != Decimal(token.text):
            return FormulaError(
                f"a number with more than {CONTEXT.prec} significant digits, which the formula would "
                "round (it computes with 28)",
                token.position,
            )
    return None


def _tokens_before_error(text: str) -> Iterator[Token]:
    """The tokens of the text up to its first character no token starts with."""
    upcoming = tokens(text)
    while True:
        try:
            yield next(upcoming)
        except (FormulaError, StopIteration):
            return


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


HALF_UP = context(ROUND_HALF_UP)


def whole_points(value: Decimal) -> int:
    """R7: a value of 100,000 or less as points: rounded half up, 0 below 0."""
    return 0 if value <= 0 else int(HALF_UP.to_integral_value(value))


# Evaluating every place of a field at once --------------------------------------------------
#
# A chart needs a formula's value at every place 1..k of a field, and a save-time check at every
# place of every field from 2 to max_entrants. `Run` computes each part of the tree as a column
# (its values at every place that needs it, in one go) rather than place by place: a part of no
# variable is computed once, a part of n and k alone once per field, a part of p alone once per
# place, the costly functions once per argument; `if`, `and` and `or` compute each side only at
# the places that need it, as the reference evaluation does. Where an operation has no value, the
# first such place is found and evaluated alone by the reference (`evaluate`), so a field fails
# at the same place, with the same reason, as evaluating its places one by one would.

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
COSTLY = ("sqrt", "ln", "log10")
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
                    value = _power(base, exponent)
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
