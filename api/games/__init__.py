"""The league's games: the venues' scheduled games (R2, R2a)."""

from api.games.routes import blp

__all__ = ["blp"]
