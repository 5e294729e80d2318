"""Discipline (R15, R16): the office records reminders, warnings, suspensions and venue bans, a
host bans from their own venue; lifting keeps the record; the door list says who may not play."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Response, after_this_request
from flask.views import MethodView

from api import db
from api.auth import current_actor, host_or_office
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import ID, conflicts, csv_too, links
from api.csv_export import CSV_ANSWER, csv_response, varies_by_accept, wants_csv
from api.idempotency import idempotent
from api.pagination import page_request, page_schema
from api.sanctions.schemas import (
    DOOR_LIST_COLUMNS,
    DoorListCsvQuery,
    DoorListOut,
    DoorListQuery,
    LiftIn,
    PlayerDisciplineOut,
    SanctionIn,
    SanctionIssued,
    SanctionOut,
    SanctionQuery,
)
from models.entities import Player, Sanction
from models.rules.notices import Notice
from models.services import wall_clock
from models.services.lookup import get_or_raise
from models.services.paging import Page
from models.services.sanctions.queries import (
    BarredPlayer,
    SanctionFilters,
    door_list,
    get_sanction,
    list_sanctions,
    player_discipline,
)
from models.services.sanctions.writes import issue_sanction, lift_sanction

blp = Blueprint("sanctions", __name__, url_prefix="/api/v1", description="Discipline (R15, R16).")


@blp.route("/sanctions")
@cached_by(DATA_VERSION, why="sanctions and their players, as before: no read of every case proves one scope")
class SanctionsViews(MethodView):
    @blp.doc(operationId="list_sanctions")
    @host_or_office
    @blp.arguments(SanctionQuery, location="query")
    @blp.response(200, page_schema(SanctionOut, "SanctionPage", players=True))
    def get(self, args: dict[str, Any]) -> Page[Sanction]:
        """List sanctions, newest first (hosts: suspensions and their venues' bans)"""
        page = page_request(args)
        return list_sanctions(db.session(), current_actor(), SanctionFilters(**args), page)

    @blp.doc(operationId="create_sanction")
    @host_or_office
    @idempotent
    @conflicts
    @links(
        GetSanction=("get_sanction", {"sanction_id": ID}),
        LiftSanction=("lift_sanction", {"sanction_id": ID}),
    )
    @blp.arguments(
        SanctionIn,
        example={
            "player_id": 17,
            "kind": "suspension",
            "category": "fighting",
            "first_day": "2026-03-05",
            "last_day": "2026-03-19",
            "reason": "Shoved another player at the Crown.",
        },
    )
    @blp.response(201, SanctionIssued)
    def post(self, data: dict[str, Any]) -> Issued:
        """Record a sanction (R15): the office any kind; a host a venue_ban of their own venue

        A suspension lasts at least the league's minimum (league settings) or is permanent
        (no last_day); both the first and the last day are days of the sanction and count toward
        its length (14 days from 1 December: 14 December or later). Recorded after the fact, it
        undoes no stored result: `warnings` names the player's reports inside it (R16).
        """
        data.pop("permanent", None)
        return Issued(*issue_sanction(db.session(), current_actor(), data))


class Issued:
    """SanctionIssued: the sanction as SanctionOut reads it, and its warnings (R16)."""

    def __init__(self, sanction: Sanction, warnings: list[Notice]) -> None:
        self.sanction = sanction
        self.warnings = warnings

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sanction, name)


@blp.route("/sanctions/<id:sanction_id>")
@cached_by(DATA_VERSION, why="a sanction and its player, as before: no read of every case proves one scope")
class SanctionByIdViews(MethodView):
    @blp.doc(operationId="get_sanction")
    @host_or_office
    @blp.response(200, SanctionOut)
    def get(self, sanction_id: int) -> Sanction:
        """One sanction"""
        return get_sanction(db.session(), current_actor(), sanction_id)


