"""What the tests share besides fixtures: imported by test files and conftest.py alike, never from a
test file or a conftest (tests/test_layers.py checks). databases: scratch databases of each backend
and the standing-lines check every test ends with; league: the HTTP callers and the `League`
builder; servers: real gunicorn servers and Redis; migrations: plain-SQL rows for the migration
tests; browser: Chromium's flags; stop_points: a gunicorn config that freezes a worker at a chosen
point of a write. tests/builders.py (the `Scene` builder, dates, points) sits beside them."""
