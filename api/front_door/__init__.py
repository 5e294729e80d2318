"""GET /: the front door, a page for a browser and links for an API client."""

from api.front_door.routes import blp

__all__ = ["blp"]
