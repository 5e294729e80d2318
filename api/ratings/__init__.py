"""Skill ratings (R20): the league-wide rating table."""

from api.ratings.routes import blp

__all__ = ["blp"]
