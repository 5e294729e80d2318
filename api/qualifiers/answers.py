"""Qualification's answer written by hand beside its schema (schemas.SeasonQualifiersOut): a
national season's lists and regions are thousands of items (the schema's per-field dump was most
of the answer's cost once the lists are computed). tests/api/test_answers.py holds it to the
schema's dump of the same lists, for each caller (R13, R19: who reads a skip's reason)."""

from __future__ import annotations

from collections.abc import Collection
from functools import partial
from typing import Any, NamedTuple

from flask import Response, current_app

from api import db
from api.cache.fragments import LabelledJson
from api.fields import exact_number, utc_timestamp
from api.schemas import labelled, players_in, relabelled
from models.freshness.memos import FRAGMENTS, cached_at
from models.infra.collection import collection_paused
from models.rules.players import numbered_players
from models.rules.qualifier_lists import VenueList
from models.services.qualifiers.lists import DrawnAt
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


class _VenueJson(NamedTuple):
    """A venue's list as the season's answer writes it: the venue, and its qualifiers as its
    region's list holds them, their players labelled over the whole answer (R19)."""

    venue: VenueList
    as_venue: LabelledJson
    in_region: LabelledJson

    def written(self, numbered: Collection[int]) -> tuple[str, str]:
        """The venue's JSON, and its qualifiers as JSON items (no brackets)."""
        return self.as_venue.written(numbered), self.in_region.written(numbered)[1:-1]


def venue_json(venue: VenueList, drawn: DrawnAt | None) -> _VenueJson:
    """Cached under what the list is known by (`drawn`: the versions it was drawn at; a
    computation reuses the lists nothing changed, services/qualifiers/lists.py's `Parts`, with
    theirs), so after a report only the lists that changed are written again."""

    def write(_older: _VenueJson | None) -> _VenueJson:
        shown = {**venue, "average_attendance": exact_number(venue["average_attendance"])}
        in_region = [{**q, "venue_id": venue["venue_id"]} for q in venue["qualifiers"]]
        return _VenueJson(
            venue, LabelledJson(partial(relabelled, shown)), LabelledJson(partial(relabelled, in_region))
        )

    if drawn is None:
        return write(None)
    key = ("venue list", drawn.asked, venue["venue_id"])
    found: _VenueJson = cached_at(
        db.session(), key, dict(drawn.versions), lambda: write(None), memo=FRAGMENTS
    )
    return found


def season_body(found: Qualification) -> Response:
    """SeasonQualifiersOut, written directly. The lists are plain data already; only the numbers,
    the timestamp and the day are written as the schema's fields write them, and its players
    labelled as the schema labels them (R19: over the whole answer). Each venue's JSON is cached
    with the list it was made from (`venue_json`): after a report, only the lists that changed (or
    whose players' numbering did) are written again."""
    with collection_paused():  # a national season's lists: thousands of JSON parts, all kept
        drawn = found.drawn or [None] * len(found.lists)
        venues = [venue_json(venue, at) for venue, at in zip(found.lists, drawn, strict=True)]
    head = qualification_head(found)
    head["published_at"] = utc_timestamp(head["published_at"])
    head["published_on"] = found.published_on.isoformat() if found.published_on else None
    players = [player for venue in venues for player in venue.as_venue.players]
    players_in(head, players)
    numbered = numbered_players(players)
    written: list[str] = []
    regions: dict[int, list[str]] = {}
    for venue in venues:
        as_venue, in_region = venue.written(numbered)
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
