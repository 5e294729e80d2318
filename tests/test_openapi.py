"""openapi.yaml is what the code generates, a valid OpenAPI document, and served with its docs."""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Blueprint, Flask
from flask_smorest import Api
from flask_smorest import Blueprint as SmorestBlueprint
from openapi_spec_validator import validate

import api
from app import create_app

SPEC_FILE = Path(__file__).resolve().parent.parent / "openapi.yaml"
REGENERATE = "./scripts/openapi (flask --app app openapi write --format=yaml openapi.yaml)"


@pytest.fixture(scope="module")
def spec_app() -> Iterator[Flask]:
    # The spec and the docs never touch the database: an in-memory SQLite that is never opened.
    app = create_app({"DATABASE_URL": "sqlite://", "TESTING": True, "RATELIMIT_ENABLED": False})
    yield app
    app.extensions["league_db"].engine.dispose()


@pytest.fixture(scope="module")
def generated(spec_app: Flask) -> dict[str, Any]:
    # flask-smorest keeps each Api by config prefix; `flask openapi write` reads the same one.
    api: Api = spec_app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    with spec_app.app_context():
        spec: dict[str, Any] = api.spec.to_dict()
    # As plain JSON data (what a client reads), so the comparison is of content, not of types.
    plain: dict[str, Any] = json.loads(spec_app.json.dumps(spec))
    return plain


def test_committed_spec_matches_the_code(generated: dict[str, Any]) -> None:
    assert SPEC_FILE.exists(), f"openapi.yaml is missing: run {REGENERATE}"
    committed = yaml.safe_load(SPEC_FILE.read_text(encoding="utf-8"))
    if committed != generated:
        drift = sorted(
            f"{section}: {key}"
            for section in ("paths", "components")
            for key in set(committed.get(section, {})) ^ set(generated.get(section, {}))
        )
        pytest.fail(
            f"openapi.yaml differs from the spec the code generates; regenerate it with {REGENERATE}"
            + (f" (added or removed: {', '.join(drift)})" if drift else ""),
            pytrace=False,
        )


def test_generated_spec_is_valid_openapi(generated: dict[str, Any]) -> None:
    validate(generated)
    assert generated["openapi"].startswith("3.0.")
    assert "bearerAuth" in generated["components"]["securitySchemes"]


