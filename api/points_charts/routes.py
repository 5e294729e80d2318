"""Points charts (R7): which places score and how much, and a preview for any field size."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import cached_by, the_league
from api.contract import ID, conflicts, links
from api.pagination import PageArgs, page_request, page_schema
from api.points_charts.schemas import (
    CHART_FORMULA_EXAMPLE,
    ChartChanged,
    ChartFormula,
    ChartIn,
    ChartOut,
    ChartPatch,
    PreviewArgs,
    PreviewOut,
)
from models.entities import PointsChart
from models.services.lookup import get_or_raise
from models.services.paging import Page
from models.services.points_charts.queries import list_charts
from models.services.points_charts.writes import create_chart, preview_chart, update_chart

blp = Blueprint(
    "points_charts", __name__, url_prefix="/api/v1/points-charts", description="Points charts (R7)."
)


# The body of a new chart: any kind (ChartIn), described for a formula chart on its own too
# (ChartFormula), with an example of each kind.
CREATE_BODY = {
    "content": {
        "application/json": {
            "schema": {"anyOf": [ChartIn, ChartFormula]},
            "examples": {
                "top_fraction": {
                    "value": {"name": "Top 30%", "kind": "top_fraction", "fraction": 0.3, "step": 10}
                },
                "bands": {
                    "value": {
                        "name": "Host binder",
                        "kind": "bands",
                        "bands": [
                            {"min_entrants": 2, "max_entrants": 9, "points": [30, 20, 10]},
                            {"min_entrants": 10, "max_entrants": None, "points": [50, 40, 30, 20, 10]},
                        ],
                    }
                },
                "formula": {"value": CHART_FORMULA_EXAMPLE},
                "preset": {
                    "value": {"name": "Square root preset", "kind": "formula", "preset": "square_root"}
                },
            },
        }
    }
}


@blp.route("")
@cached_by(the_league)
class ChartsViews(MethodView):
    @blp.doc(operationId="list_points_charts")
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(ChartOut, "PointsChartPage"))
    def get(self, args: dict[str, Any]) -> Page[PointsChart]:
        """List points charts"""
        return list_charts(db.session(), page_request(args))

    @blp.doc(operationId="create_points_chart", requestBody=CREATE_BODY)
    @office_only
    @conflicts
    @links(
        GetPointsChart=("get_points_chart", {"chart_id": ID}),
        UpdatePointsChart=("update_points_chart", {"chart_id": ID}),
    )
    @blp.arguments(ChartIn)
    @blp.response(201, ChartOut)
    def post(self, data: dict[str, Any]) -> PointsChart:
        """Create a points chart (office)

        `{"kind": "top_fraction", "fraction": 0.3, "step": 10}`,
        `{"kind": "bands", "bands": [{"min_entrants", "max_entrants", "points": [...]}]}`, or a
        formula (ChartFormula): `{"kind": "formula", "formula": "sqrt(n) / sqrt(p) * 100",
        "fraction": 0.3}` or `{"kind": "formula", "preset": "square_root"}` (R7). A formula is
        checked for every field from 2 to the league's max_entrants when saved, with about a
        second's work at most (counted, not timed): a formula whose check would take more is
        refused (422 naming `formula`). A fraction has at most 4 decimal places, never rounded.
        """
        return create_chart(db.session(), current_actor(), data)


@blp.route("/<id:chart_id>")
@cached_by(the_league)
class ChartByIdViews(MethodView):
    @blp.doc(operationId="get_points_chart")
    @blp.response(200, ChartOut)
    def get(self, chart_id: int) -> PointsChart:
        """One points chart"""
        return get_or_raise(db.session(), PointsChart, chart_id, "points chart")

    @blp.doc(operationId="update_points_chart")
    @office_only
    @blp.arguments(ChartPatch)
    @blp.response(200, ChartChanged)
    def patch(self, changes: dict[str, Any], chart_id: int) -> Any:
        """Change a points chart, with a reason (office; R7): every season using it is rescored

        Refused whole (R7) if a stored report's field would have no band. Audited.
        """
        session = db.session()
        chart = get_or_raise(session, PointsChart, chart_id, "points chart")
        reason = changes.pop("reason")
        chart, rescored = update_chart(session, current_actor(), chart, changes, reason)
        return {**{name: getattr(chart, name) for name in ChartOut().fields}, "rescored_results": rescored}


@blp.route("/<id:chart_id>/preview")
@cached_by(the_league, refusals=True)
class ChartPreviewViews(MethodView):
    @blp.doc(operationId="preview_points_chart")
    @blp.arguments(PreviewArgs, location="query")
    @blp.response(200, PreviewOut)
    def get(self, args: dict[str, Any], chart_id: int) -> dict[str, Any]:
        """Points of places 1..k for a field of N entrants (R7)

        A chart of the league's own formula is previewed up to the league's max_entrants, the
        fields it was checked for when saved; past it, a 422 naming `entrants`, nothing computed.
        """
        chart = get_or_raise(db.session(), PointsChart, chart_id, "points chart")
        return preview_chart(db.session(), chart, args["entrants"])


@blp.route("/default/preview")
@cached_by(the_league, refusals=True)
class DefaultChartPreviewViews(MethodView):
    @blp.doc(operationId="preview_default_chart")
    @blp.arguments(PreviewArgs, location="query")
    @blp.response(200, PreviewOut)
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """Preview the default chart (top 30%, step 10) that a season without a chart uses"""
        return preview_chart(db.session(), None, args["entrants"])
