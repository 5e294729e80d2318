"""Qualification (R3, R12-R14): every venue's qualifier list, explained; the office publishes the
lists after the season (settling ties at the cut) and disqualifies players for a season."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from flask import Response, after_this_request
from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, a_season, cached_by
from api.contract import ID, conflicts, csv_too, links
from api.csv_export import CSV_ANSWER, csv_response, varies_by_accept, wants_csv
from api.pagination import PageArgs, page_request, page_schema
from api.qualifiers.answers import qualification_head, season_body
from api.qualifiers.schemas import (
    CSV_COLUMNS,
    DisqualificationIn,
    DisqualificationOut,
    PublishIn,
    QualifiersCsvQuery,
    QualifiersQuery,
    SeasonQualifiersOut,
    VenueQualifiersOut,
    WithdrawIn,
)
from models.entities import Disqualification, QualifierPublication, Season, Venue
from models.rules.qualifier_lists import Changes, VenueList, regions_of
from models.services import wall_clock
from models.services.lookup import get_or_raise
from models.services.paging import Page
from models.services.qualifiers.queries import (
    Qualification,
    disqualifications_of,
    get_disqualification,
    qualification_of,
)
from models.services.qualifiers.writes import disqualify, publish, withdraw_disqualification

blp = Blueprint(
    "qualifiers", __name__, url_prefix="/api/v1/seasons", description="Qualification (R3, R12-R14)."
)


def _csv_lines(lists: Sequence[VenueList]) -> Iterator[list[Any]]:
    for venue in lists:
        head = [venue["venue_id"], venue["venue_name"], venue["region_id"]]
        for q in venue["qualifiers"]:
            yield [
                *head,
                "qualifier",
                q["rank"],
                q["player"]["id"],
                q["player"]["display_name"],
                q["points"],
                " ".join(q["flags"]),
                "",
                "",
            ]
        for s in venue["skipped"]:
            yield [
                *head,
                "skipped",
                s["rank"],
                s["player"]["id"],
                s["player"]["display_name"],
                s["points"],
                "",
                s["reason"],
                s["venue_id"] or "",
            ]
        for t in venue["tied_out"]:
            yield [
                *head,
                "tied_out",
                t["rank"],
                t["player"]["id"],
                t["player"]["display_name"],
                t["points"],
                " ".join(t["flags"]),
                "",
                "",
            ]


def _answer(lists: Sequence[VenueList], body: Callable[[], Any], name: str) -> Any:
    """The body as JSON (made only then), or the lists as CSV (`Accept: text/csv` or
    `?format=csv`)."""
    after_this_request(varies_by_accept)
    if wants_csv():
        return csv_response(CSV_COLUMNS, _csv_lines(lists), name)
    return body()


@blp.route("/<id:season_id>/qualifiers")
@cached_by(a_season)
class SeasonQualifiersViews(MethodView):
    @blp.doc(operationId="get_season_qualifiers")
    @csv_too
    @blp.arguments(QualifiersQuery, location="query")
    @blp.response(200, SeasonQualifiersOut)
    def get(self, args: dict[str, Any], season_id: int) -> Any:
        """Every venue's qualifiers for the playoffs (R12-R14), and each region's list (R3)

        The published lists once the office published them (with what would change if it
        published again now); before that, or with `view=current`, the lists as the results
        stand. `Accept: text/csv` or `?format=csv` for CSV (generated clients:
        `get_season_qualifiers_csv`).
        """
        found = qualification_of(
            db.session(), current_actor(), season_id, current=args.get("view") == "current"
        )
        return _answer(found.lists, lambda: season_body(found), f"qualifiers-season{season_id}.csv")


@blp.route("/<id:season_id>/venues/<id:venue_id>/qualifiers")
@cached_by(a_season)
class VenueQualifiersViews(MethodView):
    @blp.doc(operationId="get_venue_qualifiers")
    @csv_too
    @blp.arguments(QualifiersQuery, location="query")
    @blp.response(200, VenueQualifiersOut)
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> Any:
        """A venue's qualifiers (R12-R14): in standings order with flags, and who was skipped why"""
        session = db.session()
        get_or_raise(session, Venue, venue_id, "venue")
        found = qualification_of(session, current_actor(), season_id, current=args.get("view") == "current")
        venue = found.venue(venue_id)
        body = {**qualification_head(found), **venue}
        if found.changes is not None:
            body["changes"] = _venue_changes(found.changes, venue_id)
        return _answer([venue], lambda: body, f"qualifiers-season{season_id}-venue{venue_id}.csv")


