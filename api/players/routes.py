"""Players (R5): created by hosts and the office; personal fields shown only as R19 allows."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from api import db, throttle
from api.auth import current_actor, host_or_office, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by, never_cached
from api.contract import ID, conflicts, links
from api.pagination import page_request, page_schema
from api.player_merges.schemas import MergeIn
from api.players.schemas import (
    DataExportOut,
    DataExportQuery,
    DistinctPlayersOut,
    ErasedOut,
    EraseIn,
    HeadToHeadOut,
    HeadToHeadQuery,
    NotDuplicateIn,
    OpponentsOut,
    PlayerCreated,
    PlayerIn,
    PlayerMerged,
    PlayerOut,
    PlayerPatch,
    PlayerProfileOut,
    PlayerQuery,
)
from api.ratings.schemas import RatingHistoryOut
from api.schemas import patch_of
from models.entities import DistinctPlayers, Player
from models.rules.players import player_labels
from models.services.lookup import get_or_raise
from models.services.paging import Page
from models.services.player_merges.writes import merge_players
from models.services.players.distinct import record_distinct
from models.services.players.erasures import Erased, erase_player
from models.services.players.exports import data_export
from models.services.players.head_to_head import head_to_head, nemesis, opponents
from models.services.players.queries import as_seen_by, player_as_seen_by, search_players
from models.services.players.survivors import final_survivor
from models.services.players.writes import create_player, update_player
from models.services.qualifiers.queries import player_qualification
from models.services.ratings.queries import player_rating, rating_history
from models.services.sanctions.queries import ladder_for
from models.services.standings.queries import player_seasons

blp = Blueprint("players", __name__, url_prefix="/api/v1/players", description="Players (R5, R19).")


@blp.route("")
@cached_by(DATA_VERSION, why="players across every season and venue: a new player moves no scope")
class PlayersViews(MethodView):
    @blp.doc(operationId="search_players")
    @blp.arguments(PlayerQuery, location="query")
    @blp.response(200, page_schema(PlayerOut, "PlayerPage", players=True))
    def get(self, args: dict[str, Any]) -> Page[dict[str, Any]]:
        """Search players by name"""
        page = page_request(args)
        return search_players(db.session(), current_actor(), page, args.get("q"))

    @blp.doc(operationId="create_player")
    @host_or_office
    @conflicts
    @links(
        GetPlayer=("get_player", {"player_id": ID}),
        UpdatePlayer=("update_player", {"player_id": ID}),
        GetPlayerSanctions=("get_player_sanctions", {"player_id": ID}),
        MergeIntoPlayer=("merge_players", {"player_id": ID}),
    )
    @blp.arguments(PlayerIn)
    @blp.response(201, PlayerCreated)
    def post(self, data: dict[str, Any]) -> dict[str, Any]:
        """Register a player (host or office); lists possible duplicates in warnings (R5)

        An email or membership number already registered is refused (409); a host is not told
        whose it is, and each such refusal counts against the host's key as an unknown email
        in a report does (R19, `RATELIMIT_UNKNOWN_IDENTIFIERS`): once the key has used that up,
        a host's registrations are a 429 until the window ends.
        """
        session, actor = db.session(), current_actor()
        throttle.refuse_when_identifiers_spent(actor)  # R19: before anyone is looked up
        with throttle.counting_identifier_misses(actor):
            player, notices = create_player(session, actor, data)
        return {**as_seen_by(player, personal=True), "warnings": notices}


@blp.route("/<id:player_id>")
@cached_by(DATA_VERSION, why="every season a player played, and ratings (no scope covers them)")
class PlayerByIdViews(MethodView):
    @blp.doc(operationId="get_player")
    @blp.response(200, PlayerProfileOut)
    def get(self, player_id: int) -> dict[str, Any]:
        """A player's profile and per-venue season results"""
        session = db.session()
        player = get_or_raise(session, Player, player_id, "player")
        actor = current_actor()
        seasons, played = player_seasons(session, player)
        profile = {
            **player_as_seen_by(session, actor, player),
            "seasons": seasons,
            "qualification": player_qualification(session, actor, player, played),
            # R20: a merged-away id shows its survivor's rating (its results are rated there).
            "rating": player_rating(session, final_survivor(session, player)),
            "nemesis": None,
        }
        found = nemesis(session, player.id)
        if found is not None:
            # R19: the two labelled together (numbered where they share a display name).
            them = found.player
            labels = player_labels([(player.id, player.display_name), (them.id, them.display_name)])
            profile["label"] = labels[player.id]
            ref = {"id": them.id, "display_name": them.display_name, "label": labels[them.id]}
            profile["nemesis"] = {"player": ref, "knockouts": found.knockouts}
        ladder = ladder_for(session, actor, player)
        return profile if ladder is None else {**profile, "discipline": ladder}

    @blp.doc(operationId="update_player")
    @office_only
    @conflicts
    @blp.arguments(patch_of(PlayerPatch))
    @blp.response(200, PlayerOut)
    def patch(self, changes: dict[str, Any], player_id: int) -> dict[str, Any]:
        """Change a player's record (office; audited)"""
        session, actor = db.session(), current_actor()
        player = get_or_raise(session, Player, player_id, "player")
        return player_as_seen_by(session, actor, update_player(session, actor, player, changes))


