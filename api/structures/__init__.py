"""Blind structures: the levels and breaks a night's clock follows (R22)."""

from api.structures.routes import blp

__all__ = ["blp"]
