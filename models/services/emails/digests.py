"""R23: the weekly digest of each player who asked for it, composed on the league's clock (R2a):
from Monday 08:00, and later in the week for a player whose digest of the week is missing (one
who asked on a Wednesday gets that week's). Each is queued once per player and week (the
message's unique key: of two workers composing it, one stores it). The delivery worker calls
`queue_digests` on every pass: when nothing is missing it costs one query."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.entities import EmailConsent, EmailMessage, Player, Season
from models.infra import clock
from models.rules.emails import DIGEST, Digest, Game, Rating, Standing, compose, digest_week
from models.rules.qualifier_lists import VenueList, venue_of
from models.rules.qualifiers import SkipReason
from models.services import wall_clock
from models.services.qualifiers.queries import season_qualification
from models.services.ratings.queries import player_rating
from models.services.standings.queries import player_seasons
from models.services.venues.schedule_queries import games_between

# Digests composed in one pass (one transaction); the next pass composes the rest.
BATCH = 50
COMING_DAYS = 7


def naive_utc(instant: datetime) -> datetime:
    """An instant as the columns store it: naive UTC."""
    return instant if instant.tzinfo is None else instant.astimezone(UTC).replace(tzinfo=None)


def players_missing(session: Session, period: str, most: int) -> list[Player]:
    """Players who asked for the weekly email, have an address, are not merged away, and have no
    digest of this period yet, by id."""
    composed = exists().where(
        EmailMessage.player_id == Player.id, EmailMessage.kind == DIGEST, EmailMessage.period == period
    )
    query = (
        select(Player)
        .join(EmailConsent, EmailConsent.player_id == Player.id)
        .where(Player.email.is_not(None), Player.merged_into_id.is_(None), ~composed)
        .order_by(Player.id)
        .limit(most)
    )
    return list(session.scalars(query))


def queue_digests(session: Session, now: datetime, most: int = BATCH) -> int:
    """R23: compose this week's digest for each consenting player who has none (at most `most`
    in one call), in the caller's transaction; how many were queued."""
    words = wall_clock.people_dates(session)  # R24: the digest's dates, as the league says them
    local = clock.local_time(now, words.zone)
    week = digest_week(local)
    if week is None:
        return 0
    monday, period = week
    players = players_missing(session, period, most)
    lists: dict[int, list[VenueList]] = {}  # each season's qualifier lists, computed once a call
    stamp = naive_utc(now)
    queued = 0
    for player in players:
        subject, body = compose(digest_of(session, player, monday, local.date(), lists), words)
        message = EmailMessage(
            player_id=player.id,
            kind=DIGEST,
            period=period,
            subject=subject,
            body=body,
            state="pending",
            next_attempt_at=stamp,
            created_at=stamp,
        )
        try:
            with session.begin_nested():
                session.add(message)
                session.flush()
        except IntegrityError:
            continue  # another worker queued it first
        queued += 1
    return queued


def digest_of(
    session: Session, player: Player, monday: date, today: date, lists: dict[int, list[VenueList]]
) -> Digest:
    """What the player's digest says: their standing at each venue they played in a season that
    is on today (R11), how far from the venue's cut (R12), their venues' nights in the coming
    week (R2a) and their rating (R20)."""
    record, played = player_seasons(session, player)
    standings = []
    venues: dict[int, str] = {}
    for line in record:
        season = played.seasons.get(line["season_id"], (None, []))[0]
        if season is None or not season.starts_on <= today <= season.ends_on or line["rank"] is None:
            continue
        venues[line["venue_id"]] = line["venue_name"]
        standings.append(_standing(session, player.id, season, line, lists))
    home = player.home_venue_id
    return Digest(
        player.display_name,
        monday,
        tuple(standings),
        _games(session, sorted({*venues, *([home] if home is not None else [])}), today),
        _rating(session, player.id),
    )


def _standing(
    session: Session, player_id: int, season: Season, line: dict[str, Any], lists: dict[int, list[VenueList]]
) -> Standing:
    """One (season, venue) line of the player's standings, with the venue's cut as the season's
    qualifier lists stand now (R12-R14: the quota, the last qualifier's points)."""
    if season.id not in lists:
        lists[season.id] = season_qualification(session, season, current=True).lists
    venue_id = int(line["venue_id"])
    found = venue_of(lists[season.id], venue_id)
    qualifiers = found["qualifiers"] if found else []
    elsewhere = any(
        s["player"]["id"] == player_id and s["reason"] == SkipReason.QUALIFIED_ELSEWHERE
        for s in (found["skipped"] if found else [])
    )
    return Standing(
        venue=line["venue_name"],
        season=line["season_name"],
        rank=line["rank"],
        tied=line["tied"],
        points=line["points"],
        played=line["played"],
        quota=found["quota"] if found else 0,
        cut_points=qualifiers[-1]["points"] if qualifiers else None,
        inside=any(q["player"]["id"] == player_id for q in qualifiers),
        elsewhere=elsewhere,
    )


def _games(session: Session, venue_ids: list[int], today: date) -> tuple[Game, ...]:
    """The nights of these venues from today for a week, in order (R2a: each on its venue's clock)."""
    last = today + timedelta(days=COMING_DAYS - 1)
    games = [
        game for venue_id in venue_ids for game in games_between(session, today, last, venue_id=venue_id)
    ]
    games.sort(key=lambda g: (g.scheduled.date, g.scheduled.starts_at, g.venue.name.casefold()))
    return tuple(Game(g.scheduled.date, g.local_start, g.venue.name, g.scheduled.cancelled) for g in games)


def _rating(session: Session, player_id: int) -> Rating | None:
    rating = player_rating(session, player_id)
    if rating is None:
        return None
    return Rating(rating["rating"], bool(rating["provisional"]), int(rating["tournaments"]))
