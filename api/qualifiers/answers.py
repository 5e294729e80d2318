"""Qualification's answer written by hand beside its schema (schemas.SeasonQualifiersOut): a
national season's lists and regions are thousands of items (the schema's per-field dump was most
of the answer's cost once the lists are computed). tests/api/test_answers.py holds it to the
schema's dump of the same lists, for each caller (R13, R19: who reads a skip's reason)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from flask import Response, current_app

from api.fields import exact_number, utc_timestamp
from api.schemas import labelled, players_in
from models.rules.players import numbered_players
from models.rules.qualifier_lists import VenueList
from models.services.qualifiers.queries import Qualification


def qualification_head(found: Qualification) -> dict[str, Any]:
    """The head of every qualification answer: the season, and whether and when it was published."""
    publication = found.publication
    return {
        "season_id": found.season.id,
        "provisional": found.provisional,
        "published": publication is not None,
        "published_at": publication.published_at if publication else None,
        "published_on": found.published_on,
        "note": publication.note if publication else None,
        "changes": found.changes,
    }


def venue_pieces(venue: VenueList, numbered: frozenset[int]) -> tuple[str, str]:
    """A venue's list as the season's answer writes it, its players in `numbered` with their
    numbers (R19): the venue's JSON, and its qualifiers as its region's list holds them (JSON
    items, no brackets)."""
    dumps = current_app.json.dumps
    shown = {**venue, "average_attendance": exact_number(venue["average_attendance"])}
    in_region = [{**q, "venue_id": venue["venue_id"]} for q in venue["qualifiers"]]
    return (dumps(labelled(shown, numbered)), dumps(labelled(in_region, numbered))[1:-1])


class VenueJson(Protocol):
    """A venue's list and its JSON as kept (routes.py), written by `venue_pieces`."""

    venue: VenueList
    players: list[tuple[int, str]]

    def written(self, numbered: frozenset[int]) -> tuple[str, str]: ...


def season_body(found: Qualification, venue_json: Callable[[VenueList], VenueJson]) -> Response:
    """SeasonQualifiersOut, written directly. The lists are plain data already; only the numbers,
    the timestamp and the day are written as the schema's fields write them, and its players
    labelled as the schema labels them (R19: over the whole answer). Each venue's JSON is had from
    `venue_json`, which keeps it with the list it was made from: after a report, only the lists
    that changed (or whose players' numbering did) are written again."""
    venues = [venue_json(venue) for venue in found.lists]
    head = qualification_head(found)
    head["published_at"] = utc_timestamp(head["published_at"])
    head["published_on"] = found.published_on.isoformat() if found.published_on else None
    players = [player for venue in venues for player in venue.players]
    players_in(head, players)
    numbered = numbered_players(players)
    written: list[str] = []
    regions: dict[int, list[str]] = {}
    for venue in venues:
        mine = frozenset(player_id for player_id, _name in venue.players if player_id in numbered)
        as_venue, in_region = venue.written(mine)
        written.append(as_venue)
        regions.setdefault(venue.venue["region_id"], [])
        if in_region:
            regions[venue.venue["region_id"]].append(in_region)
    region_lists = ",".join(
        f'{{"qualifiers":[{",".join(items)}],"region_id":{region_id}}}'
        for region_id, items in regions.items()
    )
    body = current_app.json.dumps(labelled(head, numbered))
    body = f'{body[:-1]},"regions":[{region_lists}],"venues":[{",".join(written)}]}}'
    return Response(body, mimetype="application/json")
