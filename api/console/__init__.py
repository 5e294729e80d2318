"""The web console for hosts and the office (GET and POST /console/...)."""

from api.console.routes import bp

__all__ = ["bp"]
