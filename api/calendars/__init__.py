"""Calendar feeds (RFC 5545) of the venues' and regions' scheduled nights."""

from api.calendars.routes import blp

__all__ = ["blp"]
