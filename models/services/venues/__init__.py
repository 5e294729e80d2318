"""Venues: the services of the API's venues resource."""
