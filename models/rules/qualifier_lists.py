"""R3, R12-R14 as data: a season's qualifier lists in the shape a publication freezes (plain JSON)
and every answer shows, typed, and what is read from them: who qualified where, what changed
since a publication, the lists by region, why a player is or is not on a venue's list, and who
may play a playoff or the championship (R3). The lists themselves are computed by
`qualification.qualify` over the standings (models/services/qualifiers/queries.py)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import TypedDict

from models.errors import Problem
from models.rules.notices import Notice, age_unverified
from models.rules.players import age_on
from models.rules.qualifiers import Flag, SkipReason, VenueOutcome
from models.rules.reports import ReportKind


class PlayerRef(TypedDict):
    """A player as a list names them (R19: what the public sees)."""

    id: int
    display_name: str


class Qualifier(TypedDict):
    """One qualifier of a venue, in R12's order, with its flags (Flag's values)."""

    player: PlayerRef
    rank: int
    points: int
    flags: list[str]
    # Skipped players ranked above this one: they are why this player moved up.
    moved_up_past: list[int]


class Skipped(TypedDict):
    """A player above the last qualifier who does not go from this venue, and why (SkipReason's
    values); `venue_id` is where one qualified_elsewhere did."""

    player: PlayerRef
    rank: int
    points: int
    reason: str
    venue_id: int | None


class TiedOut(TypedDict):
    """A player level at the cut with the last qualifier who does not go here (R12)."""

    player: PlayerRef
    rank: int
    points: int
    flags: list[str]


class VenueList(TypedDict):
    """One venue's qualifier list (R12-R14). `average_attendance` is the exact decimal, to the
    cent, as a string."""

    venue_id: int
    venue_name: str
    region_id: int
    quota: int
    tournaments: int
    average_attendance: str
    qualifiers: list[Qualifier]
    skipped: list[Skipped]
    tied_out: list[TiedOut]


class Move(TypedDict):
    player: PlayerRef
    venue_id: int


class Changes(TypedDict):
    """R12: how published lists would change if published again now."""

    changed: bool
    would_come_in: list[Move]
    would_drop_out: list[Move]


class RegionQualifier(Qualifier):
    venue_id: int


class RegionList(TypedDict):
    """A region's playoff list (R3): its venues' qualifiers, venue by venue."""

    region_id: int
    qualifiers: list[RegionQualifier]


class ListStatus(StrEnum):
    """Where a player stands on one venue's list."""

    QUALIFIED = "qualified"
    SKIPPED = "skipped"
    TIED_AT_CUT = "tied_at_cut"
    BELOW_THE_CUT = "below_the_cut"


LIST_STATUSES = tuple(status.value for status in ListStatus)


class ListPlace(TypedDict):
    """Why a player is, or is not, on one venue's list (`reason` and `elsewhere_venue_id` for a
    skipped one)."""

    venue_id: int
    status: str
    reason: str | None
    elsewhere_venue_id: int | None


class SeasonOfPlayer(TypedDict):
    """Where a player qualified in a season (R14), or why not, at each venue they played."""

    season_id: int
    qualified_at: int | None
    provisional: bool
    published: bool
    venues: list[ListPlace]


def venue_list(
    venue_id: int,
    venue_name: str,
    region_id: int,
    tournaments: int,
    average_attendance: Decimal,
    names: Mapping[int, str],
    outcome: VenueOutcome,
) -> VenueList:
    """A venue's outcome (qualification.qualify) as its list, each player with their name."""

    def player(player_id: int) -> PlayerRef:
        return {"id": player_id, "display_name": names[player_id]}

    return {
        "venue_id": venue_id,
        "venue_name": venue_name,
        "region_id": region_id,
        "quota": outcome.quota,
        "tournaments": tournaments,
        "average_attendance": str(average_attendance.quantize(Decimal("0.01"), ROUND_HALF_UP)),
        "qualifiers": [
            {
                "player": player(q.player_id),
                "rank": q.rank,
                "points": q.points,
                "flags": q.flags,
                "moved_up_past": q.moved_up_past,
            }
            for q in outcome.qualifiers
        ],
        "skipped": [
            {
                "player": player(s.player_id),
                "rank": s.rank,
                "points": s.points,
                "reason": s.reason,
                "venue_id": s.venue_id,
            }
            for s in outcome.skipped
        ],
        "tied_out": [
            {"player": player(t.player_id), "rank": t.rank, "points": t.points, "flags": t.flags}
            for t in outcome.tied_out
        ],
    }


