"""The league's kinds and statuses are enumerations, and its two commonest conditions have one name
each: the tuples the schemas and the spec read keep their values (the spec names them); a live
report (R17) and a played result (R9) read the same in Python and in SQL. No database."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import select

from models.actor import ACTOR_ROLES, PUBLIC, SYSTEM, Role
from models.entities import (
    CHART_KINDS,
    DOUBLE_QUALIFIER_POLICIES,
    REPORT_KINDS,
    ROLES,
    SEASON_DEFAULTS,
    STATUSES,
    Report,
    Result,
)
from models.entities.base import table_of
from models.entities.reports import LIVE_SQL, live_in, played_in
from models.rules.charts import PRESET_NAMES
from models.rules.notices import NOTICE_CODES
from models.rules.qualifiers import FLAGS, POLICIES, SKIP_REASONS
from models.rules.reports import EntrantStatus
from models.rules.sanctions import BARRING_KINDS, CATEGORIES, DOOR_GROUPS, KINDS, LEAGUE_WIDE_KINDS

pytestmark = pytest.mark.rules


def test_the_enumerations_keep_their_values_in_order() -> None:
    assert REPORT_KINDS == ("regular", "playoff", "championship")
    assert STATUSES == ("played", "declared_withdrawal", "absent", "no_show")
    assert CHART_KINDS == ("top_fraction", "bands", "formula")
    assert DOUBLE_QUALIFIER_POLICIES == POLICIES == ("best_rank", "most_played", "home_venue")
    assert KINDS == ("reminder", "warning", "suspension", "venue_ban")
    assert LEAGUE_WIDE_KINDS == ("reminder", "warning", "suspension")
    assert BARRING_KINDS == ("suspension", "venue_ban")
    assert CATEGORIES[:2] == ("cheating", "collusion") and len(CATEGORIES) == 9
    assert SKIP_REASONS == (
        "underage",
        "disqualified",
        "suspended",
        "too_few_events",
        "qualified_elsewhere",
        "ineligible",
    )
    assert FLAGS == ("tie_at_cut", "tie_settled", "age_unverified")
    assert NOTICE_CODES == (
        "possible_duplicate",
        "existing_player",
        "merged_player",
        "sanction_overridden",
        "age_unverified",
        "matches_report",
        "ignored_columns",
        "sanctioned_player_kept",
        "results_stand",
        "first_sheet_read",
        "late_report",
        "off_schedule",
    )
    assert ACTOR_ROLES == ("public", "host", "office", "system")
    assert SEASON_DEFAULTS["double_qualifier_policy"] == "best_rank"


def test_r16_the_door_lists_groups_keep_their_values_in_order() -> None:
    """R16: the door list's groups, in the order the list holds them; plain strings (the spec's
    DoorGroup)."""
    assert DOOR_GROUPS == ("venue", "region", "league")
    assert all(type(value) is str for value in DOOR_GROUPS)


def test_the_tuples_hold_plain_strings() -> None:
    """The spec and the database take them as they are: no enumeration member among them."""
    for values in (REPORT_KINDS, STATUSES, CHART_KINDS, POLICIES, KINDS, CATEGORIES, SKIP_REASONS):
        assert all(type(value) is str for value in values)
    assert all(type(value) is str for value in (*FLAGS, *NOTICE_CODES, *ACTOR_ROLES, *ROLES, *PRESET_NAMES))


def test_a_key_is_a_hosts_or_the_offices() -> None:
    assert ROLES == (Role.OFFICE, Role.HOST)
    assert PUBLIC.role == "public" and SYSTEM.role == "system" and SYSTEM.is_office


def test_r17_a_live_report_in_python_and_in_sql() -> None:
    assert Report(voided_at=None).live and not Report(voided_at=None).voided
    voided = Report(voided_at=datetime(2026, 1, 1))
    assert not voided.live and voided.voided
    on_entity = str(select(Report.id).where(Report.live))
    on_table = select(table_of(Report).c.id).where(live_in(table_of(Report).c))
    assert on_entity == str(on_table) and on_entity.endswith("WHERE tournaments.voided_at IS NULL")
    assert not on_table._propagate_attrs  # a statement built on the table stays a Core statement
    assert LIVE_SQL == "voided_at IS NULL"


def test_r9_a_played_result_in_python_and_in_sql() -> None:
    assert Result(status="absent").played and not Result(status=EntrantStatus.NO_SHOW).played
    assert str(Result.played.expression) == "results.status != :status_1"
    assert str(played_in(table_of(Result).c)) == "results.status != :status_1"