def test_errors_are_documented_as_problem_json(generated: dict[str, Any]) -> None:
    default_error = generated["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default_error["content"]) == ["application/problem+json"]


def test_openapi_json_serves_the_same_spec(spec_app: Flask, generated: dict[str, Any]) -> None:
    response = spec_app.test_client().get("/openapi.json")
    assert response.status_code == 200
    assert response.get_json() == generated


def test_the_spec_names_its_own_host_as_the_server(spec_app: Flask) -> None:
    """A relative server ("/"): /docs' "Try it out" and a client reading the served spec call the
    host and port that served it, wherever the service runs; a generated client passes its own
    base URL."""
    served = spec_app.test_client().get("/openapi.json").get_json()
    committed = yaml.safe_load(SPEC_FILE.read_text(encoding="utf-8"))
    for spec in (served, committed):
        assert [server["url"] for server in spec["servers"]] == ["/"]
        assert set(spec["servers"][0]) <= {"url", "description"}


def test_docs_page_uses_local_swagger_ui_assets(spec_app: Flask) -> None:
    client = spec_app.test_client()
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in html
    assert "/openapi.json" in html

    for asset in ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"):
        served = client.get(f"/docs/assets/{asset}")
        assert served.status_code == 200, asset
        assert len(served.get_data()) > 1000, asset


def test_every_link_leads_to_an_operation_with_the_parameters_it_fills(generated: dict[str, Any]) -> None:
    """A link (what a created report, player, merge... leads to) names an operation of the spec,
    fills exactly that operation's path parameters, and takes each from a field the answer has
    or a path parameter the request had."""
    operations = {
        op["operationId"]: (path, op)
        for path, item in generated["paths"].items()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    schemas = generated["components"]["schemas"]
    followed = 0
    for path, item in generated["paths"].items():
        for op in item.values():
            if not isinstance(op, dict):
                continue
            for status, response in op.get("responses", {}).items():
                if not isinstance(response, dict):
                    continue
                for name, link in response.get("links", {}).items():
                    assert link["operationId"] in operations, (op["operationId"], name)
                    target_path, _target = operations[link["operationId"]]
                    wanted = {part[1:-1] for part in target_path.split("/") if part.startswith("{")}
                    assert set(link["parameters"]) == wanted, (op["operationId"], name)
                    reference = response["content"]["application/json"]["schema"]["$ref"]
                    fields = schemas[reference.rsplit("/", 1)[1]]["properties"]
                    for source in link["parameters"].values():
                        if source.startswith("$response.body#/"):
                            assert source.removeprefix("$response.body#/") in fields, (
                                op["operationId"],
                                name,
                            )
                        else:
                            assert source.removeprefix("$request.path.") in path, (op["operationId"], name)
                    assert status.startswith("2")
                    followed += 1
    assert followed >= 20


def blueprints_defined_in_api() -> dict[str, Blueprint]:
    """Every Blueprint object a module of the api package defines, by where it is defined."""
    found: dict[str, Blueprint] = {}
    for module_info in pkgutil.walk_packages(api.__path__, "api."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if isinstance(value, Blueprint) and value.import_name == module.__name__:
                found[f"{module.__name__}.{name}"] = value
    return found


def test_every_blueprint_is_registered_and_every_api_one_is_in_the_spec(
    spec_app: Flask, generated: dict[str, Any]
) -> None:
    """A blueprint left out of api.init_app would answer nothing and be missing from the spec."""
    defined = blueprints_defined_in_api()
    assert len(defined) >= 16, sorted(defined)
    registered = spec_app.blueprints
    unregistered = sorted(where for where, bp in defined.items() if registered.get(bp.name) is not bp)
    assert not unregistered, f"defined but not registered on the app (api/__init__.py): {unregistered}"
    tags = {tag["name"] for tag in generated.get("tags", [])}
    specified = {rule.endpoint.split(".", 1)[0] for rule in spec_app.url_map.iter_rules()}
    missing = sorted(
        where
        for where, bp in defined.items()
        if isinstance(bp, SmorestBlueprint) and (bp.name not in tags or bp.name not in specified)
    )
    assert not missing, f"flask-smorest blueprints not in the spec (Api.register_blueprint): {missing}"


def test_every_operation_lists_a_client_error(generated: dict[str, Any]) -> None:
    """Redocly's operation-4xx-response (tests/client/test_spec_lint.py runs it with Node.js):
    every operation lists the 4xx answers it can give, GET /health its HTTP server's 414."""
    without = sorted(
        f"{method.upper()} {path}"
        for path, item in generated["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict) and not any(str(status).startswith("4") for status in op["responses"])
    )
    assert without == []
    assert list(generated["paths"]["/health"]["get"]["responses"]["414"]) == ["description"]


def test_every_json_operation_that_answers_csv_names_its_csv_twin(generated: dict[str, Any]) -> None:
    """An operation that takes `format` answers CSV to `?format=csv` and to `Accept: text/csv`:
    the CSV its twin answers, the operation `x-csv-operation` names, at its path and `.csv`, which
    lists text/csv alone. The operation itself lists JSON alone (and `format` json alone), so a
    generated client types its answer as the JSON body (tests/client/test_typescript_client.py).
    That each CSV answer is its twin's media type is held in every test by
    tests/support/answers_documented.py."""
    operations = {
        operation["operationId"]: (path, operation)
        for path, item in generated["paths"].items()
        for operation in item.values()
        if isinstance(operation, dict)
    }
    offering = {
        name: list(operation["responses"]["200"].get("content", {}))
        for name, (_path, operation) in operations.items()
        if any(p.get("name") == "format" and p.get("in") == "query" for p in operation.get("parameters", []))
    }
    assert offering == {
        "get_standings": ["application/json"],
        "get_door_list": ["application/json"],
        "get_season_qualifiers": ["application/json"],
        "get_venue_qualifiers": ["application/json"],
        "list_audit_log": ["application/json"],
    }
    for name in offering:
        path, operation = operations[name]
        assert operation["x-csv-operation"] == f"{name}_csv"
        twin_path, twin = operations[f"{name}_csv"]
        assert twin_path == f"{path}.csv", name
        assert list(twin["responses"]["200"]["content"]) == ["text/csv"], name
        (format_,) = (p for p in operation["parameters"] if p["name"] == "format")
        assert format_["schema"]["enum"] == ["json"], name
    csv_only = sorted(
        name
        for name, (_path, operation) in operations.items()
        if "text/csv" in operation["responses"].get("200", {}).get("content", {})
    )
    assert csv_only == sorted(f"{name}_csv" for name in offering)


def answers_of(spec: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every answer's body schema in the spec (2xx and errors, shared responses followed), by
    the operation, status and media type that answer it."""
    shared = spec["components"]["responses"]
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            for status, answer in operation.get("responses", {}).items():
                if isinstance(answer, str) or "$ref" in answer:  # a shared response
                    answer = shared[answer if isinstance(answer, str) else answer["$ref"].rsplit("/", 1)[1]]
                for media, content in answer.get("content", {}).items():
                    yield f"{method.upper()} {path} {status} {media}", content.get("schema")


def objects_answered(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every object schema an answer of the spec can hold (the objects it nests too, in
    properties, arrays, maps and allOf/oneOf/anyOf; $refs followed), by where it is: its
    component's name, or where in an answer a schema written inline is."""
    named = spec["components"]["schemas"]
    found: dict[str, dict[str, Any]] = {}
    followed: set[str] = set()

    def walk(schema: Any, where: str) -> None:
        if not isinstance(schema, dict):
            return
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[1]
            if name not in followed:
                followed.add(name)
                walk(named[name], name)
            return
        if schema.get("properties"):
            found.setdefault(where, schema)
        inner = [(f"{where}.{name}", prop) for name, prop in schema.get("properties", {}).items()]
        inner += [(f"{where}[]", schema.get("items")), (f"{where}{{}}", schema.get("additionalProperties"))]
        for key in ("allOf", "oneOf", "anyOf"):
            inner += [(f"{where}.{key}[{n}]", part) for n, part in enumerate(schema.get(key, []))]
        for at, part in inner:
            walk(part, at)

    for where, schema in answers_of(spec):
        walk(schema, where)
    return found


def test_every_object_an_answer_holds_says_which_fields_are_always_there(generated: dict[str, Any]) -> None:
    """A generated client types a field the spec does not require as "maybe absent" (`T |
    undefined`, `Unset`): every object an answer holds lists the fields it always has as required
    (api/schemas.Answer marks each declared field required unless the schema names it in
    OPTIONAL). That they are really there is held by schemathesis (tests/api/test_spec_conformance.py,
    tests/api/test_fuzz.py, tests/api/nights/test_night_answers.py) and tests/api/test_answers.py."""
    objects = objects_answered(generated)
    assert len(objects) >= 100, sorted(objects)
    for name in ("ActionOut", "BreakOut", "ClockOut", "LevelOut", "MoveOut", "NightListed", "Problem"):
        assert name in objects, name
    silent = sorted(where for where, schema in objects.items() if not schema.get("required"))
    assert not silent, f"answers' objects naming no required field (make them api.schemas.Answer): {silent}"
    for where, schema in objects.items():
        assert set(schema["required"]) <= set(schema["properties"]), where
