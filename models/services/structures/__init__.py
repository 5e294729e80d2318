"""Blind structures: the services of the API's structures resource (R22)."""
