"""League nights as they happen (R22): opened at a venue, run by its actions, read by anyone."""

from api.nights.routes import blp

__all__ = ["blp"]