# R13, R19: the skip reasons drawn from personal or discipline records (a date of birth, the
# office's disqualification, a suspension), which the public reads as `ineligible`; and the flag
# that says a date of birth is missing, which it does not read at all.
RECORD_REASONS = frozenset({SkipReason.UNDERAGE, SkipReason.DISQUALIFIED, SkipReason.SUSPENDED})
PERSONAL_FLAGS = frozenset({Flag.AGE_UNVERIFIED})


def _public_flags(flags: list[str]) -> list[str]:
    return [flag for flag in flags if flag not in PERSONAL_FLAGS]


def public_list(venue: VenueList) -> VenueList:
    """R13, R19: a venue's list as the public reads it: the reasons drawn from personal or
    discipline records said as `ineligible`, and no `age_unverified`. A new list (the one given
    may be shared: never changed), or the same one when it holds neither."""
    entries = (*venue["qualifiers"], *venue["tied_out"])
    if not any(s["reason"] in RECORD_REASONS for s in venue["skipped"]) and not any(
        PERSONAL_FLAGS.intersection(e["flags"]) for e in entries
    ):
        return venue
    return {
        **venue,
        "qualifiers": [{**q, "flags": _public_flags(q["flags"])} for q in venue["qualifiers"]],
        "skipped": [
            {**s, "reason": SkipReason.INELIGIBLE.value} if s["reason"] in RECORD_REASONS else s
            for s in venue["skipped"]
        ],
        "tied_out": [{**t, "flags": _public_flags(t["flags"])} for t in venue["tied_out"]],
    }


def draws_of(settlements: Iterable[Mapping[str, int]]) -> dict[int, list[int]]:
    """R12: the draws a publication settled (its settlements), by venue, in the order the office
    named the players."""
    draws: dict[int, list[int]] = {}
    for item in settlements:
        draws.setdefault(int(item["venue_id"]), []).append(int(item["player_id"]))
    return draws


def venue_of(lists: Sequence[VenueList], venue_id: int) -> VenueList | None:
    return next((venue for venue in lists if venue["venue_id"] == venue_id), None)


def qualified(lists: Sequence[VenueList]) -> dict[int, int]:
    """Who qualified where: player id -> venue id."""
    return {q["player"]["id"]: venue["venue_id"] for venue in lists for q in venue["qualifiers"]}


def differences(published: Sequence[VenueList], current: Sequence[VenueList]) -> Changes:
    """R12: how the lists would change if published again now: who would come in, who drop out
    (a player moving venue does both)."""
    before, after = qualified(published), qualified(current)
    names = {
        q["player"]["id"]: q["player"]
        for lists in (published, current)
        for venue in lists
        for q in venue["qualifiers"]
    }
    come_in = sorted((p, v) for p, v in after.items() if before.get(p) != v)
    drop_out = sorted((p, v) for p, v in before.items() if after.get(p) != v)
    return {
        "changed": bool(come_in or drop_out),
        "would_come_in": [{"player": names[p], "venue_id": v} for p, v in come_in],
        "would_drop_out": [{"player": names[p], "venue_id": v} for p, v in drop_out],
    }


def regions_of(lists: Sequence[VenueList]) -> list[RegionList]:
    """The playoff lists by region (R3): each region's qualifiers, venue by venue."""
    regions: dict[int, list[RegionQualifier]] = {}
    for venue in lists:
        regions.setdefault(venue["region_id"], []).extend(
            {**q, "venue_id": venue["venue_id"]} for q in venue["qualifiers"]
        )
    return [{"region_id": region_id, "qualifiers": items} for region_id, items in regions.items()]


def tied_at_cut(lists: Sequence[VenueList], venue_id: int) -> set[int] | None:
    """R12: the players of a venue in a tie at the cut (flagged), or None when the season has no
    such venue."""
    venue = venue_of(lists, venue_id)
    if venue is None:
        return None
    tie_flags = {Flag.TIE_AT_CUT, Flag.TIE_SETTLED}
    inside = {q["player"]["id"] for q in venue["qualifiers"] if tie_flags & set(q["flags"])}
    return inside | {t["player"]["id"] for t in venue["tied_out"]}


