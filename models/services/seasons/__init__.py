"""Seasons: the services of the API's seasons resource."""
