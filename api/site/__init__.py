"""The league's own site (R24): server-rendered pages for players, at the root, made from the
API's own answers."""

from api.site import discovery, players, routes
from api.site.pages import blp

__all__ = ["blp", "discovery", "players", "routes"]
