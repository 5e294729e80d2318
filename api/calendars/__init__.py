"""Calendar feeds (RFC 5545) of the venues' and regions' scheduled games."""

from api.calendars.routes import blp

__all__ = ["blp"]
