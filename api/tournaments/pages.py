"""A page of reports (GET /api/v1/tournaments), written from each report's answer as this process
keeps it: after a report, a page of the season's reports holds one new report and forty-nine
that nothing changed, and only the new one is read, dumped and written as JSON.

A report's answer is kept by what it reads: its id, the version of its own scope (`report:T`,
migration 0024: every change to it or its results, a correction, a void, a merge, a rescore,
moves it), the `league` scope's (a rename, a new chart), the epoch, and whether the caller acts
for its venue (R19: who reported it). The page is labelled over all its players, as the schema
labels it: each report's JSON is kept for each set of its players the page numbers, so a page
whose numbering a report does not change reuses that report's JSON as it is."""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from cachetools import LRUCache
from flask import Flask, Response, current_app

from api.fields import utc_timestamp
from api.schemas import Label
from models.actor import Actor
from models.rules.players import numbered_players, player_label
from models.services.freshness import data_version, report_scope, scope_versions
from models.services.paging import PageRequest
from models.services.tournaments.queries import ReportFilters, SeenWithRows, report_places, reports_seen_by

Key = tuple[str, int, int, int, bool]


# Where a player's label goes in a report's kept JSON (no display name is this: it is made anew
# by each process, and a label is cut out only where it is a whole JSON string).
_LABEL = f"label {secrets.token_hex(12)}"
_LABEL_JSON = re.compile(re.escape(json.dumps(_LABEL)[:-1]) + r' (\d+)"')


class _ReportJson:
    """One report's players and its JSON, cut where each player's label goes (R19: a page labels
    its players over the whole page, so a report's labels depend on the page it is on), and
    written for each set of its players a page numbers by putting the labels in. Only the JSON
    is kept, not the answer's objects (a national page's reports would hold ten times the
    memory)."""

    def __init__(self, answer: Callable[[Label], dict[str, Any]]) -> None:
        """`answer`: the report's answer, each player's label given by the function passed."""
        placed: list[tuple[int, str]] = []

        def placeholder(player_id: int, name: str) -> str:
            placed.append((player_id, name))
            return f"{_LABEL} {len(placed) - 1}"

        cut = _LABEL_JSON.split(current_app.json.dumps(answer(placeholder)))
        self.players = placed
        self.ids = frozenset(player_id for player_id, _name in placed)
        # cut: JSON, a placeholder's index, JSON, …, JSON.
        self._pieces = cut[::2]
        in_order = [placed[int(index)] for index in cut[1::2]]
        self._placed = [player_id for player_id, _name in in_order]
        # Each label as JSON, plain and numbered (a string's JSON as the app writes it).
        ascii_only = getattr(current_app.json, "ensure_ascii", True)
        self._labels = [
            tuple(
                json.dumps(player_label(player_id, name, numbered), ensure_ascii=ascii_only)
                for numbered in (False, True)
            )
            for player_id, name in in_order
        ]
        self._written: dict[frozenset[int], str] = {}

    def written(self, numbered: frozenset[int]) -> str:
        found = self._written.get(numbered)
        if found is None:
            parts = [self._pieces[0]]
            for player_id, labels, piece in zip(self._placed, self._labels, self._pieces[1:], strict=True):
                parts.append(labels[player_id in numbered])
                parts.append(piece)
            found = self._written[numbered] = "".join(parts)
        return found


def page_answer(seen: SeenWithRows, label: Label) -> dict[str, Any]:
    """A report's answer as `ReportOut` dumps it (tests/api/tournaments/test_report_pages.py holds them
    equal, field for field), its players labelled by `label`: written directly, as a page of
    fifty reports holds a thousand results, and the schema's dump of them was most of the cost of
    a page read afresh."""
    return {
        "id": seen.id,
        "venue_id": seen.venue_id,
        "season_id": seen.season_id,
        "date": seen.date.isoformat(),
        "session": seen.session,
        "kind": seen.kind,
        "entrants": seen.entrants,
        "version": seen.version,
        "voided": seen.voided,
        "voided_at": utc_timestamp(seen.voided_at),
        "void_reason": seen.void_reason,
        "reported_by": seen.reported_by,
        "reported_by_role": seen.reported_by_role,
        "created_at": utc_timestamp(seen.created_at),
        "updated_at": utc_timestamp(seen.updated_at),
        "results": [
            {
                "place": row.place,
                "player": {
                    "id": row.player.id,
                    "display_name": row.player.display_name,
                    "label": label(row.player.id, row.player.display_name),
                },
                "status": row.status,
                "placement_points": row.placement_points,
                "participation_points": row.participation_points,
                "points": row.points,
            }
            for row in seen.rows
        ],
    }


class ReportAnswers:
    """This app's reports' answers, a few national pages' worth (a report's is about thirty
    objects), least recently used dropped first. Per app, as its cache is (api/cache.py): an
    answer is filed under its database's epoch and versions, which another database (a copy of
    the same backup) may repeat."""

    def __init__(self, size: int = 4096) -> None:
        self._answers: LRUCache[Key, _ReportJson] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, keys: dict[int, Key]) -> dict[int, _ReportJson | None]:
        with self._lock:
            return {report_id: self._answers.get(key) for report_id, key in keys.items()}

    def put(self, answers: dict[Key, _ReportJson]) -> None:
        with self._lock:
            for key, answer in answers.items():
                self._answers[key] = answer

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()


def init_app(app: Flask) -> None:
    app.extensions["league_report_answers"] = ReportAnswers()


def page_body(session: Any, actor: Actor, filters: ReportFilters, request: PageRequest) -> Response:
    """The page as JSON: the reports' places, their scopes' versions, then only the reports not
    kept under those versions read and dumped; the page written from the reports' JSON."""
    epoch, _version = data_version(session)
    page = report_places(session, actor, filters, request)
    scopes = ["league", *(report_scope(place.id) for place in page.items)]
    versions = dict(zip(scopes, scope_versions(session, scopes), strict=True))
    keys = {
        place.id: (
            epoch,
            place.id,
            versions["league"],
            versions[report_scope(place.id)],
            actor.acts_for(place.venue_id),
        )
        for place in page.items
    }
    kept: ReportAnswers = current_app.extensions["league_report_answers"]
    answers = kept.get(keys)
    missing = [report_id for report_id, answer in answers.items() if answer is None]
    if missing:
        made = {
            seen.id: _ReportJson(partial(page_answer, seen))
            for seen in reports_seen_by(session, actor, missing)
        }
        kept.put({keys[report_id]: answer for report_id, answer in made.items()})
        answers.update(made)
    items = [cast(_ReportJson, answers[place.id]) for place in page.items]
    numbered = numbered_players(player for item in items for player in item.players)
    written = [item.written(item.ids & numbered) for item in items]
    rest = {"total": page.total, "page": page.page, "per_page": page.per_page, "pages": page.pages}
    body = '{"items": [' + ", ".join(written) + "], " + current_app.json.dumps(rest)[1:]
    return Response(body, mimetype="application/json")
