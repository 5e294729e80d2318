"""R7 formula charts as pure rules: the parser (only the allowed pieces, errors at their
character), exact decimal evaluation against a second evaluator written here, random text that
is refused or evaluated and never crashes, no binary float anywhere, and the presets by hand."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from decimal import (
    ROUND_CEILING,
    ROUND_FLOOR,
    ROUND_HALF_UP,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    localcontext,
)
from decimal import Overflow as DecimalOverflow

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.rules.charts import (
    MOST_WORK_CHECKED,
    PRESETS,
    FormulaFailure,
    formula_points,
    formula_problems,
    scoring_places,
)
from models.rules.formulas import (
    WORK,
    Env,
    EvaluationError,
    FormulaError,
    Node,
    Run,
    TooMuchWork,
    Work,
    evaluate,
    field_points,
    misread_number,
    parse,
    points_of,
)
from tests.support.formulas import HOSTILE, ORDINARY_350, ORDINARY_500, README

pytestmark = pytest.mark.rules

# The second evaluator --------------------------------------------------------------------------
# A formula is generated with its meaning: a function of (n, p, k) computed here with Python's own
# Decimal operators in a context of 28 digits (the same limits: 10^9999), independent of the
# parser and both evaluators of models/rules/formulas/.

Meaning = Callable[[Decimal, Decimal, Decimal], Decimal]
Truth = Callable[[Decimal, Decimal, Decimal], bool]
REFERENCE = Context(prec=28, Emax=9999, Emin=-9999, traps=[InvalidOperation, DivisionByZero, DecimalOverflow])


def _divide(a: Decimal, b: Decimal) -> Decimal:
    if b == 0:
        raise ZeroDivisionError
    return a / b


def _integral(rounding: str) -> Callable[[Decimal], Decimal]:
    return lambda x: x.to_integral_value(rounding=rounding)


LEAVES = st.one_of(
    st.sampled_from(["n", "p", "k"]).map(
        lambda name: (name, lambda n, p, k, name=name: {"n": n, "p": p, "k": k}[name])
    ),
    st.decimals(min_value=0, max_value=1000, places=2, allow_nan=False, allow_infinity=False).map(
        lambda d: (f"{d:f}", lambda n, p, k, d=d: +d)
    ),
)

BINARY: dict[str, Callable[[Decimal, Decimal], Decimal]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _divide,
}
ONE: dict[str, Callable[[Decimal], Decimal]] = {
    "abs": abs,
    "floor": _integral(ROUND_FLOOR),
    "ceil": _integral(ROUND_CEILING),
    "round": _integral(ROUND_HALF_UP),
}
COMPARE: dict[str, Callable[[Decimal, Decimal], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def binary(op: str, a: tuple[str, Meaning], b: tuple[str, Meaning]) -> tuple[str, Meaning]:
    f, g, apply = a[1], b[1], BINARY[op]
    return f"({a[0]} {op} {b[0]})", lambda n, p, k: apply(f(n, p, k), g(n, p, k))


def one(name: str, a: tuple[str, Meaning]) -> tuple[str, Meaning]:
    f, apply = a[1], ONE[name]
    return f"{name}({a[0]})", lambda n, p, k: apply(f(n, p, k))


def root(name: str, a: tuple[str, Meaning]) -> tuple[str, Meaning]:
    # sqrt, ln and log10 of abs(x) + 1: always defined.
    f = a[1]
    text = f"{name}(abs({a[0]}) + 1)"
    if name == "sqrt":
        return text, lambda n, p, k: (abs(f(n, p, k)) + 1).sqrt()
    if name == "ln":
        return text, lambda n, p, k: (abs(f(n, p, k)) + 1).ln()
    return text, lambda n, p, k: (abs(f(n, p, k)) + 1).log10()


def power(a: tuple[str, Meaning], exponent: int) -> tuple[str, Meaning]:
    f = a[1]
    return f"({a[0]}) ^ {exponent}", lambda n, p, k: f(n, p, k) ** exponent


def fractional_power(a: tuple[str, Meaning]) -> tuple[str, Meaning]:
    f = a[1]
    return f"(abs({a[0]}) + 1) ^ 0.5", lambda n, p, k: (abs(f(n, p, k)) + 1) ** Decimal("0.5")


def negate(a: tuple[str, Meaning]) -> tuple[str, Meaning]:
    f = a[1]
    return f"-({a[0]})", lambda n, p, k: -f(n, p, k)


def extreme(name: str, a: tuple[str, Meaning], b: tuple[str, Meaning]) -> tuple[str, Meaning]:
    f, g, pick = a[1], b[1], (min if name == "min" else max)
    return f"{name}({a[0]}, {b[0]})", lambda n, p, k: pick(f(n, p, k), g(n, p, k))


def condition(op: str, a: tuple[str, Meaning], b: tuple[str, Meaning]) -> tuple[str, Truth]:
    f, g, apply = a[1], b[1], COMPARE[op]
    return f"{a[0]} {op} {b[0]}", lambda n, p, k: apply(f(n, p, k), g(n, p, k))


def joined(word: str, c: tuple[str, Truth], d: tuple[str, Truth], negated: bool) -> tuple[str, Truth]:
    f, g = c[1], d[1]
    if word == "and":
        both: Truth = lambda n, p, k: f(n, p, k) and g(n, p, k)  # noqa: E731
    else:
        both = lambda n, p, k: f(n, p, k) or g(n, p, k)  # noqa: E731
    if negated:
        return f"not ({c[0]} {word} {d[0]})", lambda n, p, k: not both(n, p, k)
    return f"({c[0]} {word} {d[0]})", both


def choose(c: tuple[str, Truth], a: tuple[str, Meaning], b: tuple[str, Meaning]) -> tuple[str, Meaning]:
    test, f, g = c[1], a[1], b[1]
    return f"if({c[0]}, {a[0]}, {b[0]})", lambda n, p, k: f(n, p, k) if test(n, p, k) else g(n, p, k)


def extend(children: st.SearchStrategy[tuple[str, Meaning]]) -> st.SearchStrategy[tuple[str, Meaning]]:
    comparisons = st.builds(condition, st.sampled_from(list(COMPARE)), children, children)
    conditions = st.one_of(
        comparisons,
        st.builds(joined, st.sampled_from(["and", "or"]), comparisons, comparisons, st.booleans()),
    )
    return st.one_of(
        st.builds(binary, st.sampled_from(list(BINARY)), children, children),
        st.builds(one, st.sampled_from(list(ONE)), children),
        st.builds(root, st.sampled_from(["sqrt", "ln", "log10"]), children),
        st.builds(power, children, st.integers(min_value=0, max_value=3)),
        st.builds(fractional_power, children),
        st.builds(negate, children),
        st.builds(extreme, st.sampled_from(["min", "max"]), children, children),
        st.builds(choose, conditions, children, children),
    )


FORMULAS = st.recursive(LEAVES, extend, max_leaves=10)
FIELDS = st.integers(min_value=2, max_value=40).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=1, max_value=n))
)


def expected(meaning: Meaning, n: int, p: int, k: int) -> int | None:
    """R7 by the second evaluator: the points (None where the formula has no value, or one above
    100,000)."""
    with localcontext(REFERENCE):
        try:
            value = meaning(Decimal(n), Decimal(p), Decimal(k))
        except (ArithmeticError, ZeroDivisionError):
            return None
        if value > 100_000:
            return None
        return 0 if value < 0 else int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def ours(tree: Node, n: int, p: int, k: int) -> int | None:
    try:
        return points_of(tree, n, p, k)
    except EvaluationError:
        return None


@settings(max_examples=400, deadline=None)
@given(FORMULAS, FIELDS)
def test_r7_random_formulas_agree_with_a_second_evaluator(
    formula: tuple[str, Meaning], field: tuple[int, int]
) -> None:
    """R7: both evaluators of the module (the tree's, a place at a time, and the columns a chart
    computes, every place of a field at once) give the points the second evaluator gives, or
    both find no value; the columns fail at the first place the tree fails at, saying the same."""
    text, meaning = formula
    n, p = field
    k = scoring_places(Decimal("0.3"), n)
    tree = parse(text)
    assert ours(tree, n, p, k) == expected(meaning, n, p, k), text
    want = [expected(meaning, n, place, k) for place in range(1, k + 1)]
    place_by_place: list[int | str] = []
    for place in range(1, k + 1):
        try:
            place_by_place.append(points_of(tree, n, place, k))
        except EvaluationError as exc:
            place_by_place.append(str(exc))
            break
    points, failure = field_points(text, n, k)
    assert [*points, *([str(failure)] if failure else [])] == place_by_place, text
    got = [*points, *([None] if failure else [])]
    assert got == want[: len(got)] and (got[-1:] == [None]) == (None in want), (text, got, want)


@settings(max_examples=200, deadline=None)
@given(FORMULAS, FIELDS)
def test_r7_no_binary_float_anywhere_in_an_evaluation(
    formula: tuple[str, Meaning], field: tuple[int, int]
) -> None:
    """R7: every piece of the tree evaluates to an exact Decimal (or a truth value), never a float."""
    n, p = field
    env = Env(Decimal(n), Decimal(p), Decimal(scoring_places(Decimal("0.3"), n)))
    for node in parse(formula[0]).walk():
        try:
            value = node.value(env)
        except (EvaluationError, ArithmeticError):
            continue
        assert type(value) in (Decimal, bool), (formula[0], node, value)


PIECES = [
    *"npk0123456789.+-*/^(),<>=! \t\n",
    "sqrt",
    "ln",
    "log10",
    "min",
    "max",
    "floor",
    "ceil",
    "round",
    "abs",
    "if",
    "and",
    "or",
    "not",
    "<=",
    "==",
    "**",
    "9^9^9",
    "__import__",
    "os",
    "lambda",
    ":",
    "'",
    '"',
    "[",
    "]",
    "{",
    "}",
    ".real",
    "é",
    "²",
    "٣",
    "\x00",
    "\u200b",
    "1e9",
    "9" * 60,
]
RANDOM_TEXT = st.one_of(st.lists(st.sampled_from(PIECES), max_size=60).map("".join), st.text(max_size=80))


@settings(max_examples=600, deadline=None)
@given(RANDOM_TEXT, FIELDS)
def test_r7_random_text_is_refused_or_evaluated_never_a_crash(text: str, field: tuple[int, int]) -> None:
    """R7: any text is refused with its character (FormulaError), or evaluates to a Decimal or has
    no value (EvaluationError), and a chart of it is refused or accepted: nothing else escapes."""
    n, p = field
    try:
        tree = parse(text)
    except FormulaError as exc:
        assert 1 <= exc.position <= len(text) + 1
        assert f"at character {exc.position}" in str(exc)
    else:
        with contextlib.suppress(EvaluationError):
            assert isinstance(evaluate(tree, n, p, n), Decimal)
    problems = formula_problems(text, Decimal("0.3"), 2, 30)
    assert all(problem.path == "formula" and problem.rule == "R7" for problem in problems)


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("__import__('os')", 1),
        ("().__class__", 2),
        ("n.real", 2),
        ("p[0]", 2),
        ("lambda n: n", 1),
        ("'points'", 1),
        ('"100"', 1),
        ("{1: 2}", 1),
        ("exec(n)", 1),
        ("eval('1')", 1),
        ("open", 1),
        ("x", 1),
        ("sqrt(n) + x", 11),
        ("n +\n  x", 7),
        ("n ** 2", 4),
        ("1e9", 2),
        ("n if p else k", 3),
        ("if", 3),
        ("if(p < 3, 1, 2", 15),
        ("min(n)", 1),
        ("sqrt(n, p)", 1),
        ("abs", 4),
        ("not n", 1),
        ("(p < 2) + 1", 9),
        ("p < 2 < 3", 7),
        ("n = p", 3),
        ("n ²", 3),
        ("٣", 1),
        ("n\x00", 2),
        ("-" * 499 + "1", 41),
        ("(" * 60 + "1" + ")" * 60, 41),
        ("not " * 60 + "p < 1", 161),
        ("+".join(["1"] * 101), 200),
        ("1" * 501, 501),
        ("", 1),
        (")", 1),
        ("1 2", 3),
        ("if(1, 2, 3)", 4),
        ("if(p < 1, p < 2, 3)", 13),
    ],
)
def test_r7_what_is_not_a_formula_is_refused_at_its_character(text: str, position: int) -> None:
    with pytest.raises(FormulaError) as refused:
        parse(text)
    assert refused.value.position == position, str(refused.value)
    assert str(refused.value).endswith(f"at character {position}")


def test_r7_the_unknown_name_message_names_it() -> None:
    with pytest.raises(FormulaError, match=r"^unknown name `x` at character 11$"):
        parse("sqrt(n) + x")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2 + 3 * 4 ^ 2", "50"),
        ("-2 ^ 2", "-4"),
        ("2 ^ 3 ^ 2", "512"),
        ("2 ^ -1", "0.5"),
        ("10 - 4 - 3", "3"),
        ("12 / 3 / 2", "2"),
        ("1 / 3 * 3", "0.9999999999999999999999999999"),
        ("sqrt(2)", "1.414213562373095048801688724"),
        ("ln(10)", "2.302585092994045684017991455"),
        ("log10(1000)", "3"),
        ("round(2.5) + round(0.49)", "3"),
        ("floor(-1.5) + ceil(1.2)", "0"),
        ("abs(0 - 7)", "7"),
        ("min(3, 1, 2) + max(3, 1, 2)", "4"),
        ("if(n > 5 and not p > 1, 10, 20)", "10"),
        ("if(n < 5 or p == 1, 10, 20)", "10"),
        ("if(p != 1, 10, 20)", "20"),
        (".5 + 1.", "1.5"),
        ("10 ^ 9999 / 10 ^ 9999", "1"),
    ],
)
def test_r7_operators_functions_and_their_order(text: str, value: str) -> None:
    """R7: ^ binds tightest and to the right, a sign below it (-2^2 is -4), * / before + -, left
    to right; roots and logarithms to 28 significant digits; round is half up."""
    assert evaluate(parse(text), 10, 1, 3) == Decimal(value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1 / (p - 1)", "division by zero"),
        ("0 ^ (0 - 1)", "0 raised to a power of 0 or less"),
        ("0 ^ 0", "0 raised to a power of 0 or less"),
        ("(0 - 8) ^ (1 / 3)", "a negative number raised to a fractional power"),
        ("sqrt(0 - p)", "a square root of a number below 0"),
        ("ln(p - 1)", "a logarithm of 0 or less"),
        ("log10(0 - p)", "a logarithm of 0 or less"),
        ("9 ^ 9 ^ 9", "a number too large to compute"),
        ("10 ^ 10000", "a number too large to compute"),
    ],
)
def test_r7_what_has_no_value_is_an_evaluation_error(text: str, reason: str) -> None:
    with pytest.raises(EvaluationError, match=reason):
        evaluate(parse(text), 10, 1, 3)


def test_r7_short_circuits_evaluate_only_what_they_need() -> None:
    """R7: `if`, `and` and `or` evaluate only the side they need: a guard keeps a division safe."""
    assert evaluate(parse("if(p == 1, 100, 100 / (p - 1))"), 10, 1, 3) == 100
    assert evaluate(parse("if(p > 1 and 1 / (p - 1) > 0, 1, 2)"), 10, 1, 3) == 2


def test_r7_the_global_decimal_context_is_neither_used_nor_changed() -> None:
    with localcontext() as ambient:
        ambient.prec = 3
        assert evaluate(parse("sqrt(2) * 10 ^ 20"), 2, 1, 1) == Decimal("141421356237309504880.1688724")
        assert ambient.prec == 3


def test_r7_points_round_half_up_and_values_below_0_earn_0() -> None:
    assert [points_of(parse(text), 10, 1, 3) for text in ("2.5", "3.49", "-5", "0.5", "100000")] == [
        3,
        3,
        0,
        1,
        100_000,
    ]
    with pytest.raises(EvaluationError, match="above 100,000"):
        points_of(parse("100000.01"), 10, 1, 3)


# Charts of formulas ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "ten", "twenty_four"),
    [
        ("linear", list(range(10, 0, -1)), list(range(24, 0, -1))),
        ("square_root", [316, 224, 183], [490, 346, 283, 245, 219, 200, 185]),
        ("logarithmic", [240, 170, 130], [322, 253, 212, 183, 161, 143, 127]),
    ],
)
def test_r7_the_presets_by_hand(preset: str, ten: list[int], twenty_four: list[int]) -> None:
    """R7, worked by hand (docs/rules.md): e.g. square_root for 24 entrants, k = 7:
    sqrt(24)/sqrt(1)*100 = 489.9 -> 490, /sqrt(2) = 346.4 -> 346, …, /sqrt(7) = 185.2 -> 185."""
    formula, fraction = PRESETS[preset]
    assert list(formula_points(formula, fraction, 10)) == ten
    assert list(formula_points(formula, fraction, 24)) == twenty_four


@pytest.mark.parametrize("preset", list(PRESETS))
def test_r7_the_presets_hold_for_every_field_to_500(preset: str) -> None:
    formula, fraction = PRESETS[preset]
    assert formula_problems(formula, fraction, 2, 500) == []


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(list(PRESETS)), st.integers(min_value=2, max_value=10_000))
def test_r7_the_presets_hold_for_any_field_to_10000(preset: str, n: int) -> None:
    """R7: a preset is not checked when saved: for any field it scores k places, falling, each
    at least 0 and at most 100,000."""
    formula, fraction = PRESETS[preset]
    points = formula_points(formula, fraction, n)
    assert len(points) == scoring_places(fraction, n)
    assert all(a >= b for a, b in zip(points, points[1:], strict=False))
    assert points[-1] >= 0 and points[0] <= 100_000


def test_r7_a_formula_is_refused_at_the_first_n_then_p_where_it_fails() -> None:
    (problem,) = formula_problems("100 / (p - 3)", Decimal("0.3"), 2, 500)
    assert (problem.path, problem.rule) == ("formula", "R7")
    assert problem.message == "The formula fails for n = 9, p = 3: division by zero."
    (rising,) = formula_problems("if(p == 2, 30, 20)", Decimal("0.3"), 2, 500)
    assert (
        rising.message == "The formula fails for n = 5, p = 2: place 2 would earn 30, more than place 1's 20."
    )
    with pytest.raises(FormulaFailure) as failed:
        formula_points("100 / (p - 3)", Decimal("0.3"), 9)
    assert (failed.value.entrants, failed.value.place) == (9, 3)


def test_r7_places_beyond_k_earn_0_and_are_never_computed() -> None:
    """R7: with fraction 0.3, 10 entrants score 3 places: a formula undefined at p = 4 is fine."""
    assert formula_problems("if(p < 4, 10, 1 / 0)", Decimal("0.3"), 2, 11) == []
    assert formula_points("if(p < 4, 10, 1 / 0)", Decimal("0.3"), 10) == (10, 10, 10)


def test_r7_checking_is_bounded() -> None:
    """R7: a check that would compute more places than MOST_PLACES_CHECKED is refused whole."""
    (problem,) = formula_problems("n - p + 1", Decimal(1), 2, 10_000)
    assert problem.path == "formula" and "more than the 400,000" in problem.message


# Bounded work (issue 44) -------------------------------------------------------------------------
# The probe's chart: 30 terms, each a fractional power of n / p (so of both: nothing is computed once
# per field or once per place). It took 162 s to save at fraction 0.3 and 424 s at fraction 1.


@pytest.mark.parametrize("fraction", ["0.3", "1"])
def test_r7_the_probes_formula_of_30_terms_is_refused_once_its_check_has_done_a_seconds_work(
    fraction: str,
) -> None:
    """R7 (issue 44): checking the 30 terms for every field of 2 to 500 entrants would take minutes;
    the check stops when it has done MOST_WORK_CHECKED (about a second) and refuses the formula,
    saying what costs most and what to do."""
    (problem,) = formula_problems(HOSTILE, Decimal(fraction), 2, 500)
    assert (problem.path, problem.rule) == ("formula", "R7")
    assert problem.message.startswith(
        "Checking the formula for every field of 2 to 500 entrants takes more work than a chart is "
        "checked with (about a second); it stopped at n = "
    )
    assert "ln(n) - ln(p) is cheaper than ln(n / p)" in problem.message


def test_r7_a_check_stops_within_its_work_and_the_work_is_the_same_every_time() -> None:
    """R7: the work is counted, not timed: the same check stops at the same field, having done no
    more than MOST_WORK_CHECKED and one operation's units more."""
    stops = []
    for _ in range(2):
        work = Work(MOST_WORK_CHECKED)
        run = Run(HOSTILE, work)
        with pytest.raises(TooMuchWork):
            for entrants in range(2, 501):
                formula_points_in(run, entrants)
                stops.append(entrants)
        assert MOST_WORK_CHECKED < work.spent <= MOST_WORK_CHECKED + max(WORK.values())
        stops.append(-1)
    first, second = stops.index(-1), len(stops) - 1
    assert stops[:first] == stops[first + 1 : second]


