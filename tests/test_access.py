"""Who may do what is decided in models/services/access.py only, by name (ARCHITECTURE.md: "Who
may do what"). Read from the source (ast): a service, view or console page that asks the actor
itself whether it is the office or hosts a venue fails here, not in review."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from models.actor import SYSTEM, Actor
from models.errors import Forbidden
from models.services import access

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.rules

# The questions only access decides on: the Actor's own answers (models/actor.py).
ASKED = frozenset({"is_office", "hosts_venue"})
DECIDERS = frozenset({"models/services/access.py", "models/actor.py"})

# The queries that filter what a caller may see (R19), by module and function: each asks the
# Actor as it builds its filter. A new one is added here knowingly, or asks access instead.
VISIBILITY: dict[str, frozenset[str]] = {
    "models/services/players/queries.py": frozenset(
        {
            "personal_visible",
            "personal_visible_where",
            "demo_shown_to",
            "search_players",
            "distinct_name_suggestions",
        }
    ),
    "models/services/sanctions/queries.py": frozenset(
        {"visible_sanctions", "sees_sanction", "ladder_for", "player_discipline"}
    ),
    "models/services/reports/queries.py": frozenset({"visible_reports"}),
    "models/services/venues/queries.py": frozenset({"venues_of_actor"}),
}

NOT_HOST = "does not host venue"


def sources() -> list[Path]:
    return sorted(p for package in ("models", "api") for p in (ROOT / package).rglob("*.py"))


def asked_in(source: str) -> list[tuple[str, str, int]]:
    """(what, top-level function or class, line) of every `.is_office` or `.hosts_venue`."""
    found = []
    for top in ast.parse(source).body:
        name = getattr(top, "name", "<module>")
        for node in ast.walk(top):
            if isinstance(node, ast.Attribute) and node.attr in ASKED:
                found.append((node.attr, name, node.lineno))
    return found


def saying_not_host(source: str) -> bool:
    """Whether a string literal (an f-string's parts too) of the source says "does not host venue"."""
    return any(
        isinstance(node, ast.Constant) and isinstance(node.value, str) and NOT_HOST in node.value
        for node in ast.walk(ast.parse(source))
    )


def test_only_access_asks_who_the_actor_is() -> None:
    """`is_office` and `hosts_venue` are asked in access.py, actor.py and the listed visibility
    queries only: every other permission is a named call into access."""
    breaches = []
    for path in sources():
        relative = path.relative_to(ROOT).as_posix()
        if relative in DECIDERS:
            continue
        allowed = VISIBILITY.get(relative, frozenset())
        breaches += [
            f"{relative}:{line} {function} asks .{what}"
            for what, function, line in asked_in(path.read_text())
            if function not in allowed
        ]
    assert not breaches, "ask models/services/access.py instead:\n" + "\n".join(breaches)


def test_the_visibility_list_names_functions_that_exist_and_ask() -> None:
    """Every listed visibility query exists and still asks: the list holds nothing stale."""
    for relative, functions in VISIBILITY.items():
        asking = {function for _what, function, _line in asked_in((ROOT / relative).read_text())}
        assert functions <= asking, f"{relative}: {sorted(functions - asking)} no longer ask the Actor"


def test_one_module_says_a_key_does_not_host_a_venue() -> None:
    """The refusal "Your key does not host venue …" is written once, in access.py."""
    saying = [p.relative_to(ROOT).as_posix() for p in sources() if saying_not_host(p.read_text())]
    assert saying == ["models/services/access.py"]


def test_the_checks_catch_a_breach() -> None:
    """The two source checks above can fail: a copied check and a copied message are found."""
    copied = (
        "def void(actor, report):\n"
        "    if not actor.is_office and not actor.hosts_venue(report.venue_id):\n"
        "        raise Forbidden(f'Your key does not host venue {report.venue_id}: no.')\n"
    )
    assert [(what, function) for what, function, _line in asked_in(copied)] == [
        ("is_office", "void"),
        ("hosts_venue", "void"),
    ]
    assert saying_not_host(copied)


def test_each_permission_is_named_with_a_one_line_docstring() -> None:
    """Every permission access offers (`may_…`) says, in one line, the rule it decides."""
    permissions = {
        name: function
        for name, function in inspect.getmembers(access, inspect.isfunction)
        if name.startswith("may_") and function.__module__ == access.__name__
    }
    assert {"may_post_report", "may_change_report", "may_issue_sanction"} <= set(permissions)
    for name, function in permissions.items():
        doc = inspect.getdoc(function) or ""
        assert doc and "\n" not in doc, f"access.{name}: one line, naming the rule"


HOST = Actor(role="host", name="Host: The Crown", key_id=7, venue_ids=frozenset({1}))
OFFICE = Actor(role="office", name="Office", key_id=8)


def test_r17_a_host_reports_and_changes_only_at_their_own_venues() -> None:
    """R17: the office and a venue's hosts pass; a host of another venue is refused, in the words
    the API has always used."""
    for actor in (HOST, OFFICE, SYSTEM):
        access.may_post_report(actor, 1)
        access.may_change_report(actor, 1)
    with pytest.raises(Forbidden) as refused:
        access.may_post_report(HOST, 2)
    assert refused.value.message == "Your key does not host venue 2: a host reports for their own venues."
    with pytest.raises(Forbidden) as refused:
        access.may_change_report(HOST, 2)
    assert refused.value.rule == "R17"
    assert (
        refused.value.message == "Your key does not host venue 2: a host changes their own venues' reports."
    )
    assert access.changes_any_time(OFFICE) and not access.changes_any_time(HOST)


def test_r15_a_host_bans_and_lifts_only_at_their_own_venues() -> None:
    """R15: a host issues (and lifts) venue bans of their own venues only; the office every kind."""
    access.may_issue_sanction(HOST, "venue_ban", 1)
    access.may_lift_sanction(HOST, "venue_ban", 1)
    access.may_issue_sanction(OFFICE, "suspension", None)
    with pytest.raises(Forbidden) as refused:
        access.may_issue_sanction(HOST, "venue_ban", 2)
    assert (refused.value.rule, refused.value.message) == (
        "R15",
        "Your key does not host venue 2: a host bans from their own venues.",
    )
    with pytest.raises(Forbidden, match="Only the office issues a suspension: it is league-wide."):
        access.may_issue_sanction(HOST, "suspension", 1)
    with pytest.raises(Forbidden, match="A host lifts only the bans of their own venues; ask the office."):
        access.may_lift_sanction(HOST, "venue_ban", 2)


def test_r19_a_host_registers_players_at_their_own_venues() -> None:
    """R19: a host names one of their own venues as home, or none; the office any."""
    for actor, home in ((HOST, 1), (HOST, None), (OFFICE, 2)):
        access.may_register_player(actor, home)
    with pytest.raises(Forbidden) as refused:
        access.may_register_player(HOST, 2)
    assert refused.value.rule == "R19" and refused.value.errors == {
        "home_venue_id": ["Not one of your venues: 2."]
    }
    assert refused.value.message.startswith("Your key does not host venue 2: a host registers players")


def test_the_office_alone_publishes_merges_and_edits_charts() -> None:
    """R12, R17, R7: one check each, the office's (and the command line's)."""
    checks = (
        (access.may_publish_qualifiers, "Only the office publishes qualifier lists."),
        (access.may_merge_players, "Only the office merges players and undoes merges."),
        (access.may_make_charts, "Only the office makes points charts."),
        (access.may_change_charts, "Only the office changes points charts."),
    )
    for may, message in checks:
        may(OFFICE)
        may(SYSTEM)
        with pytest.raises(Forbidden) as refused:
            may(HOST)
        assert refused.value.message == message


def test_r2_the_office_sets_the_league_up_and_hosts_their_own_venues_nights() -> None:
    """R2: regions, venues, seasons and settings are the office's (the console then offers a
    venue's details to edit); a venue's nights are its hosts' too, at their own venues only."""
    access.may_set_up_league(OFFICE)
    assert access.sets_up_league(OFFICE) and not access.sets_up_league(HOST)
    with pytest.raises(Forbidden) as refused:
        access.may_set_up_league(HOST)
    assert (
        refused.value.message == "Only the office sets up regions, venues, seasons and the league's settings."
    )
    for may in (access.may_set_schedule, access.may_change_schedule):
        may(HOST, 1)
        may(OFFICE, 2)
        with pytest.raises(Forbidden, match="Your key does not host venue 2"):
            may(HOST, 2)
