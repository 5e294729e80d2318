"""Qualifiers: the services of the API's qualifiers resource."""
