"""Points charts: the services of the API's points_charts resource."""
