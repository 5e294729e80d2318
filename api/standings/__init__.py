"""Standings of a venue's season (R1, R9-R11): JSON for the website, CSV for the office."""

from api.standings.routes import blp

__all__ = ["blp"]