def list_place(lists: Sequence[VenueList], venue_id: int, player_id: int) -> ListPlace:
    """Why a player is, or is not, on one venue's list."""
    venue = venue_of(lists, venue_id)
    status: ListPlace = {
        "venue_id": venue_id,
        "status": ListStatus.BELOW_THE_CUT,
        "reason": None,
        "elsewhere_venue_id": None,
    }
    if venue is None:
        return status
    if any(q["player"]["id"] == player_id for q in venue["qualifiers"]):
        return {**status, "status": ListStatus.QUALIFIED}
    for skipped in venue["skipped"]:
        if skipped["player"]["id"] == player_id:
            return {
                **status,
                "status": ListStatus.SKIPPED,
                "reason": skipped["reason"],
                "elsewhere_venue_id": skipped["venue_id"],
            }
    if any(t["player"]["id"] == player_id for t in venue["tied_out"]):
        return {**status, "status": ListStatus.TIED_AT_CUT}
    return status


def season_of_player(
    season_id: int,
    lists: Sequence[VenueList],
    provisional: bool,
    published: bool,
    player_id: int,
    venue_ids: Iterable[int],
) -> SeasonOfPlayer:
    """Where a player qualified in a season's lists (R14), or why not at each of these venues
    (those the player played: a player qualifies only where they stand, so lists computed from
    the results name them nowhere else; published lists, frozen, are read whole)."""
    played = list(venue_ids)
    by_venue = {venue["venue_id"]: venue for venue in lists}

    def qualifies(venue: VenueList) -> bool:
        return any(q["player"]["id"] == player_id for q in venue["qualifiers"])

    qualified_at = next((v for v in played if v in by_venue and qualifies(by_venue[v])), None)
    if qualified_at is None and published:
        qualified_at = next((venue["venue_id"] for venue in lists if qualifies(venue)), None)
    return {
        "season_id": season_id,
        "qualified_at": qualified_at,
        "provisional": provisional,
        "published": published,
        "venues": [list_place([by_venue[v]] if v in by_venue else [], v, player_id) for v in played],
    }


def playoff_eligibility(
    kind: str,
    day: date,
    region_id: int,
    season_id: int,
    min_age: int,
    lists: Sequence[VenueList],
    entrants: Sequence[tuple[int, date | None] | None],
    unreadable: Collection[int] = (),
) -> tuple[list[Problem], list[Notice]]:
    """R3: a playoff (`kind`) on `day` in region `region_id` takes only the season's qualifiers
    (`lists`) from venues of that region; a championship only qualifiers who are at least
    `min_age` on its day. `entrants` holds each row's player as (id, date of birth), None for a
    new player; rows in `unreadable` are left out. Each ineligible row is named, with why; a
    championship entrant without a date of birth is a notice (min_age unverified)."""
    region_of_venue = {v["venue_id"]: v["region_id"] for v in lists}
    qualified_at = qualified(lists)
    problems: list[Problem] = []
    notices: list[Notice] = []
    for index, entrant in enumerate(entrants):
        if index in unreadable:
            continue
        at = f"results.{index}.player_id"
        where = qualified_at.get(entrant[0]) if entrant is not None else None
        if entrant is None or where is None:
            who = f"player {entrant[0]}" if entrant is not None else "a new player"
            problems.append(Problem(at, f"{who.capitalize()} did not qualify in season {season_id}.", "R3"))
            continue
        player_id, born = entrant
        if kind == ReportKind.PLAYOFF and region_of_venue[where] != region_id:
            problems.append(
                Problem(
                    at,
                    f"Player {player_id} qualified at venue {where}, of region {region_of_venue[where]}; "
                    f"this playoff is for region {region_id}.",
                    "R3",
                )
            )
        elif kind != ReportKind.CHAMPIONSHIP:
            continue
        elif born is None:
            notices.append(age_unverified(index, player_id))
        elif age_on(born, day) < min_age:
            problems.append(
                Problem(
                    at,
                    f"Player {player_id} is under {min_age} on the championship date ({day.isoformat()}).",
                    "R3",
                )
            )
    return problems, notices
