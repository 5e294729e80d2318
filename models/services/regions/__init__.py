"""Regions: the services of the API's regions resource."""
