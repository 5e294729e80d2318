"""Standings: the services of the API's standings resource."""
