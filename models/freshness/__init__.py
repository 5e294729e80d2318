"""Freshness: the scopes, their versions and bumps, without Flask."""
