"""Venues: each is its own league (R1)."""

from api.venues.routes import blp

__all__ = ["blp"]
