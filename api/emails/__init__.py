"""Email (R23): a player's consent to the weekly email and their own request for it (the API), the
one-click unsubscribe every message links to, and the pages where a person asks for the weekly
email and confirms it (pages, outside the API's spec)."""

from api.emails.pages import pages
from api.emails.routes import blp
from api.emails.subscribe_pages import subscribe_pages

__all__ = ["blp", "pages", "subscribe_pages"]
