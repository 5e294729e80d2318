"""Property-based requests generated from our own OpenAPI spec (schemathesis): whatever a caller
sends, the answer is never a 500, and every error is problem+json ("Conventions")."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings


def test_no_server_errors_and_every_error_is_problem_json(app: Any, office: Any, league: Any) -> None:
    region = league.region()
    league.venue(region_id=region["id"])
    league.season()
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    checked = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() == "DELETE":
            continue  # revoking the key under test would only test 401s from then on

        @given(case=operation.as_strategy())
        @settings(
            max_examples=5,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def call(case: Any) -> None:
            response = case.call(headers={"Authorization": f"Bearer {office.key}"})
            assert response.status_code < 500, (case.as_curl_command(), response.text[:500])
            if response.status_code >= 400:
                content_type = response.headers.get("content-type", [""])[0]
                assert content_type.startswith("application/problem+json"), case.as_curl_command()

        call()
        checked += 1
    assert checked >= 25
