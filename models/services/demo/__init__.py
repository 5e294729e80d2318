"""Demo: the services of the API's demo resource."""
