"""Limits beyond Flask-Limiter's per-caller default (app.py): failed keys per address, tighter than
normal traffic, so guessing keys is slow; writes per key; and per host's key, the emails and
membership numbers that named no player in reports (R19: api/reports/intake.py) or were found
taken by a registration (api/players/routes.py), so that neither door tests whom the league knows;
and per address, the requests to subscribe an email to the weekly email, each counted alike.
Kept in the limiter's storage (memory per process, or Redis via RATELIMIT_STORAGE_URI, shared by
every worker)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import current_app, request
from flask_limiter import Limiter
from limits import RateLimitItem, parse
from werkzeug.exceptions import TooManyRequests

from models.actor import Actor
from models.errors import LeagueError
from models.infra import clock
from models.rules.identification import name_only

# R19: a host's key's allowance of emails and membership numbers that name no player (in a
# report) or name someone already registered (in a registration).
UNKNOWN_IDENTIFIERS = "RATELIMIT_UNKNOWN_IDENTIFIERS"
# R19, R23: an address's allowance of requests to subscribe an email, known or not.
EMAIL_SUBSCRIPTIONS = "RATELIMIT_EMAIL_SUBSCRIPTIONS"


@functools.lru_cache(maxsize=16)
def _parsed(limit: str) -> RateLimitItem:
    """A limit as configured ("20 per 10 minutes"), parsed once (it is asked on every keyed request)."""
    return parse(limit)


def _item(setting: str) -> RateLimitItem:
    return _parsed(current_app.config[setting])


def _limiter() -> Limiter:
    limiter: Limiter = current_app.extensions["league_limiter"]
    return limiter


def _keyed(setting: str, who: tuple[str, ...]) -> tuple[str, ...]:
    """A limit's identifiers in the storage, behind RATELIMIT_KEY_PREFIX as Flask-Limiter's own."""
    prefix: str = current_app.config.get("RATELIMIT_KEY_PREFIX", "")
    return (prefix, setting, *who) if prefix else (setting, *who)


def refuse_when_over(setting: str, *who: str) -> None:
    """A 429 (with Retry-After) when `who` used up the limit named by the config `setting`."""
    limiter = _limiter()
    if not limiter.enabled:
        return
    if not limiter.limiter.test(_item(setting), *_keyed(setting, who)):
        raise _too_many(limiter, setting, who)


def take(setting: str, *who: str) -> None:
    """Count one more, or a 429 when the limit is used up."""
    limiter = _limiter()
    if limiter.enabled and not limiter.limiter.hit(_item(setting), *_keyed(setting, who)):
        raise _too_many(limiter, setting, who)


def spend(setting: str, cost: int, *who: str) -> None:
    """Count `cost` more at once; a 429 when that goes past the limit, which is then used up (a
    moving window records nothing that does not fit: what is left is taken, so the next request
    meets the 429 too)."""
    limiter = _limiter()
    if not limiter.enabled or cost <= 0:
        return
    item, keyed = _item(setting), _keyed(setting, who)
    if limiter.limiter.hit(item, *keyed, cost=cost):
        return
    _reset, remaining = limiter.limiter.get_window_stats(item, *keyed)
    if remaining > 0:
        limiter.limiter.hit(item, *keyed, cost=remaining)
    raise _too_many(limiter, setting, who)


def _too_many(limiter: Limiter, setting: str, who: tuple[str, ...]) -> TooManyRequests:
    reset, _remaining = limiter.limiter.get_window_stats(_item(setting), *_keyed(setting, who))
    wait = max(1, int(reset - clock.now().timestamp() + 0.999))
    messages = {
        "RATELIMIT_AUTH_FAILURES": "Too many requests with a wrong API key from this address",
        "RATELIMIT_WRITES": "Too many changes with this API key",
        "RATELIMIT_UNKNOWN_IDENTIFIERS": (
            "Too many emails or membership numbers that name no player in reports with this API key "
            "(name players by id or name meanwhile)"
        ),
        "RATELIMIT_EMAIL_SUBSCRIPTIONS": "Too many requests for the weekly email from this address",
    }
    return TooManyRequests(
        f"{messages.get(setting, 'Too many requests')}: try again in {wait} s.", retry_after=wait
    )


def _identifiers_counted(actor: Actor) -> tuple[str, ...] | None:
    """R19: whose allowance a caller's unknown identifiers use (a host's key), or None. The office
    may read every player's email and membership number: its misses tell it nothing."""
    if actor.is_host and actor.key_id is not None:
        return ("key", str(actor.key_id))
    return None


def refuse_when_identifiers_spent(actor: Actor) -> None:
    """R19: a 429 (with Retry-After), before anything is looked up, when the caller's key used up
    its allowance of identifiers that named no one (or someone already registered)."""
    who = _identifiers_counted(actor)
    if who is not None:
        refuse_when_over(UNKNOWN_IDENTIFIERS, *who)


def names_by_identifier(rows: Any) -> bool:
    """Whether any row gives an email or a membership number (a new player's too), a full name
    alone, or a knocker by name: what a key over its allowance may not send (R19)."""
    if not isinstance(rows, list):
        return False
    for row in rows:
        if not isinstance(row, dict):
            continue
        if name_only(row):
            return True
        new = row.get("new_player")
        given = [row.get("email"), row.get("membership_number"), row.get("knocked_out_by_name")]
        if isinstance(new, dict):
            given += [new.get("email"), new.get("membership_number")]
        if any(value is not None for value in given):
            return True
    return False


def refuse_when_naming_spent(actor: Actor, rows: Any) -> None:
    """R19: a 429 (with Retry-After), before anything is looked up, for rows (a report's, or a
    sign-in's one) naming any email, membership number or name from a key that used up its
    allowance of identifiers naming no one. Rows naming players by id still go in."""
    if names_by_identifier(rows):
        refuse_when_identifiers_spent(actor)


@contextmanager
def counting_identifier_misses(actor: Actor) -> Iterator[None]:
    """R19: around a check that looks players up by email or membership number: a refusal's
    misses (`LeagueError.identifier_misses`) count against a host's key, and a refusal that goes
    past the allowance is a 429 instead (naming nothing a sweep would learn)."""
    try:
        yield
    except LeagueError as exc:
        who = _identifiers_counted(actor)
        if who is not None:
            spend(UNKNOWN_IDENTIFIERS, exc.identifier_misses, *who)
        raise


def count_subscription_request() -> None:
    """R19, R23: one more request to subscribe an email from the caller's address (the API's and
    the page's alike), counted before anything is stored and whatever the email names, so that
    neither the answer nor the limit says whether it is a player's; past the allowance, a 429."""
    take(EMAIL_SUBSCRIPTIONS, "address", request.remote_addr or "unknown")
