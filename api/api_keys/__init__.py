"""API keys (office): list without secrets, create (the key is answered once), revoke."""

from api.api_keys.routes import blp

__all__ = ["blp"]
