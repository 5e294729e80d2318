"""Qualification (R3, R12-R14): qualifier lists, publishing them, disqualifications."""

from api.qualifiers.routes import blp

__all__ = ["blp"]
