"""League settings: the services of the API's league_settings resource."""
