"""R21: personal values in the league's free text (a sanction's reason, a publication's note, a
cancelled night's note…). Which players a text names (their values are then sealed in the audit
log under their keys, whoever the entry is about), and the erased players' values: scrubbed from
every stored text when they are erased, and kept as keyed digests so that a text written later
that names one of them stores "[erased]" in its place. In the kernel, with the audit log that
seals and scrubs by it: every resource that keeps free text (and the players' erasure) asks here."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any

from sqlalchemy import event, exists, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.entities.data_rights import ErasedValue
from models.entities.merges import PlayerMerge
from models.entities.nights import NightEntry
from models.entities.players import DistinctPlayers, Player
from models.entities.qualifiers import Disqualification, QualifierPublication
from models.entities.reports import Report
from models.entities.sanctions import Sanction
from models.entities.schedules import ScheduleException
from models.infra import sealing
from models.rules.mentions import ERASED, candidates, dates_in, replace_values, spans, value_forms
from models.rules.personal import FREE_TEXT_KEYS
from models.rules.players import normalise_email, normalise_name
from models.services.locks import hold_writes

# Every column of free text the office or a host writes, by entity.
FREE_TEXT: dict[type[Any], tuple[str, ...]] = {
    Sanction: ("reason", "lift_reason"),
    Disqualification: ("reason", "withdraw_reason"),
    PlayerMerge: ("reason", "undo_reason"),
    DistinctPlayers: ("reason",),
    QualifierPublication: ("note",),
    ScheduleException: ("note",),
    Report: ("void_reason",),
    NightEntry: ("override_reason",),
}
# session.info: a write that leaves stored answers holding a personal value (an erasure): the
# answers' cache is emptied once it commits (api/db.py).
PURGE_ANSWERS = "purge_answers"
# A date written in a text is taken for a date of birth only when so few players share it.
MOST_SHARING_A_BIRTHDAY = 20


def free_texts(node: Any) -> Iterator[str]:
    """The free text (under FREE_TEXT_KEYS) in an audit entry's before or after."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in FREE_TEXT_KEYS and isinstance(value, str) and value:
                yield value
            else:
                yield from free_texts(value)
    elif isinstance(node, list):
        for value in node:
            yield from free_texts(value)


def players_mentioned(session: Session, texts: Iterable[str]) -> dict[int, set[str]]:
    """The players whose full name, display name, email, membership number or date of birth
    one of these texts writes (in any spelling), with those values: by indexed lookups of the
    texts' runs of words, never a scan of every player."""
    texts = [text for text in texts if text]
    if not texts:
        return {}
    names: set[str] = set()
    tokens: set[str] = set()
    days: set[date] = set()
    for text in texts:
        for span in spans(text):
            piece = text[span.start : span.end]
            names.add(normalise_name(piece))
            if span.words == 1:
                tokens |= {piece, normalise_email(piece)}
        days |= dates_in(text)
    names.discard("")
    conditions = [Player.name_key.in_(names), Player.display_key.in_(names), Player.email.in_(tokens)]
    conditions.append(Player.membership_number.in_(tokens))
    found: dict[int, set[str]] = {}
    for row in session.execute(
        select(
            Player.id, Player.full_name, Player.display_name, Player.email, Player.membership_number
        ).where(or_(*conditions))
    ):
        found[row[0]] = {value for value in row[1:] if value}
    if days:
        born = session.execute(
            select(Player.id, Player.date_of_birth).where(Player.date_of_birth.in_(days))
        ).all()
        by_day: dict[date, list[int]] = {}
        for player_id, day in born:
            if day is not None:
                by_day.setdefault(day, []).append(player_id)
        for day, ids in by_day.items():
            if len(ids) <= MOST_SHARING_A_BIRTHDAY:
                for player_id in ids:
                    found.setdefault(player_id, set()).add(day.isoformat())
    return found


def forms_of(values: Iterable[str | date]) -> set[str]:
    """The compact forms of personal values (a date of birth in all its written forms)."""
    return {form for value in values for form in value_forms(value)}


def forget(session: Session, values: Iterable[str | date]) -> None:
    """R21: keep the digests of an erased player's values (never the values), so that free text
    written later that names one of them is stored with "[erased]" in its place."""
    keyring = sealing.current()
    rows = [{"digest": keyring.digest(form)} for form in sorted(forms_of(values))]
    if not rows:
        return
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = dialect.insert(ErasedValue).on_conflict_do_nothing(index_elements=["digest"])
    session.connection().execute(statement, rows)


def scrub_erased(session: Session, text: str | None) -> str | None:
    """The text as it is stored: any erased player's value in it replaced by "[erased]" (R21).
    Holds every other writer off first (as a write's first statement does), so that an erasure
    committed meanwhile is seen: a text written beside an erasure is stored scrubbed."""
    if not text:
        return text
    hold_writes(session)  # then ask: an erasure committed meanwhile is seen
    if not session.scalar(select(exists().where(ErasedValue.digest.is_not(None)))):
        return text
    keyring = sealing.current()
    digests = {keyring.digest(form): form for form in candidates(text)}
    found = set(session.scalars(select(ErasedValue.digest).where(ErasedValue.digest.in_(digests))))
    if not found:
        return text
    wanted = {digests[digest] for digest in found}
    return replace_values(text, wanted.__contains__, ERASED)


def scrub_tree(session: Session, node: Any) -> Any:
    """An audit entry's before or after with its free text as `scrub_erased` stores it."""
    if isinstance(node, dict):
        return {
            key: scrub_erased(session, value)
            if key in FREE_TEXT_KEYS and isinstance(value, str)
            else scrub_tree(session, value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [scrub_tree(session, value) for value in node]
    return node


@event.listens_for(Session, "before_flush")
def _scrub_free_text(session: Session, _context: Any, _instances: Any) -> None:
    """Every free text written through the ORM is stored as `scrub_erased` has it."""
    for entity in list(session.new) + list(session.dirty):
        for name in FREE_TEXT.get(type(entity), ()):
            text = getattr(entity, name)
            if text:
                scrubbed = scrub_erased(session, text)
                if scrubbed != text:
                    setattr(entity, name, scrubbed)
