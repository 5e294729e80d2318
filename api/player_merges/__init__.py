"""Player merges (R17): the office's list of merges, and undoing one."""

from api.player_merges.routes import blp

__all__ = ["blp"]
