"""Output schemas shared by several resources, and `Answer`, the base of every answer's schema."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, ClassVar, TypeVar

from marshmallow import Schema, fields, post_dump, validate
from marshmallow.schema import SchemaMeta

from models.rules.notices import NOTICE_CODES
from models.rules.players import numbered_players, player_label

T = TypeVar("T")


class AnswerMeta(SchemaMeta):
    """Marks every declared field of an answer required (always present) in the spec, unless the
    schema names it in OPTIONAL: generated clients then get plain attributes, not `Unset`."""

    def __new__(mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> AnswerMeta:
        klass = super().__new__(mcs, name, bases, attrs)
        optional = getattr(klass, "OPTIONAL", ())
        for field_name, field in klass._declared_fields.items():
            field.required = field_name not in optional
        return klass  # type: ignore[return-value]


class Answer(Schema, metaclass=AnswerMeta):
    """The schema of an answer (output only). Fields that may be absent go in OPTIONAL; fields
    that may be null say allow_none."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ()


LABEL_WORDS = (
    "How to show the player (R19): the display name, followed by the player number where another "
    'player of this answer shares the display name ("Crystal K. #48"); else the display name alone.'
)


def _own_label(player: Any) -> str:
    """A player's label where no other player is in sight (one player's answer): the display
    name. An answer listing several players labels them together (`with_labels`)."""
    if isinstance(player, dict):
        return str(player.get("label") or player["display_name"])
    return str(player.display_name)


def label_field() -> fields.Function:
    return fields.Function(_own_label, metadata={"type": "string", "description": LABEL_WORDS})


class PlayerRef(Answer):
    """How the public sees a player anywhere in a response (R19)."""

    id = fields.Integer(metadata={"description": "The player number."})
    display_name = fields.String(metadata={"description": "As registered; two players may share one."})
    label = label_field()


def is_player(value: dict[str, Any]) -> bool:
    return "id" in value and "display_name" in value


def players_in(value: dict[str, Any] | list[Any], found: list[tuple[int, str]]) -> None:
    """Every player of a JSON value, as (id, display name), into `found` (only containers are
    walked into: a national season's lists hold tens of thousands of values)."""
    if type(value) is dict:
        if is_player(value):
            found.append((value["id"], value["display_name"]))
            return
        inners: Any = value.values()
    else:
        inners = value
    for inner in inners:
        if type(inner) is dict or type(inner) is list:
            players_in(inner, found)


def labelled(value: Any, numbered: Collection[int]) -> Any:
    """A copy of plain JSON data with every player in it labelled (R19), those in `numbered`
    with their player number (`with_labels` decides which, over a whole answer)."""
    return relabelled(value, lambda player_id, name: player_label(player_id, name, player_id in numbered))


Label = Callable[[int, str], str]  # a player's label, from their id and display name


def relabelled(value: Any, label: Label) -> Any:
    """A copy of plain JSON data with every player's `label` set to `label(id, display name)`,
    in the order the players appear."""
    if type(value) is dict:
        if is_player(value):
            return {**value, "label": label(value["id"], value["display_name"])}
        return {
            key: relabelled(inner, label) if type(inner) is dict or type(inner) is list else inner
            for key, inner in value.items()
        }
    return [
        relabelled(inner, label) if type(inner) is dict or type(inner) is list else inner for inner in value
    ]


def with_labels(answer: T) -> T:
    """R19: a copy of an answer (plain JSON data) with every player in it (an object with `id`
    and `display_name`) given its `label`, computed over the whole answer: the player number
    is added where two players of the answer share a display name. The answer itself is left
    as it was (it may be a cached or published list). Each object's label is made of its own
    display name: a published list keeps the names it was published with."""
    if type(answer) is not dict and type(answer) is not list:
        return answer
    found: list[tuple[int, str]] = []
    players_in(answer, found)  # type: ignore[arg-type]
    copy: T = labelled(answer, numbered_players(found))
    return copy


class TellsPlayersApart(Answer):
    """An answer that lists several players: once dumped, its players are labelled together
    (`with_labels`), so two who share a display name show their player numbers (R19)."""

    @post_dump
    def _tell_apart(self, data: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
        return with_labels(data)


class WarningOut(Answer):
    """Something accepted but worth a look, e.g. a possible duplicate player (R5)."""

    code = fields.String(validate=validate.OneOf(NOTICE_CODES))
    message = fields.String()
    player_ids = fields.List(fields.Integer())
    rule = fields.String(allow_none=True, metadata={"description": "The league rule behind it, e.g. R5."})


def patch_of(schema: type[Schema]) -> Schema:
    """A PATCH's schema: any top-level field may be left out, but what is sent is whole (a season's
    bonus tier still needs its events and points). marshmallow's `partial=True` would reach into
    nested schemas too."""
    return schema(partial=tuple(schema._declared_fields))
