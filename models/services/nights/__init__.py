"""League nights as they happen: the services of the API's nights resource (R22)."""
