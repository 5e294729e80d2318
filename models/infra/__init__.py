"""Infrastructure under the domain: engines and sessions, migrations, the clock."""