def formula_points_in(run: Run, entrants: int) -> None:
    k = scoring_places(Decimal("0.3"), entrants)
    points, failure = field_points(HOSTILE, entrants, k, run)
    assert failure is None and len(points) == k


@pytest.mark.parametrize(
    ("formula", "fraction", "most"),
    [
        (README, "0.3", 500),
        (README, "1", 500),
        (ORDINARY_350, "0.3", 500),
        (ORDINARY_500, "0.3", 500),
        (ORDINARY_350, "1", 300),
        (ORDINARY_500, "1", 300),
    ],
    ids=["readme-0.3-500", "readme-1-500", "350-0.3-500", "500-0.3-500", "350-1-300", "500-1-300"],
)
def test_r7_a_normal_leagues_formula_is_checked_within_the_work(
    formula: str, fraction: str, most: int
) -> None:
    """R7: a formula of the usual pieces, up to 500 characters, is accepted for the league's default
    max_entrants (500) at fraction 0.3, and for a 300-entrant championship scoring every place."""
    assert formula_problems(formula, Decimal(fraction), 2, most) == []


@pytest.mark.parametrize(
    ("text", "said", "position"),
    [
        ("5. * (k - p + 1)", "a number ends with its point (write 5 or 5.0)", 1),
        ("n - p + 1.", "a number ends with its point (write 1 or 1.0)", 9),
        ("0.12345678901234567890123456789 * n", "more than 28 significant digits", 1),
        ("n * 1234567890123456789012345678.5", "more than 28 significant digits", 5),
    ],
)
def test_r7_a_number_that_would_not_be_read_as_written_is_named_when_saved(
    text: str, said: str, position: int
) -> None:
    """R7 (issue 44): "5." would be read as 5, a 29th significant digit rounded away: refused when a
    formula is saved, at the number's character (a stored formula is still read as before)."""
    found = misread_number(text)
    assert found is not None and said in str(found) and found.position == position
    parse(text)  # a formula saved earlier keeps its meaning


@pytest.mark.parametrize(
    "text", [".5 * n", "0.5 * n", "n - p + 1", "1.0000000000000000000000000000000 * n", "100000.00 - p"]
)
def test_r7_numbers_read_as_written_are_taken(text: str) -> None:
    """R7: `.5` is 0.5; trailing zeros past the 28th digit change nothing, so they are taken."""
    assert misread_number(text) is None
