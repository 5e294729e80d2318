"""League-wide settings: the minimum suspension lengths of R15."""

from api.league_settings.routes import blp

__all__ = ["blp"]