@blp.route("/sanctions/<id:sanction_id>/lift")
class SanctionLiftViews(MethodView):
    @blp.doc(operationId="lift_sanction")
    @host_or_office
    @conflicts
    @blp.arguments(LiftIn)
    @blp.response(200, SanctionOut)
    def post(self, data: dict[str, Any], sanction_id: int) -> Sanction:
        """Lift a sanction early, with a reason (R15); the record stays

        The office lifts any sanction; a host only a ban from their own venue: a suspension is
        a 403, another venue's ban a 404, as for a sanction that does not exist (R19).
        """
        session, actor = db.session(), current_actor()
        sanction = get_sanction(session, actor, sanction_id)
        return lift_sanction(session, actor, sanction, data["reason"])


@blp.route("/players/<id:player_id>/sanctions")
@cached_by(DATA_VERSION, why="a player's sanctions, as before: no read of every case proves one scope")
class PlayerSanctionsViews(MethodView):
    @blp.doc(operationId="get_player_sanctions")
    @host_or_office
    @blp.response(200, PlayerDisciplineOut)
    def get(self, player_id: int) -> dict[str, Any]:
        """A player's whole disciplinary history; the office also gets 12-month counts"""
        session = db.session()
        player = get_or_raise(session, Player, player_id, "player")
        return player_discipline(session, current_actor(), player)


def _barred_body(venue_id: int, on: date, rows: list[BarredPlayer]) -> dict[str, Any]:
    return {
        "venue_id": venue_id,
        "on": on,
        "total": len(rows),
        "barred": [
            {
                "player": row.player,
                "group": row.group,
                "last_day": row.last_day,
                "permanent": row.last_day is None,
                "sanction": row.sanction,
                "sanction_ids": [s.id for s in row.sanctions],
            }
            for row in rows
        ],
    }


def _barred_csv(venue_id: int, on: date, rows: list[BarredPlayer]) -> Response:
    lines = (
        [
            row.player.display_name,
            row.player.id,
            row.sanction.kind,
            row.sanction.category,
            row.sanction.first_day.isoformat(),
            row.last_day.isoformat() if row.last_day else "permanent",
            row.sanction.id,
            row.player.full_name,
            row.group,
        ]
        for row in rows
    )
    return csv_response(DOOR_LIST_COLUMNS, lines, f"barred-venue{venue_id}-{on.isoformat()}.csv")


@blp.route("/venues/<id:venue_id>/barred")
@cached_by(DATA_VERSION, why="each row's group is who played where (results in every season)")
class DoorListViews(MethodView):
    @blp.doc(operationId="get_door_list")
    @csv_too
    @host_or_office
    @blp.arguments(DoorListQuery, location="query")
    @blp.response(200, DoorListOut)
    def get(self, args: dict[str, Any], venue_id: int) -> Any:
        """The door list: who may not play at the venue on a day (R16)

        League-wide suspensions and bans at this venue running that day. Each barred player
        with their full name, display name and player number, so the door can recognise them
        (R19: the one answer where a host reads the full name of a player who never played
        there). First those who played here, then those who played elsewhere in the venue's
        region, then the rest of the league (`group`); within a group by display name, then
        player number. For the venue's hosts and the office. CSV to print: `Accept: text/csv`
        or `?format=csv` (generated clients: `get_door_list_csv`), with the same columns.
        """
        venue_id, on, rows = _door_list(venue_id, args)
        after_this_request(varies_by_accept)
        if args.get("format") == "csv" or (args.get("format") is None and wants_csv()):
            return _barred_csv(venue_id, on, rows)
        return _barred_body(venue_id, on, rows)


def _door_list(venue_id: int, args: dict[str, Any]) -> tuple[int, date, list[BarredPlayer]]:
    session, actor = db.session(), current_actor()
    on = args.get("on") or wall_clock.at_venue(session, venue_id)
    return venue_id, on, door_list(session, actor, venue_id, on)


@blp.route("/venues/<id:venue_id>/barred.csv")
@cached_by(DATA_VERSION, why="each row's group is who played where (results in every season)")
class DoorListCsvViews(MethodView):
    @blp.doc(operationId="get_door_list_csv", responses=CSV_ANSWER)
    @host_or_office
    @blp.arguments(DoorListCsvQuery, location="query")
    def get(self, args: dict[str, Any], venue_id: int) -> Response:
        """The door list as CSV, to print (R16)"""
        return _barred_csv(*_door_list(venue_id, args))
