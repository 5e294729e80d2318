"""Every answer a view gives in the tests is one its spec lists: while a test runs, each answer of
an operation of the spec (any app the test made) is held to the statuses that operation's spec
names, and a success to the media types its spec lists for that status (a JSON operation's CSV
answer, to `?format=csv` or `Accept: text/csv`, to those its CSV twin lists: the operation its
`x-csv-operation` names, api/contract.csv_too), and the test fails naming any other.
So the whole suite checks the views' declarations (api/contract.py) and the plugin's
(api/spec.py); `default` (an unforeseen 500) is not a listed status. Loaded by tests/conftest.py."""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from flask import Flask, Response, request, request_finished

from api.contract import CSV_TWIN

# A Flask rule's variables as the spec writes them: /seasons/<id:season_id> -> /seasons/{season_id}
VARIABLE = re.compile(r"<(?:[^<>:]+:)?([^<>]+)>")
# (spec path, method) -> {status: the media types its spec lists for it (none: no body, or a
# shared response component, which is problem+json)}
Statuses = dict[tuple[str, str], dict[str, frozenset[str]]]

_statuses: WeakKeyDictionary[Flask, Statuses] = WeakKeyDictionary()
undocumented: list[str] = []


def documented_statuses(app: Flask) -> Statuses:
    """(spec path, method) -> the statuses its operation lists, each with its media types, from
    the app's own spec."""
    if app not in _statuses:
        apis = app.extensions.get("flask-smorest", {}).get("apis", {})
        spec: dict[str, Any] = apis[""]["ext_obj"].spec.to_dict() if "" in apis else {"paths": {}}
        operations = [
            (path, method, operation)
            for path, item in spec["paths"].items()
            for method, operation in item.items()
            if isinstance(operation, dict) and "responses" in operation
        ]
        listed = {
            (path, method): {
                str(status): frozenset(answer.get("content", {}) if isinstance(answer, dict) else ())
                for status, answer in operation.get("responses", {}).items()
            }
            for path, method, operation in operations
        }
        by_id = {operation.get("operationId"): listed[path, method] for path, method, operation in operations}
        for path, method, operation in operations:
            if CSV_TWIN in operation:  # its CSV answers are its twin's
                listed[path, method]["200"] |= by_id[operation[CSV_TWIN]]["200"]
        _statuses[app] = listed
    return _statuses[app]


def check_answer(sender: Flask, response: Response, **_: Any) -> None:
    rule = request.url_rule
    if rule is None or request.method == "OPTIONS":
        return  # no route matched (a 404 or 405 of routing), or Flask's automatic OPTIONS
    method = "get" if request.method == "HEAD" else request.method.lower()
    listed = documented_statuses(sender).get((VARIABLE.sub(r"{\1}", rule.rule), method))
    if listed is None or response.status_code == 500:
        return  # not an operation of the spec (the console, the docs), or an unforeseen error
    status = str(response.status_code)
    if status not in listed:
        undocumented.append(
            f"{request.method} {request.path} answered {response.status_code}; "
            f"its spec lists {', '.join(sorted(listed))}"
        )
    elif status.startswith("2") and listed[status] and response.mimetype not in listed[status]:
        undocumented.append(
            f"{request.method} {request.path} answered {status} as {response.mimetype}; "
            f"its spec lists {', '.join(sorted(listed[status]))}"
        )


request_finished.connect(check_answer, weak=False)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    undocumented.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    result = yield
    if undocumented:
        found = sorted(set(undocumented))
        undocumented.clear()
        pytest.fail(
            "A view answered a status or media type its spec does not list (declare it on the "
            "view, e.g. @conflicts or @csv_too, or in api/spec.py, then ./scripts/openapi):\n  "
            + "\n  ".join(found),
            pytrace=False,
        )
    return result
