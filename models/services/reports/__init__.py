"""Tournaments: the services of the API's tournaments resource."""
