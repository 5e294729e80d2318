"""Webhooks: the office's subscriptions to the league's events (R23)."""

from api.webhooks.routes import blp

__all__ = ["blp"]
