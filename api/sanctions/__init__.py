"""Discipline (R15, R16): sanctions, their lifting, a player's history and a venue's door list."""

from api.sanctions.routes import blp

__all__ = ["blp"]
