"""R7 formulas: the parser. A small parser of our own reads the text into a tree of the allowed
pieces only (numbers, the variables `n` `p` `k`, the listed functions, `+ - * / ^`, comparisons,
`and` `or` `not`, `if(c, a, b)` and parentheses); nothing is ever handed to `eval`, and every error
names its character (1 is the first). Comparisons are truth values: only `if`, `and`, `or` and `not`
take them, and arithmetic on a truth value (or a truth value as the result) is refused when parsed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal, DecimalException
from functools import lru_cache

from models.rules.formulas.exact import CONTEXT
from models.rules.formulas.tree import (
    Arithmetic,
    Call,
    Comparison,
    If,
    Logic,
    Negate,
    Node,
    Not,
    Number,
    Variable,
)

MAX_LENGTH = 500
MAX_NODES = 200
MAX_DEPTH = 40  # nested parentheses, calls and unary signs: the parser's recursion stays small
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


class FormulaError(ValueError):
    """R7: the text is not a formula of the allowed pieces; `position` is its character (from 1)."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} at character {position}")
        self.position = position


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
