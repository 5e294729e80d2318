"""Regions: the areas whose venues meet at a regional playoff (R3)."""

from api.regions.routes import blp

__all__ = ["blp"]
