"""Player merges: the services of the API's player_merges resource."""
