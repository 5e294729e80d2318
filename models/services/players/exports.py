"""R21: everything the league holds about a player, as one document for the office (audited:
reading it is itself an act on personal data)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.audit import AuditEntry
from models.entities.data_rights import Erasure
from models.entities.league import Venue
from models.entities.merges import PlayerMerge
from models.entities.players import DistinctPlayers, Player
from models.entities.qualifiers import Disqualification
from models.entities.reports import Report, Result
from models.entities.sanctions import Sanction
from models.rules.mentions import scrub_text
from models.rules.personal import WITHHELD
from models.services.access import may_export_player
from models.services.audit_log.personal_text import FREE_TEXT_KEYS, forms_of, free_texts, players_mentioned
from models.services.audit_log.queries import read_entries
from models.services.audit_log.writes import plain, record, snapshot
from models.services.lookup import get_or_raise
from models.services.players.email_data import emails_held
from models.services.players.erasures import merge_group
from models.services.ratings.queries import player_rating, rating_history

PERSONAL_FIELDS = ("full_name", "email", "date_of_birth", "membership_number", "pin")


RATING_NUMBERS = ("rating", "mu", "sigma")


def number(value: Decimal | float) -> int | float:
    """A rating as a JSON number, as the ratings API writes it (`api.fields.exact_number`): an
    integer when whole, else a float (the shown rating's two places: 12.3 for 12.30)."""
    if not isinstance(value, Decimal):
        return value  # mu and sigma: floats already
    exact = value.normalize()
    return int(exact) if exact == exact.to_integral_value() else float(exact)


def _in_numbers(values: dict[str, Any]) -> dict[str, Any]:
    """A rating's JSON, its rating, mu and sigma as numbers (not strings)."""
    return {**plain(values), **{name: number(values[name]) for name in RATING_NUMBERS}}


def rating_of(session: Session, player_id: int) -> dict[str, Any] | None:
    """The player's league-wide rating (R20) and its history, one point per rated tournament,
    the rating, mu and sigma as numbers (as the ratings API gives them); None when never rated."""
    rating = player_rating(session, player_id)
    if rating is None:
        return None
    history = [_in_numbers(point) for point in rating_history(session, player_id)]
    return {**_in_numbers(rating), "history": history}


def _personal(player: Player, erased: bool) -> dict[str, Any]:
    if erased:
        return dict.fromkeys(PERSONAL_FIELDS)
    return {
        "full_name": player.full_name or None,
        "email": player.email,
        "date_of_birth": plain(player.date_of_birth),
        "membership_number": player.membership_number,
        "pin": player.pin,
    }


def data_export(session: Session, actor: Actor, player_id: int) -> dict[str, Any]:
    """R21: the player's record (and the records merged into it), personal fields, results with
    their reports and points, sanctions, disqualifications, merges, pairs told apart, rating and
    every audit entry naming them, personal values readable while kept. An erased player's
    export holds the record with no personal values."""
    may_export_player(actor)
    player = get_or_raise(session, Player, player_id, "player")
    group = merge_group(session, player.id)
    erasures = {e.player_id: e for e in session.scalars(select(Erasure).where(Erasure.player_id.in_(group)))}
    records = []
    emails = emails_held(session, group)  # R23: consent and messages, by record
    for record_id in group:
        p = session.get(Player, record_id)
        assert p is not None
        erased = erasures.get(p.id)
        records.append(
            {
                "id": p.id,
                "display_name": p.display_name,
                **_personal(p, erased is not None),
                "home_venue_id": p.home_venue_id,
                "merged_into_id": p.merged_into_id,
                "demo": p.demo,
                "created_at": plain(p.created_at),
                "updated_at": plain(p.updated_at),
                "erased": erased is not None,
                "erased_at": plain(erased.erased_at) if erased else None,
                **emails[p.id],
            }
        )
    results = [
        {
            "report": {
                "id": t.id,
                "venue_id": t.venue_id,
                "venue": venue_name,
                "season_id": t.season_id,
                "date": plain(t.date),
                "session": t.session,
                "kind": t.kind,
                "entrants": t.entrants,
                "voided": t.voided,
            },
            "player_id": r.player_id,
            "place": r.place,
            "status": r.status,
            "placement_points": r.placement_points,
            "participation_points": r.participation_points,
            "knocked_out_by": r.knocked_out_by_id,
            "knockouts": r.knockouts,
            "knockout_points": r.knockout_points,
            "points": r.points,
        }
        for r, t, venue_name in session.execute(
            select(Result, Report, Venue.name)
            .join(Report, Report.id == Result.tournament_id)
            .join(Venue, Venue.id == Report.venue_id)
            .where(Result.player_id.in_(group))
            .order_by(Report.date, Report.session, Report.id)
        )
    ]
    sanctions = list(
        session.scalars(select(Sanction).where(Sanction.player_id.in_(group)).order_by(Sanction.id))
    )
    disqualifications = list(
        session.scalars(
            select(Disqualification)
            .where(Disqualification.player_id.in_(group))
            .order_by(Disqualification.id)
        )
    )
    merges = list(
        session.scalars(
            select(PlayerMerge)
            .where(or_(PlayerMerge.survivor_id.in_(group), PlayerMerge.duplicate_id.in_(group)))
            .order_by(PlayerMerge.id)
        )
    )
    pairs = list(
        session.scalars(
            select(DistinctPlayers)
            .where(or_(DistinctPlayers.low_id.in_(group), DistinctPlayers.high_id.in_(group)))
            .order_by(DistinctPlayers.id)
        )
    )
    reports = sorted(
        {t.id for t in session.scalars(select(Report).join(Result).where(Result.player_id.in_(group)))}
    )
    named = [
        and_(AuditEntry.entity == "player", AuditEntry.entity_id.in_(group)),
        and_(AuditEntry.entity == "sanction", AuditEntry.entity_id.in_([s.id for s in sanctions])),
        and_(
            AuditEntry.entity == "disqualification",
            AuditEntry.entity_id.in_([d.id for d in disqualifications]),
        ),
        and_(AuditEntry.entity == "tournament", AuditEntry.entity_id.in_(reports)),
        and_(
            AuditEntry.entity == "player",
            AuditEntry.action.in_(("player.merge", "player.merge_undo")),
            AuditEntry.entity_id.in_({m.survivor_id for m in merges}),
        ),
    ]
    entries = read_entries(
        session,
        list(session.scalars(select(AuditEntry).where(or_(*named)).order_by(AuditEntry.id))),
        only=group,  # another player's values in an entry naming both are not this player's to read
    )
    document = {
        "player": records[[r["id"] for r in records].index(group_survivor(records))],
        "records": records,
        "results": results,
        # Another player's values in the office's free text are not this player's to read.
        **_withheld(
            session,
            group,
            {
                "sanctions": [snapshot(s) for s in sanctions],
                "disqualifications": [snapshot(d) for d in disqualifications],
                "merges": [snapshot(m) for m in merges],
                "told_apart": [snapshot(p) for p in pairs],
            },
        ),
        # R20: the group's rating is its survivor's (its results are rated there).
        "rating": rating_of(session, group_survivor(records)),
        "audit_log": [
            {
                "id": e.id,
                "at": plain(e.at),
                "actor": e.actor,
                "actor_role": e.actor_role,
                "action": e.action,
                "entity": e.entity,
                "entity_id": e.entity_id,
                "before": e.before,
                "after": e.after,
                "reason": e.reason,
            }
            for e in entries
        ],
    }
    record(
        session,
        actor,
        "player.data_export",
        "player",
        group_survivor(records),
        after={"player_ids": group, "audit_entries": len(entries), "results": len(results)},
    )
    return document


def _withheld(session: Session, group: list[int], parts: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The parts with every other player's personal value in their free text (a reason naming
    the other of a pair told apart, a witness) replaced by "[another player's]" (R21)."""
    texts = {text for rows in parts.values() for row in rows for text in free_texts(row)}
    others = [held for player, held in players_mentioned(session, texts).items() if player not in group]
    forms = forms_of(set().union(*others))
    if not forms:
        return parts
    return {
        name: [
            {
                key: scrub_text(value, forms, WITHHELD)
                if key in FREE_TEXT_KEYS and isinstance(value, str)
                else value
                for key, value in row.items()
            }
            for row in rows
        ]
        for name, rows in parts.items()
    }


def group_survivor(records: list[dict[str, Any]]) -> int:
    return int(next(r["id"] for r in records if r["merged_into_id"] is None))
