"""Games: the services of the API's games resource."""
