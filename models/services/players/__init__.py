"""Players: the services of the API's players resource."""
