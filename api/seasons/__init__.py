"""Seasons ("promotions", R2) and their settings, with the rulebook defaults."""

from api.seasons.routes import blp

__all__ = ["blp"]
