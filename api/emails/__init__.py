"""Email (R23): a player's consent to the weekly email (the API), and the one-click unsubscribe
every message links to (pages, outside the API's spec)."""

from api.emails.pages import pages
from api.emails.routes import blp

__all__ = ["blp", "pages"]
