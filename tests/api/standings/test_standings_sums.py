"""Standings summed by the database (models/services/standings.standing_lines) against the pure
rule (models/rules/standings.standings): random leagues built through the HTTP API, with random
finishing orders, statuses (R6), participation points (R8), attendance bonus tiers (R9),
count_best (R10), a bands chart or the default one (R7), two venues (R1), a voided report and an
as_of day; every standings row the API answers must be the row the rule ranks (R11) from the
results the API lists for the venue and season."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.rules.standings import Entry, Row, Tier, standings
from tests.builders import OFFICE_LATE, TOURNAMENTS, MakeScene, Scene, iso, read_qualifiers
from tests.support.league import League

# Mostly played; the first is what shrinking goes to.
STATUSES = ("played", "played", "played", "no_show", "declared_withdrawal", "absent")
# Display names that collide (and differ only by case): ties are listed by name, then id (R11).
NAMES = ("Ann", "ann", "Ben", "Cy", "Dee", "Eve")

COMPARED = (
    "rank",
    "tied",
    "points",
    "placement_points",
    "participation_points",
    "bonus_points",
    "played",
    "wins",
    "points_finishes",
    "best_finish",
    "average_finish",
    "best_single",
    "decided_by",
    "decided_at_place",
)


@dataclass(frozen=True)
class Plan:
    """A league to build: season settings, players (display names), and reports in date order,
    each at venue 0 or 1, placing (player index, status) 1, 2, 3, ..."""

    settings: dict[str, Any]
    bands: tuple[int, ...] | None  # a one-band chart paying these points, or the default chart
    names: tuple[str, ...]
    reports: tuple[tuple[int, tuple[tuple[int, str], ...]], ...]
    voided: int | None  # the index of a report the office voids
    as_of: int  # standings are also read as of the day of this report


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    names = tuple(draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=7)))
    tiers = draw(
        st.lists(
            st.fixed_dictionaries({"events": st.integers(1, 5), "points": st.integers(1, 30)}),
            max_size=3,
            unique_by=lambda tier: tier["events"],
        )
    )
    season = {
        "participation_points": draw(st.sampled_from((0, 5, 3))),
        "attendance_bonus": tiers,
        "count_best": draw(st.one_of(st.none(), st.integers(1, 4))),
        "absent_keeps_place_points": draw(st.booleans()),
    }
    bands = draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, 40), min_size=1, max_size=6).map(
                lambda p: tuple(sorted(p, reverse=True))
            ),
        )
    )
    reports = []
    for _ in range(draw(st.integers(1, 7))):
        venue = draw(st.sampled_from((0, 0, 1)))
        order = draw(st.permutations(range(len(names))))
        size = draw(st.integers(min(2, len(names)), len(names)))
        statuses = draw(st.lists(st.sampled_from(STATUSES), min_size=size, max_size=size))
        reports.append((venue, tuple(zip(order[:size], statuses, strict=True))))
    voided = draw(st.one_of(st.none(), st.integers(0, len(reports) - 1)))
    as_of = draw(st.integers(0, len(reports) - 1))
    return Plan(season, bands, names, tuple(reports), voided, as_of)


def build(plan: Plan, make_scene: MakeScene, league: League) -> tuple[Scene, list[int], list[str]]:
    """The league of the plan: (the scene, its two venue ids, each report's day)."""
    chart: dict[str, Any] = {}
    if plan.bands is not None:
        band = {"min_entrants": 1, "max_entrants": None, "points": list(plan.bands)}
        chart = {"points_chart_id": league.chart(kind="bands", bands=[band])["id"]}
    scene = make_scene(**plan.settings, **chart, cut_fraction=1)  # long qualifier lists
    venues = [scene.venue_id, int(league.venue(scene.region["id"])["id"])]
    players = scene.players(*plan.names)
    days = []
    reports = []
    for venue, order in plan.reports:
        day = scene.next_day()
        days.append(iso(day))
        entrants = [(players[p], status) for p, status in order]
        # The office's, weeks ago: with the reason R17 asks of it.
        body = scene.body(entrants, day, venue_id=venues[venue], reason=OFFICE_LATE)
        reports.append(scene.posted(body, scene.office))
    if plan.voided is not None:
        voided = scene.office.post(
            f"{TOURNAMENTS}/{reports[plan.voided]['id']}/void", json={"reason": "Posted twice."}
        )
        assert voided.status_code == 200, voided.get_data(as_text=True)
    return scene, venues, days


def listed_reports(scene: Scene, venue_id: int) -> list[dict[str, Any]]:
    """Every live report of the venue and season, as the public lists them (every page)."""
    reports: list[dict[str, Any]] = []
    page = 1
    while True:
        query = f"venue_id={venue_id}&season_id={scene.season_id}&per_page=500&page={page}"
        response = scene.public.get(f"{TOURNAMENTS}?{query}")
        assert response.status_code == 200, response.get_data(as_text=True)
        body = response.get_json()
        reports.extend(body["items"])
        if len(reports) >= body["total"]:
            return reports
        page += 1


def ruled(reports: list[dict[str, Any]], as_of: str, count_best: int | None, tiers: list[Tier]) -> list[Row]:
    """The pure rule's standings (R9-R11) from the listed regular reports up to `as_of`."""
    entries: dict[int, tuple[str, list[Entry]]] = {}
    for report in reports:
        if report["kind"] != "regular" or report["date"] > as_of or report["voided"]:
            continue
        for result in report["results"]:
            player = result["player"]
            _name, mine = entries.setdefault(player["id"], (player["display_name"], []))
            mine.append(
                Entry(
                    report["id"],
                    result["place"],
                    result["status"],
                    result["placement_points"],
                    result["participation_points"],
                )
            )
    return standings(entries, count_best, tiers)


def expected_row(row: Row) -> dict[str, Any]:
    values = {field: getattr(row, field) for field in COMPARED}
    return {"player": row.player_id, **values}


def answered_row(row: dict[str, Any]) -> dict[str, Any]:
    values = {field: row[field] for field in COMPARED}
    values["average_finish"] = Decimal(str(row["average_finish"]))
    return {"player": row["player"]["id"], **values}


def check_venue(scene: Scene, venue_id: int, as_of: str | None, plan: Plan) -> list[Row]:
    """The API's standings of the venue (as of a day, or today) are the rule's rows."""
    reports = listed_reports(scene, venue_id)
    tiers = [Tier(t["events"], t["points"]) for t in plan.settings["attendance_bonus"]]
    body = scene.standings(f"?as_of={as_of}" if as_of else "", venue_id=venue_id)
    counted = [r for r in reports if as_of is None or r["date"] <= as_of]
    rows = ruled(reports, as_of or "9999-12-31", plan.settings["count_best"], tiers)
    assert [answered_row(r) for r in body["standings"]] == [expected_row(r) for r in rows]
    assert body["total"] == len(rows)
    assert (body["tournaments"], body["entrants"]) == (len(counted), sum(r["entrants"] for r in counted))
    names = {r.player_id: r.display_name for r in rows}
    assert {r["player"]["id"]: r["player"]["display_name"] for r in body["standings"]} == names
    return rows


def check_qualifiers(scene: Scene, tables: dict[int, list[Row]]) -> int:
    """The season's qualifier lists, summed by the database for both venues in one query, show
    each listed player's rank and points at each venue as the rule ranks them; how many are listed."""
    listed = 0
    for venue in read_qualifiers(scene.public, scene.season_id)["venues"]:
        rows = {row.player_id: (row.rank, row.points) for row in tables[venue["venue_id"]]}
        for item in [*venue["qualifiers"], *venue["skipped"], *venue["tied_out"]]:
            assert (item["rank"], item["points"]) == rows[item["player"]["id"]], (venue["venue_id"], item)
            listed += 1
    return listed


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=plans())
def test_sql_sums_rank_as_the_pure_rule_r9_r10_r11(make_scene: MakeScene, league: League, plan: Plan) -> None:
    """R9-R11 (with R1, R6-R8): at both venues, today and as of a day within the season, every
    row of the standings (rank, tied, every points column, played, wins, points finishes, best and
    average finish, best single total, the deciding step) is the pure rule's from the listed
    results: the database's per-player sums, R10's best totals by a window, R11's countback from
    the aggregated places. The season's qualifier lists (R12), which sum both venues in one
    query, give each listed player the rule's rank and points there."""
    scene, venues, days = build(plan, make_scene, league)
    tables = {}
    for venue_id in venues:
        tables[venue_id] = check_venue(scene, venue_id, None, plan)
        check_venue(scene, venue_id, days[plan.as_of], plan)
    live = [order for i, (v, order) in enumerate(plan.reports) if i != plan.voided and v == 0]
    assert len(tables[venues[0]]) == len({p for order in live for p, _status in order})
    # R12's lists list someone at every venue with results (quota >= 1).
    assert check_qualifiers(scene, tables) >= sum(1 for rows in tables.values() if rows)
