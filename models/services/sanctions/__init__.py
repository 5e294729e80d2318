"""Sanctions: the services of the API's sanctions resource."""
