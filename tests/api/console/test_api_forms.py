"""The console's form of an API schema (api/console/api_forms.py), without a database: what each
kind of field becomes, the body a post makes (as JSON would carry it, for the API's own schema to
load), a PATCH's body holding only what changed, and refusals placed by field."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate
from werkzeug.datastructures import MultiDict

from api.console.api_forms import ApiForm
from api.fields import Day, ExactNumber, Id, Name, StrictBool, StrictInt, ZoneName
from models.errors import Problem, RuleViolation


class Tier(Schema):
    events = StrictInt(required=True)
    points = StrictInt(required=True)


class Example(Schema):
    name = Name(max_length=120, required=True)
    starts_on = Day(required=True)
    region_ids = fields.List(Id())
    chart_id = Id(allow_none=True)
    points = StrictInt()
    fraction = ExactNumber()
    open = StrictBool()
    zone = ZoneName(allow_none=True)
    policy = fields.String(validate=validate.OneOf(["first", "best"]))
    tiers = fields.List(fields.Nested(Tier))


LABELS = {name: name.title() for name in Example().fields}


def form(**kwargs: Any) -> ApiForm:
    return ApiForm(
        Example(), LABELS, choices={"chart_id": [("7", "Binder")], "region_ids": [("1", "North")]}, **kwargs
    )


def test_each_kind_of_field_has_its_input() -> None:
    kinds = {shown.name: shown.kind for shown in form().inputs()}
    assert kinds == {
        "name": "text",
        "starts_on": "date",
        "region_ids": "many",
        "chart_id": "select",
        "points": "number",
        "fraction": "decimal",
        "open": "checkbox",
        "zone": "zone",
        "policy": "select",
        "tiers": "rows",
    }
    policy = next(shown for shown in form().inputs() if shown.name == "policy")
    assert policy.choices == [("first", "first"), ("best", "best")]


def test_a_post_is_the_body_json_would_carry() -> None:
    posted = MultiDict(
        [
            ("name", " Winter "),
            ("starts_on", "2026-12-01"),
            ("region_ids", "1"),
            ("chart_id", "7"),
            ("points", "5"),
            ("fraction", "0.3"),
            ("open", "on"),
            ("zone", ""),
            ("policy", "best"),
            ("tiers.0.events", "4"),
            ("tiers.0.points", "10"),
            ("tiers.1.events", ""),
            ("tiers.1.points", ""),
        ]
    )
    body = form().body(posted)
    assert body == {
        "name": "Winter",
        "starts_on": "2026-12-01",
        "region_ids": [1],
        "chart_id": 7,
        "points": 5,
        "fraction": "0.3",
        "open": True,
        "policy": "best",
        "tiers": [{"events": 4, "points": 10}],
    }
    assert Example().load(body)["tiers"] == [{"events": 4, "points": 10}]


def test_a_number_typed_wrong_stays_text_for_the_schema_to_refuse_by_name() -> None:
    made = form()
    assert (
        made.submit(MultiDict([("name", "W"), ("starts_on", "2026-12-01"), ("points", "five")]), dict) is None
    )
    assert made.problems == {"points": ["Write a whole number, e.g. 3."]}


def test_a_patch_sends_only_what_changed_and_null_for_a_field_emptied() -> None:
    held = {
        "name": "Winter",
        "starts_on": "2026-12-01",
        "zone": "America/Chicago",
        "points": 5,
        "open": False,
    }
    patch = form(values=held, changes_only=True)
    posted = MultiDict([("name", "Winter"), ("starts_on", "2026-12-01"), ("zone", ""), ("points", "6")])
    assert patch.body(posted) == {"zone": None, "points": 6}
    # A field emptied that takes no null is sent as null all the same, for the schema to refuse
    # beside it, where a body without it would have changed nothing and said "saved".
    emptied = MultiDict(
        [("name", ""), ("starts_on", "2026-12-01"), ("zone", "America/Chicago"), ("points", "5")]
    )
    assert patch.body(emptied) == {"name": None}
    patch.submit(emptied, lambda loaded: loaded)
    assert patch.problems["name"] == ["Fill this in."]


def test_refusals_go_beside_their_field_rows_by_number_and_column_label() -> None:
    """A row's cell is named by the row's number and its column's label (the schema's field
    name, capitalised, where the page gives no label); what no field of the form is blamed for
    goes in the form's box, once."""
    made = form()

    def refuse(_data: dict[str, Any]) -> None:
        raise RuleViolation(
            "Refused",
            problems=[
                Problem("tiers.1.points", "Must be 0 or more."),
                Problem("name", "Taken."),
                Problem("results", "Nope."),
                Problem("results", "Nope."),
            ],
        )

    posted = MultiDict([("name", "W"), ("starts_on", "2026-12-01")])
    assert made.submit(posted, refuse) is None
    assert made.problems == {"tiers": ["Row 2, Points: Must be 0 or more."], "name": ["Taken."]}
    assert made.box == ["Refused.", "Results: Nope."]
    labelled = ApiForm(Example(), {**LABELS, "tiers.*": ("Nights played", "Bonus points")})
    assert labelled.submit(posted, refuse) is None
    assert labelled.problems["tiers"] == ["Row 2, Bonus points: Must be 0 or more."]
