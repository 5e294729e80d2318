"""Ratings: the services of the API's ratings resource."""