def _venue_changes(changes: Changes, venue_id: int) -> Changes:
    come_in = [c for c in changes["would_come_in"] if c["venue_id"] == venue_id]
    drop_out = [c for c in changes["would_drop_out"] if c["venue_id"] == venue_id]
    return {"changed": bool(come_in or drop_out), "would_come_in": come_in, "would_drop_out": drop_out}


@blp.route("/<id:season_id>/qualifiers/publish")
class PublishViews(MethodView):
    @blp.doc(operationId="publish_qualifiers")
    @office_only
    @conflicts
    @blp.arguments(PublishIn)
    @blp.response(201, SeasonQualifiersOut)
    def post(self, data: dict[str, Any], season_id: int) -> dict[str, Any]:
        """Publish the season's qualifier lists as the official ones (office, after the season; R12)

        `settlements` settle ties at the cut: each names a player who goes (the league's draw).
        Audited. Publishing again replaces the official lists; lists the latest publication
        already holds (with the same settlements) are published once (R17a): a 409 naming it.
        """
        session = db.session()
        season = get_or_raise(session, Season, season_id, "season")
        publication: QualifierPublication = publish(
            session, current_actor(), season, data.get("note"), data["settlements"]
        )
        found = Qualification(season, publication.lists, publication, None, wall_clock.league_zone(session))
        return {**qualification_head(found), "venues": found.lists, "regions": regions_of(found.lists)}


@blp.route("/<id:season_id>/disqualifications")
@cached_by(
    DATA_VERSION, why="disqualifications and their players, as before: no read of every case proves one scope"
)
class DisqualificationsViews(MethodView):
    @blp.doc(operationId="list_disqualifications")
    @office_only
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(DisqualificationOut, "DisqualificationPage", players=True))
    def get(self, args: dict[str, Any], season_id: int) -> Page[Disqualification]:
        """The season's disqualifications, withdrawn ones too, oldest first (office; R13)"""
        session = db.session()
        season = get_or_raise(session, Season, season_id, "season")
        return disqualifications_of(session, season, page_request(args))

    @blp.doc(operationId="create_disqualification")
    @office_only
    @conflicts
    @links(
        WithdrawDisqualification=(
            "withdraw_disqualification",
            {"season_id": "$request.path.season_id", "disqualification_id": ID},
        ),
    )
    @blp.arguments(DisqualificationIn)
    @blp.response(201, DisqualificationOut)
    def post(self, data: dict[str, Any], season_id: int) -> Disqualification:
        """Disqualify a player for the season (office; R13): skipped at every venue, results stand"""
        session = db.session()
        season = get_or_raise(session, Season, season_id, "season")
        return disqualify(session, current_actor(), season, data["player_id"], data["reason"])


@blp.route("/<id:season_id>/disqualifications/<id:disqualification_id>/withdraw")
class WithdrawViews(MethodView):
    @blp.doc(operationId="withdraw_disqualification")
    @office_only
    @conflicts
    @blp.arguments(WithdrawIn)
    @blp.response(200, DisqualificationOut)
    def post(self, data: dict[str, Any], season_id: int, disqualification_id: int) -> Disqualification:
        """Withdraw a disqualification, with a reason (office; R13); the record stays"""
        session = db.session()
        item = get_disqualification(session, season_id, disqualification_id)
        return withdraw_disqualification(session, current_actor(), item, data["reason"])


@blp.route("/<id:season_id>/qualifiers.csv")
@cached_by(a_season)
class SeasonQualifiersCsvViews(MethodView):
    @blp.doc(operationId="get_season_qualifiers_csv", responses=CSV_ANSWER)
    @blp.arguments(QualifiersCsvQuery, location="query")
    def get(self, args: dict[str, Any], season_id: int) -> Response:
        """Every venue's qualifiers as CSV (R12-R14)"""
        found = qualification_of(
            db.session(), current_actor(), season_id, current=args.get("view") == "current"
        )
        return csv_response(CSV_COLUMNS, _csv_lines(found.lists), f"qualifiers-season{season_id}.csv")


@blp.route("/<id:season_id>/venues/<id:venue_id>/qualifiers.csv")
@cached_by(a_season)
class VenueQualifiersCsvViews(MethodView):
    @blp.doc(operationId="get_venue_qualifiers_csv", responses=CSV_ANSWER)
    @blp.arguments(QualifiersCsvQuery, location="query")
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> Response:
        """A venue's qualifiers as CSV (R12-R14)"""
        session = db.session()
        get_or_raise(session, Venue, venue_id, "venue")
        found = qualification_of(session, current_actor(), season_id, current=args.get("view") == "current")
        name = f"qualifiers-season{season_id}-venue{venue_id}.csv"
        return csv_response(CSV_COLUMNS, _csv_lines([found.venue(venue_id)]), name)
