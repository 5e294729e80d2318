"""The office's points charts in the console (R7): every chart with what it pays a field of N
entrants, and a new chart of any kind (top of the field, bands, a formula or a preset) made
through the API's own schema and service, so a refusal is the API's, beside its field."""

from __future__ import annotations

import re
from typing import Any

from flask import request
from marshmallow import ValidationError

from api import db
from api.console.base import bp, current, page, refused_form, signed_in_only, token_missing
from api.console.forms import ChartForm
from api.points_charts.schemas import MAX_ENTRANTS, ChartIn
from api.words import FORMS, Told, said_to_people, told
from models.errors import LeagueError
from models.services.access import may_make_charts
from models.services.paging import PageRequest
from models.services.points_charts.queries import list_charts
from models.services.points_charts.writes import create_chart, preview_chart

BAND_LINE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)|(\+))\s*:\s*([\d\s,]*)$")


def bands_of(text: str) -> list[dict[str, Any]]:
    """The bands typed one a line ("2-9: 30, 20, 10", "10+: 50, 40"); ValueError naming the line."""
    bands = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        found = BAND_LINE.match(line)
        if found is None:
            raise ValueError(f"Line {number} is not entrants, a colon, then points (e.g. 2-9: 30, 20, 10).")
        low, high, _open, points = found.groups()
        bands.append(
            {
                "min_entrants": int(low),
                "max_entrants": None if high is None else int(high),
                "points": [int(value) for value in points.replace(",", " ").split()],
            }
        )
    return bands


def chart_body(form: ChartForm) -> dict[str, Any]:
    """What the form says, as the API's request body for the kind chosen."""
    kind = form.kind.data
    body: dict[str, Any] = {"name": (form.name.data or "").strip(), "kind": kind}
    fraction, step = (form.fraction.data or "").strip(), (form.step.data or "").strip()
    if fraction and kind != "bands":
        body["fraction"] = fraction
    if kind == "top_fraction" and step:
        body["step"] = step if not step.isdigit() else int(step)
    if kind == "bands":
        body["bands"] = bands_of(form.bands.data or "")
    if kind == "formula":
        if form.preset.data:
            body["preset"] = form.preset.data
        elif form.formula.data:
            body["formula"] = form.formula.data
    return body


def described(chart: Any) -> str:
    """A chart in a line: its kind's settings."""
    if chart.kind == "top_fraction":
        return f"top {chart.fraction.normalize():f} of the field, {chart.step} points apart"
    if chart.kind == "bands":
        return "; ".join(
            f"{b.min_entrants}{'+' if b.max_entrants is None else f'-{b.max_entrants}'}: "
            + ", ".join(str(p) for p in b.points)
            for b in chart.bands
        )
    preset = f" (preset {chart.preset})" if chart.preset else ""
    return f"{chart.formula}{preset}, fraction {chart.fraction.normalize():f}"


def previewed(session: Any, chart: Any, entrants: int) -> str:
    try:
        shown = preview_chart(session, chart, entrants)
    except LeagueError as refusal:
        return " ".join(said_to_people(refusal))
    return ", ".join(str(points) for points in shown["points"]) or "no place scores"


@bp.route("/charts", methods=["GET", "POST"])
@signed_in_only
def charts() -> Any:
    """R7: every chart, with its points for a field of `entrants` (default 10), and a new one."""
    session, actor = db.session(), current()
    may_make_charts(actor)
    entrants = request.args.get("entrants", "10")
    field = int(entrants) if entrants.isdigit() and 1 <= int(entrants) <= MAX_ENTRANTS else 10
    form = ChartForm()
    made, status, refused = None, 200, Told()
    fields = [item.name for item in form if item.name != "csrf_token"]

    def said(refusal: Any) -> Told:
        """The refusal beside the chart's fields, a band by its line ("Line 2, Points: …")."""
        return told(refusal, FORMS["chart"], fields=fields, row="Line")

    if request.method == "POST":
        if not form.validate_on_submit():
            if token_missing(form):
                return refused_form()
            status, refused = 400, said(dict(form.errors))
        else:
            try:
                made = create_chart(session, actor, ChartIn().load(chart_body(form)))
            except ValueError as wrong:
                status, refused = 422, said({"bands": [str(wrong)]})
            except ValidationError as wrong:
                status, refused = 422, said(flat(wrong.messages))
            except LeagueError as refusal:
                status, refused = refusal.status, said(refusal)
    listed = list_charts(session, PageRequest(1, 500)).items
    rows = [(chart, described(chart), previewed(session, chart, field)) for chart in listed]
    context = {"form": form, "rows": rows, "made": made, "entrants": field, "refused": refused}
    return page("console/charts.html", status, **context)


def flat(messages: Any, at: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages by dotted field path (bands.0.points)."""
    if isinstance(messages, list):
        return {at or "name": [str(message) for message in messages]}
    found: dict[str, list[str]] = {}
    for key, value in messages.items():
        found.update(flat(value, f"{at}.{key}" if at else str(key)))
    return found