@blp.route("/<id:player_id>/rating-history")
@cached_by(DATA_VERSION, why="ratings: no scope covers player_ratings or rating_points")
class PlayerRatingHistoryViews(MethodView):
    @blp.doc(operationId="get_player_rating_history")
    @blp.response(200, RatingHistoryOut)
    def get(self, player_id: int) -> dict[str, Any]:
        """A player's skill rating after each rated tournament (R20)

        One point per rated tournament, in the rating order (date, session, report). A player
        merged away answers for the player its results moved to (R17).
        """
        session = db.session()
        player = get_or_raise(session, Player, player_id, "player")
        survivor = session.get_one(Player, final_survivor(session, player))
        return {
            "player": survivor,
            "rating": player_rating(session, survivor.id),
            "points": rating_history(session, survivor.id),
        }


@blp.route("/<id:player_id>/head-to-head")
@cached_by(DATA_VERSION, why="results across every season and venue")
class PlayerHeadToHeadViews(MethodView):
    @blp.doc(operationId="get_head_to_head")
    @blp.arguments(HeadToHeadQuery, location="query")
    @blp.response(200, HeadToHeadOut)
    def get(self, args: dict[str, Any], player_id: int) -> dict[str, Any]:
        """Two players against each other: the live tournaments both played (R8a, R17, R19)

        Every live tournament both played (any kind, any venue; a no-show played none), with
        both places, who finished higher and who knocked whom out; totals over all of them, and
        one page of the tournaments, latest first (`page`, `per_page`: default 50). A record
        merged away answers for the player it was merged into (R17), as its rating history does.
        An unknown player is a 404 (naming `other` for the other); `other` left out, or naming
        this player, is a 422 naming `other`.
        """
        page = page_request(args)
        found = head_to_head(db.session(), player_id, args["other"], page)
        return {
            "player": found.player,
            "other": found.other,
            "tournaments": found.tournaments,
            "player_finished_higher": found.player_finished_higher,
            "other_finished_higher": found.other_finished_higher,
            "player_knocked_out_other": found.player_knocked_out_other,
            "other_knocked_out_player": found.other_knocked_out_player,
            "meetings": found.meetings.items,
            "page": found.meetings.page,
            "per_page": found.meetings.per_page,
            "pages": found.meetings.pages,
        }


@blp.route("/<id:player_id>/opponents")
@cached_by(DATA_VERSION, why="results across every season and venue")
class PlayerOpponentsViews(MethodView):
    @blp.doc(operationId="get_opponents")
    @blp.response(200, OpponentsOut)
    def get(self, player_id: int) -> dict[str, Any]:
        """Whom a player met: every player of a live tournament both played (R8a, R19)

        Most met first (then by display name and number), with how many live tournaments both
        played: the players a head-to-head (`…/head-to-head?other=`) can be asked against. A
        record merged away answers for the player it was merged into (R17).
        """
        player, met = opponents(db.session(), player_id)
        return {
            "player": player,
            "opponents": [{"player": o.player, "meetings": o.meetings} for o in met],
        }


