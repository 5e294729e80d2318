"""Players (R5): created by hosts and the office; personal fields shown only as R19 allows."""

from api.players.routes import blp

__all__ = ["blp"]
