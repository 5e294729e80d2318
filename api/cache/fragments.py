"""JSON fragments cached for answers written from many parts (a page of reports, a season's
qualifier lists): each part's JSON is written once and cached (in the reading session's FRAGMENTS
memo, through models/freshness/memos.py, under the versions of the scopes the part was read at),
so after a write only the parts it changed are written again.

A part's players are labelled over the whole answer (R19: the player number is added where two
players of the answer share a display name), so a part's labels depend on the answer it is in.
`LabelledJson` writes the part once with a placeholder where each label goes, and puts the
labels in for each set of its players that an answer numbers."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Collection
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

from flask import current_app

from api.schemas import Label
from models.rules.players import player_label

# Where a player's label goes (no display name is this: it is made anew by each process, and a
# label is cut out only where it is a whole JSON string).
_LABEL = f"label {secrets.token_hex(12)}"
_LABEL_JSON = re.compile(re.escape(json.dumps(_LABEL)[:-1]) + r' (\d+)"')


class LabelledJson:
    """A value's JSON with its players' labels left to put in: `players` (id, display name) in
    the order the value names them, and `written(numbered)` the JSON with each label in, numbered
    for the players in `numbered`. Only the JSON is kept, not the value's objects."""

    def __init__(self, value: Callable[[Label], Any]) -> None:
        """`value`: the value, each player's label given by the function passed."""
        placed: list[tuple[int, str]] = []

        def placeholder(player_id: int, name: str) -> str:
            placed.append((player_id, name))
            return f"{_LABEL} {len(placed) - 1}"

        cut = _LABEL_JSON.split(current_app.json.dumps(value(placeholder)))
        self.players = placed
        self.ids = frozenset(player_id for player_id, _name in placed)
        # cut: JSON, a placeholder's index, JSON, …, JSON.
        self._pieces = cut[::2]
        in_order = [placed[int(index)] for index in cut[1::2]]
        self._placed = [player_id for player_id, _name in in_order]
        # Each label as JSON, plain and numbered (a string's JSON as the app writes it).
        # (json.dumps of a string is one of these two, without its per-call set-up: a national
        # season's lists have tens of thousands of labels.)
        ascii_only = getattr(current_app.json, "ensure_ascii", True)
        string = encode_basestring_ascii if ascii_only else encode_basestring
        self._labels = [
            (string(player_label(player_id, name, False)), string(player_label(player_id, name, True)))
            for player_id, name in in_order
        ]
        self._written: dict[frozenset[int], str] = {}

    def written(self, numbered: Collection[int]) -> str:
        mine = self.ids.intersection(numbered)
        found = self._written.get(mine)
        if found is None:
            parts = [self._pieces[0]]
            for player_id, labels, piece in zip(self._placed, self._labels, self._pieces[1:], strict=True):
                parts.append(labels[player_id in mine])
                parts.append(piece)
            found = self._written[mine] = "".join(parts)
        return found
