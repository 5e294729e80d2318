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

MAX_LENGTH = 500
MAX_NODES = 200
MAX_DEPTH = 40  # nested parentheses, calls and unary signs: the parser's recursion stays small
MOST_POINTS = Decimal(100_000)
# A part of a formula that depends only on p is remembered for places up to this many.
MOST_PLACES_REMEMBERED = 1000
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


def context() -> Context:
    """The evaluation's own decimal context: 28 significant digits; an invalid operation, a
    division by zero or a number beyond 10^9999 stops the evaluation."""
    return Context(
        prec=28,
        rounding=ROUND_HALF_EVEN,
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
Compiled = Callable[["State"], Value]


class Env:
    """What a tree is evaluated in: the variables' values, and how a child's value is had (here
    computed; `Evaluation` below remembers what does not change from one place to the next)."""

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

    def closure(self, parts: list[Compiled]) -> Compiled:
        """The same value as a function of a `State`, its children's given as `parts`."""
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

    def closure(self, parts: list[Compiled]) -> Compiled:
        constant = self.number
        return lambda _state: constant


@dataclass(frozen=True)
class Variable(Node):
    name: str

    def value(self, env: Env) -> Value:
        return env.variables[self.name]

    def closure(self, parts: list[Compiled]) -> Compiled:
        name = self.name
        if name == "n":
            return lambda state: state.n
        if name == "p":
            return lambda state: state.p
        return lambda state: state.k


@dataclass(frozen=True)
class Negate(Node):
    operand: Node

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)

    def value(self, env: Env) -> Value:
        return CONTEXT.minus(number(self.operand, env))

    def closure(self, parts: list[Compiled]) -> Compiled:
        (operand,) = parts
        return lambda state: CONTEXT.minus(operand(state))


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


@dataclass(frozen=True)
class Arithmetic(Node):
    operator: str
    left: Node
    right: Node

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def value(self, env: Env) -> Value:
        return ARITHMETIC[self.operator](number(self.left, env), number(self.right, env))

    def closure(self, parts: list[Compiled]) -> Compiled:
        left, right = parts
        operate = ARITHMETIC[self.operator]
        return lambda state: operate(left(state), right(state))  # type: ignore[arg-type]


COMPARE: dict[str, Callable[[Decimal, Decimal], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
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

    def closure(self, parts: list[Compiled]) -> Compiled:
        left, right = parts
        operate = COMPARE[self.operator]
        return lambda state: operate(left(state), right(state))  # type: ignore[arg-type]


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

    def closure(self, parts: list[Compiled]) -> Compiled:
        left, right = parts
        if self.operator == "and":
            return lambda state: bool(left(state)) and bool(right(state))
        return lambda state: bool(left(state)) or bool(right(state))


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

    def closure(self, parts: list[Compiled]) -> Compiled:
        (operand,) = parts
        return lambda state: not operand(state)


@dataclass(frozen=True)
class If(Node):
    condition: Node
    then: Node
    otherwise: Node

    def children(self) -> tuple[Node, ...]:
        return (self.condition, self.then, self.otherwise)

    def value(self, env: Env) -> Value:
        return number(self.then if truth(self.condition, env) else self.otherwise, env)

    def closure(self, parts: list[Compiled]) -> Compiled:
        condition, then, otherwise = parts
        return lambda state: then(state) if condition(state) else otherwise(state)


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
    def integral(x: Decimal) -> Decimal:
        return x.to_integral_value(rounding=rounding, context=CONTEXT)

    return integral


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

    def closure(self, parts: list[Compiled]) -> Compiled:
        if self.function in ("min", "max"):
            pick = min if self.function == "min" else max
            return lambda state: pick(part(state) for part in parts)
        (argument,) = parts
        function = ONE_ARGUMENT[self.function]
        return lambda state: function(argument(state))  # type: ignore[arg-type]


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
    if value <= 0:
        return 0
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP, context=CONTEXT))


# Evaluating every place of a field, fast ---------------------------------------------------


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


Remembered = dict[tuple[int, int], "Value | ArithmeticError | ValueError"]


@dataclass(frozen=True)
class Plan:
    """A tree with its parts that depend on neither p (computed once per field) nor anything but
    p (once per place, for every field), and what those have given so far."""

    tree: Node
    by_field: frozenset[int]
    by_place: frozenset[int]
    places: Remembered


@lru_cache(maxsize=64)
def plan(text: str) -> Plan:
    """The plan of a formula's text (cached by the text, with what it remembers)."""
    tree = parse(text)
    depends = dependencies(tree)
    parts = [node for node in tree.walk() if not isinstance(node, Number | Variable)]
    return Plan(
        tree,
        frozenset(id(node) for node in parts if "p" not in depends[id(node)]),
        frozenset(id(node) for node in parts if depends[id(node)] == {"p"}),
        {},
    )


class State:
    """The field being evaluated: the variables, the place, what this field has remembered."""

    __slots__ = ("field", "k", "n", "p", "place")

    def __init__(self, n: int, k: int) -> None:
        self.n, self.k, self.p = Decimal(n), Decimal(k), Decimal(0)
        self.place = 0
        self.field: Remembered = {}


def compile_tree(tree: Node, plan: Plan) -> Compiled:
    """The tree as nested closures computing the same values as `Node.value` (no `eval`): a part
    in `plan.by_field` is remembered per field, one in `plan.by_place` per place."""

    def remembered(key: int, compute: Compiled, per_place: bool) -> Compiled:
        def value(state: State) -> Value:
            if per_place and state.place > MOST_PLACES_REMEMBERED:
                return compute(state)  # a rare field's far places: not worth the memory
            memo, at = (plan.places, (key, state.place)) if per_place else (state.field, (key, 0))
            found = memo.get(at)
            if found is None:
                try:
                    found = compute(state)
                except (ArithmeticError, ValueError) as exc:
                    found = exc
                memo[at] = found
            if isinstance(found, ArithmeticError | ValueError):
                raise found
            return found

        return value

    def build(node: Node) -> Compiled:
        compute = node.closure([build(child) for child in node.children()])
        if id(node) in plan.by_field:
            return remembered(id(node), compute, per_place=False)
        if id(node) in plan.by_place:
            return remembered(id(node), compute, per_place=True)
        return compute

    return build(tree)


@lru_cache(maxsize=64)
def compiled(text: str) -> tuple[Plan, Compiled]:
    """A formula's plan and closures (cached by the text)."""
    found = plan(text)
    return found, compile_tree(found.tree, found)


def field_points(text: str, n: int, k: int) -> Iterator[int]:
    """R7: the points of places 1..k of a field of n by the formula `text` (its value rounded
    half up, 0 below 0), one place at a time; EvaluationError at the first place with no value
    or a value above 100,000. The same values as `points_of`, computed faster."""
    found, function = compiled(text)
    state = State(n, k)
    for place in range(1, k + 1):
        state.p, state.place = Decimal(place), place
        try:
            value = function(state)
        except EvaluationError:
            raise
        except DivisionByZero:
            raise EvaluationError("division by zero") from None
        except Overflow:
            raise EvaluationError("a number too large to compute") from None
        except DecimalException:
            raise EvaluationError("an operation with no value") from None
        assert isinstance(value, Decimal)
        if value > MOST_POINTS:
            raise EvaluationError("a value above 100,000")
        yield 0 if value <= 0 else int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP, context=CONTEXT))
