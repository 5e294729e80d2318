"""Email (R23): the services of the API's emails resource: consent, the weekly digest, sending."""
