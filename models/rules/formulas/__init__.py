"""R7 `formula` charts: the points of place p among n entrants as an expression the league writes.

One decision a module: `parser` reads the text into a tree of the allowed pieces only (nothing is
ever handed to `eval`; every error names its character); `exact` is the arithmetic it computes
with, exact decimals in a context of its own; `tree` holds the pieces and their reference
evaluation, one place at a time; `work` evaluates every place of a field at once, a column at a
time, its work counted so a save-time check stops at its bound. What callers use is named here.
"""

from models.rules.formulas.exact import CONTEXT, MOST_POINTS, EvaluationError, context, whole_points
from models.rules.formulas.parser import MAX_DEPTH, MAX_LENGTH, MAX_NODES, FormulaError, misread_number, parse
from models.rules.formulas.tree import Env, Node, evaluate, points_of
from models.rules.formulas.work import WORK, Run, TooMuchWork, Work, field_points

__all__ = [
    "CONTEXT",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "MAX_NODES",
    "MOST_POINTS",
    "WORK",
    "Env",
    "EvaluationError",
    "FormulaError",
    "Node",
    "Run",
    "TooMuchWork",
    "Work",
    "context",
    "evaluate",
    "field_points",
    "misread_number",
    "parse",
    "points_of",
    "whole_points",
]
