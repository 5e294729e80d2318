"""Pages for other websites to frame (GET /embed/...)."""

from api.embed.routes import blp

__all__ = ["blp"]
