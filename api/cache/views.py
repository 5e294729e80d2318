"""What each view reads, declared on the view as flask-smorest's `@blp.etag` is: the scopes its
answers are cached by (`@cached_by(a_venue)`), or that it is never cached (`@never_cached`). Every
GET the cache keys (under /api/ and /embed/, the front door, the league's site) declares one:
`check_declarations` fails at the app's start on one that does not. A view keyed by the whole
data version (any write to league data retires it) says so, and why, at the view:
`@cached_by(DATA_VERSION, why="...")`; what it reads that no data version moves (the outbox's
tables, R23; a night's live state, R22) it declares besides (`plus=`, `also=`).
Adding a cached read is one decorator (and, if it reads a new table, one entry in
models/freshness/tables.py); tests/api/cache/test_reads_covered.py asks every cached view and
fails on a table it read that its declaration does not cover."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask, current_app, request
from werkzeug.routing import Rule

from models.freshness.memos import season_ids
from models.freshness.scopes import Scope, season_scopes, venue_scopes

V = TypeVar("V")

# The scopes an answer reads, from the view's arguments, the query and the session; None: the
# league's data version (the answer reads more than any scope says).
Scopes = Callable[[Mapping[str, Any], Mapping[str, str], Any], Sequence[str] | None]


@dataclass(frozen=True)
class Policy:
    scopes: Scopes | None = None  # None: keyed by the data version (never cached, or undeclared)
    why: str = ""  # why an answer keyed by the whole data version is (`DATA_VERSION`)
    refusals: bool = False  # its 422s are cached as its 200s are
    by_host: bool = False  # its answer names the host it was asked of
    writes: bool = False  # a GET that writes: given a writer's session, and never cached
    # More the answer is keyed by, from the view's arguments, the query and the session: a
    # record's own version where no scope holds it (a night's sequence and clock, R22).
    also: Scopes | None = None
    # The tables whose every change moves what `also` reads (a night's sequence moves with each
    # of its actions: NIGHT_TABLES), said so that a test can hold the view's reads to them.
    also_covers: frozenset[str] = frozenset()
    # Scopes keyed by besides what `scopes` says (the data version, when it says None): what the
    # answer reads that no data version moves.
    plus: tuple[str, ...] = ()


_ATTRIBUTE = "cache_policy"
# What a view outside the cache (the console's pages, the docs) is given: it declares nothing.
UNDECLARED = Policy()


def DATA_VERSION(_view: Mapping[str, Any], _args: Mapping[str, str], _session: Any) -> None:  # noqa: N802
    """The whole league's data version: any write to league data retires the answer. Said at the
    view, with why (`@cached_by(DATA_VERSION, why="...")`)."""
    return None


def cached_by(
    scopes: Scopes,
    *,
    why: str = "",
    refusals: bool = False,
    by_host: bool = False,
    also: Scopes | None = None,
    also_covers: Collection[str] = (),
    plus: Sequence[str] = (),
) -> Callable[[V], V]:
    """Cache the view's answers by the versions of `scopes` (`DATA_VERSION`: the data version,
    with `why` it must be; a scopes function may answer None for the data version too); with
    `refusals`, its refusals too (a preview's refusal may cost as much as its answer); with
    `by_host`, keyed by the host name it was asked of (a page naming it in a link); with `also`,
    keyed by what it says too (a record's own version), which every change to the tables
    `also_covers` moves; with `plus`, by these scopes' versions besides."""

    if scopes is DATA_VERSION and not why.strip():
        raise TypeError("a view keyed by the whole data version says why: @cached_by(DATA_VERSION, why=...)")

    def mark(view: V) -> V:
        policy = Policy(
            scopes=scopes,
            why=why,
            refusals=refusals,
            by_host=by_host,
            also=also,
            also_covers=frozenset(also_covers),
            plus=tuple(plus),
        )
        setattr(view, _ATTRIBUTE, policy)
        return view

    return mark


def never_cached(view: V) -> V:
    """A GET that writes (a player's data export is audited each time it is read, R21): never
    cached, and given a writer's session (on PostgreSQL a reader's REPEATABLE READ snapshot would
    refuse the audit entry's bump of the data version once another write committed meanwhile)."""
    setattr(view, _ATTRIBUTE, Policy(writes=True))
    return view


def page_defaults() -> frozenset[tuple[str, str]]:
    """A list's page arguments at their defaults (`page=1`, `per_page=50`), which ask for what
    leaving them out asks for (the answer says them alike): keyed as if left out, so the
    refresher's first page is the website's. Empty for a view that takes no page arguments."""
    view = current_app.view_functions.get(request.endpoint or "")
    method = getattr(getattr(view, "view_class", None), "get", view)
    for parameter in getattr(method, "_apidoc", {}).get("arguments", {}).get("parameters", []):
        declared = getattr(parameter.get("schema"), "_declared_fields", {})
        if parameter.get("in") == "query" and "page" in declared and "per_page" in declared:
            return frozenset((name, str(declared[name].load_default)) for name in ("page", "per_page"))
    return frozenset()


def policy() -> Policy:
    """The policy of the request's view."""
    view = current_app.view_functions.get(request.endpoint or "")
    found: Policy = getattr(getattr(view, "view_class", view), _ATTRIBUTE, UNDECLARED)
    return found


def keyed(rule: Rule) -> bool:
    """Whether the cache keys this route's GETs (api/cache/hooks.py: `_cacheable`)."""
    return "GET" in (rule.methods or ()) and (
        rule.rule.startswith(("/api/", "/embed/")) or rule.rule == "/" or rule.endpoint.startswith("site.")
    )


def declared(app: Flask, rule: Rule) -> Policy | None:
    """The declaration of a route's view, or None."""
    view = app.view_functions[rule.endpoint]
    found: Policy | None = getattr(getattr(view, "view_class", view), _ATTRIBUTE, None)
    return found


def check_declarations(app: Flask) -> None:
    """At the app's start: every view whose GETs the cache keys says what it reads."""
    silent = sorted(
        rule.rule for rule in app.url_map.iter_rules() if keyed(rule) and declared(app, rule) is None
    )
    if silent:
        raise RuntimeError(
            f"views the cache keys must declare what they read (@cached_by or @never_cached): {silent}"
        )


def a_venue(view: Mapping[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    """A venue's answer in a season reads that venue's reports of the season (each venue is its
    own league: R1) and the league's rest."""
    return venue_scopes(view["season_id"], view["venue_id"])


def a_season(view: Mapping[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    """The qualifier lists read every venue of the season (R14 links them)."""
    return season_scopes(view["season_id"])


def a_report(view: Mapping[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    """One report reads its own rows and results, and the league's rest (its venue, its players'
    names)."""
    return (Scope.LEAGUE, Scope.report(view["tournament_id"]))


def the_league(_view: Mapping[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    """Reads only the league's settings, venues, charts, … (R7: a chart's preview)."""
    return (Scope.LEAGUE,)


def the_outbox(_view: Mapping[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    """R23: the office's webhook subscriptions, their delivery log and the events it names, which
    the delivery worker writes as it sends (migration 0033: every write to them moves `outbox`);
    nothing of the league's data."""
    return (Scope.OUTBOX,)


def a_nights_venue(night: Any) -> Sequence[str]:
    """A night's answers read its venue's standings in its season (R22: the standings if the
    night ended now): a report or correction there moves them, with no action of the night.
    No night: the league's."""
    return (Scope.LEAGUE,) if night is None else venue_scopes(night.season_id, night.venue_id)


def _number(args: Mapping[str, str], name: str) -> int | None:
    value = args.get(name)
    # ASCII digits only: "²".isdigit() is true and int() refuses it (the view then names it).
    return int(value) if value is not None and value.isascii() and value.isdigit() else None


def the_filtered_reports(
    _view: Mapping[str, Any], args: Mapping[str, str], session: Any
) -> Sequence[str] | None:
    """A page of reports reads only the reports its filters take: a season's, a venue's in a
    season, or a venue's in every season; unfiltered (or filtered by something unreadable, which
    the view refuses), the data version."""
    season, venue = _number(args, "season_id"), _number(args, "venue_id")
    if ("season_id" in args and season is None) or ("venue_id" in args and venue is None):
        return None
    if venue is None:
        return None if season is None else season_scopes(season)
    if season is not None:
        return venue_scopes(season, venue)
    return (Scope.LEAGUE, *(Scope.venue(season_id, venue) for season_id in season_ids(session)))
