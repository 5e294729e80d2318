"""Qualification writes (R12, R13, R18): the office disqualifies a player for a season (and may
withdraw it), and publishes the season's qualifier lists, settling ties at the cut by naming who
goes. Each is audited; a publication is frozen as it was."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Season
from models.entities.players import Player
from models.entities.qualifiers import Disqualification, QualifierPublication
from models.errors import Conflict, Problem, refuse
from models.infra.clock import utcnow
from models.rules.qualifier_lists import VenueList, draws_of, qualified, tied_at_cut
from models.rules.qualifiers import provisional
from models.services import wall_clock
from models.services.access import may_disqualify, may_publish_qualifiers, may_withdraw_disqualification
from models.services.audit_log.personal_text import scrub_erased
from models.services.audit_log.writes import record, snapshot
from models.services.locks import take_season
from models.services.players.survivors import merged_away_problem
from models.services.qualifiers.lists import compute_lists
from models.services.qualifiers.queries import latest_publication
from models.services.webhooks.tell import qualifiers_told


def disqualify(
    session: Session, actor: Actor, season: Season, player_id: int, reason: str
) -> Disqualification:
    """R13: the player is skipped at every venue of the season; their results still stand."""
    may_disqualify(actor)
    player = session.get(Player, player_id)
    if player is None:
        refuse(
            "The disqualification cannot be recorded",
            [Problem("player_id", f"There is no player with id {player_id}.")],
        )
    assert player is not None
    # R17: the id names the final survivor, whose record holds the results: the office
    # disqualifies that one, by its own id.
    merged = merged_away_problem(session, player, "player_id", "disqualify")
    refuse("The disqualification cannot be recorded", [merged] if merged else [])
    standing = session.scalar(
        select(Disqualification.id).where(
            Disqualification.season_id == season.id,
            Disqualification.player_id == player_id,
            Disqualification.withdrawn_at.is_(None),
        )
    )
    if standing is not None:
        raise Conflict(
            f"Player {player_id} is already disqualified for season {season.id} "
            f"(disqualification {standing}).",
            problems=[Problem("player_id", f"Already disqualified ({standing}).")],
        )
    item = Disqualification(
        season_id=season.id,
        player_id=player_id,
        reason=reason,
        created_by=actor.name,
        created_by_key_id=actor.key_id,
    )
    session.add(item)
    session.flush()
    record(
        session,
        actor,
        "disqualification.create",
        "disqualification",
        item.id,
        after=snapshot(item),
        reason=reason,
    )
    return item


def withdraw_disqualification(
    session: Session, actor: Actor, item: Disqualification, reason: str
) -> Disqualification:
    """R13: the player may qualify again; the record stays with who withdrew it and why."""
    may_withdraw_disqualification(actor)
    # R17a: once, however many withdrawals race: one conditional write, the losers find no row.
    # R21: a Core UPDATE, which the ORM's flush does not scrub of erased values: scrubbed here.
    withdrawn = {
        "withdrawn_at": utcnow(),
        "withdrawn_by": actor.name,
        "withdraw_reason": scrub_erased(session, reason),
    }
    won = session.execute(
        update(Disqualification)
        .where(Disqualification.id == item.id, Disqualification.withdrawn_at.is_(None))
        .values(**withdrawn)
        .returning(Disqualification.id)
        .execution_options(synchronize_session=False)
    ).first()
    session.refresh(item)
    if won is None:
        raise Conflict(
            f"Disqualification {item.id} was already withdrawn on {item.withdrawn_at:%Y-%m-%d} "
            f"by {item.withdrawn_by}.",
            rule="R17a",
            problems=[Problem("reason", f"Already withdrawn: {item.withdraw_reason}", "R17a")],
        )
    before = {**snapshot(item), **{name: None for name in withdrawn}}
    record(
        session,
        actor,
        "disqualification.withdraw",
        "disqualification",
        item.id,
        before=before,
        after=snapshot(item),
        reason=reason,
    )
    return item


def publish(
    session: Session,
    actor: Actor,
    season: Season,
    note: str | None,
    settlements: Sequence[dict[str, int]],
) -> QualifierPublication:
    """R12: after the season's last day, freeze the current lists as the official ones. Each
    settlement names who goes in a tie at the cut (the league's draw): the named players go first
    among those level with them at that venue, and the lists are computed with that order.

    R17a: the same lists are published once. The season is locked first (locks.py), so of two
    publications at once the second sees the first; lists and settlements equal to the latest
    publication's are refused (409), naming it."""
    may_publish_qualifiers(actor)
    season = take_season(session, season)
    problems: list[Problem] = []
    today = wall_clock.in_league(session)
    if provisional(season.ends_on, today):
        problems.append(
            Problem(
                "ends_on",
                f"The season runs until {season.ends_on.isoformat()}; publish its lists after its last day.",
                "R12",
            )
        )
    previous = latest_publication(session, season.id)
    draws = draws_of(previous.settlements if previous else [])
    named, settlement_problems = _settled(season, compute_lists(session, season, draws), settlements)
    refuse("The lists cannot be published", [*problems, *settlement_problems])
    draws.update(named)
    lists = compute_lists(session, season, draws)
    settled = [{"venue_id": v, "player_id": p} for v, players in sorted(draws.items()) for p in players]
    if previous is not None and (_frozen(previous.lists), previous.settlements) == (_frozen(lists), settled):
        raise Conflict(
            f"These lists of season {season.id} were already published: publication {previous.id}, "
            f"on {previous.published_at:%Y-%m-%d %H:%M} UTC by {previous.published_by}, holds the "
            "same lists and settlements.",
            rule="R17a",
            problems=[Problem("", f"Already published as publication {previous.id}.", "R17a")],
        )
    publication = QualifierPublication(
        season_id=season.id,
        published_by=actor.name,
        published_by_key_id=actor.key_id,
        note=note,
        settlements=settled,
        lists=lists,
    )
    session.add(publication)
    session.flush()
    record(
        session,
        actor,
        "qualifiers.publish",
        "season",
        season.id,
        before=None
        if previous is None
        else {"publication_id": previous.id, "qualified": _by_venue(previous.lists)},
        after={
            "publication_id": publication.id,
            "published_on": wall_clock.in_league(session).isoformat(),
            "settlements": publication.settlements,
            "qualified": _by_venue(lists),
        },
        reason=note,
    )
    qualifiers_told(session, season, publication.id)  # R23
    return publication


def _settled(
    season: Season, lists: Sequence[VenueList], settlements: Sequence[dict[str, int]]
) -> tuple[dict[int, list[int]], list[Problem]]:
    """R12: who each settlement sends through a tie at the cut, by venue, and what is wrong with
    those that name no venue's list or no player in its tie."""
    named: dict[int, list[int]] = {}
    problems: list[Problem] = []
    for index, item in enumerate(settlements):
        tied = tied_at_cut(lists, item["venue_id"])
        if tied is None:
            problems.append(
                Problem(
                    f"settlements.{index}.venue_id",
                    f"Venue {item['venue_id']} has no qualifier list in season {season.id}.",
                )
            )
        elif item["player_id"] not in tied:
            problems.append(
                Problem(
                    f"settlements.{index}.player_id",
                    f"Player {item['player_id']} is not in a tie at the cut at venue {item['venue_id']}"
                    + (
                        f" (tied there: {', '.join(map(str, sorted(tied)))})." if tied else " (no tie there)."
                    ),
                    "R12",
                )
            )
        else:
            named.setdefault(item["venue_id"], []).append(item["player_id"])
    return named, problems


def _frozen(lists: Sequence[VenueList]) -> str:
    """Lists as a publication freezes them (JSON), to tell whether two are the same."""
    return json.dumps(lists, sort_keys=True)


def _by_venue(lists: Sequence[VenueList]) -> dict[str, list[int]]:
    """Who qualified at each venue, for the audit log."""
    by_venue: dict[str, list[int]] = {}
    for player_id, venue_id in qualified(lists).items():
        by_venue.setdefault(str(venue_id), []).append(player_id)
    return by_venue