@blp.route("/<id:player_id>/merge")
class PlayerMergeViews(MethodView):
    @blp.doc(operationId="merge_players")
    @office_only
    @conflicts
    @links(
        GetPlayerMerge=("get_player_merge", {"merge_id": "$response.body#/merge_id"}),
        UndoPlayerMerge=("undo_player_merge", {"merge_id": "$response.body#/merge_id"}),
    )
    @blp.arguments(MergeIn)
    @blp.response(200, PlayerMerged)
    def post(self, data: dict[str, Any], player_id: int) -> dict[str, Any]:
        """Merge a duplicate player into this one (office; R17); undo at /player-merges/{id}/undo

        The duplicate's results, sanctions, disqualifications, home venue and membership details
        move here; refused (409) when both played in one tournament. Audited.
        """
        session, actor = db.session(), current_actor()
        survivor = get_or_raise(session, Player, player_id, "player")
        merge = merge_players(session, actor, survivor, data["duplicate_id"], data["reason"])
        return {**player_as_seen_by(session, actor, survivor), "merge_id": merge.id}


@blp.route("/<id:player_id>/not-duplicate")
class PlayerNotDuplicateViews(MethodView):
    @blp.doc(operationId="record_not_duplicate")
    @office_only
    @conflicts
    @blp.arguments(NotDuplicateIn)
    @blp.response(201, DistinctPlayersOut)
    def post(self, data: dict[str, Any], player_id: int) -> DistinctPlayers:
        """Record that two look-alike players are different people (office; R5, audited)

        The pair is no longer offered as a possible duplicate. Refused when `other_id` names no
        player or this one (422), when either was merged away (409, R17: compare the player it
        is part of now), and when the pair was recorded already, from either side (409, R17a).
        """
        session, actor = db.session(), current_actor()
        player = get_or_raise(session, Player, player_id, "player")
        return record_distinct(session, actor, player, data["other_id"], data["reason"])


@blp.route("/<id:player_id>/data-export")
@never_cached
class PlayerDataExportViews(MethodView):
    @blp.doc(operationId="export_player_data")
    @office_only
    @blp.arguments(DataExportQuery, location="query")
    @blp.response(200, DataExportOut)
    def get(self, args: dict[str, Any], player_id: int) -> Response:
        """Everything held about a player, as one JSON document (office; R21, audited)

        The personal fields, results with their reports and points, sanctions,
        disqualifications, merges, the rating, and every audit entry naming the player with its
        personal values readable. Never cached: each export is audited. An erased player's
        export holds the record with no personal values. `?download=true` answers it as a file.
        """
        session, actor = db.session(), current_actor()
        document = data_export(session, actor, player_id)
        response = jsonify(DataExportOut().dump(document))
        response.headers["Cache-Control"] = "no-store"
        if args.get("download"):
            response.headers["Content-Disposition"] = f'attachment; filename="player-{player_id}-data.json"'
        return response


@blp.route("/<id:player_id>/erase")
class PlayerEraseViews(MethodView):
    @blp.doc(operationId="erase_player")
    @office_only
    @conflicts
    @blp.arguments(EraseIn)
    @blp.response(200, ErasedOut)
    def post(self, data: dict[str, Any], player_id: int) -> Erased:
        """Erase a player's personal data (office; R21, audited, cannot be undone)

        Full name, email, date of birth, membership number and PIN are removed; the display name
        becomes "Former player N" unless `display_name` gives another. Results, standings,
        qualifiers, ratings and sanctions stand. Every personal value the audit log holds about
        the player reads "[erased]" from now on. A record merged away is erased with the player
        it was merged into, and with every record merged into that one. A second erasure is
        refused (409, R17a).
        """
        session, actor = db.session(), current_actor()
        return erase_player(session, actor, player_id, data["reason"], data.get("display_name"))
