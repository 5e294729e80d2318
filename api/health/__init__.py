"""GET /health: 200 when the database answers."""

from api.health.routes import blp

__all__ = ["blp"]
