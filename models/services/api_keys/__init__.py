"""Api keys: the services of the API's api_keys resource."""
