"""Who may do what: each permission decided once, here, by name, and called by every service
(and so every door, API or console) that needs it. A refusal is a `Forbidden` (403).

The `may_…` functions raise; the few questions a service asks to shape an answer (`acts_for`,
`changes_any_time`, …) say yes or no. Nothing outside this module asks `Actor.is_office` or
`Actor.hosts_venue` but the queries that filter what a caller may see (tests/test_access.py lists
them), and only this module says "does not host venue"."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from models.actor import Actor
from models.errors import Forbidden, Problem
from models.rules.sanctions import SanctionKind


def require_role(actor: Actor, roles: Iterable[str]) -> None:
    """A key of one of these roles (the HTTP layer answers the public's missing key first)."""
    allowed = tuple(roles)
    if actor.role not in allowed:
        raise Forbidden(f"This needs a key of role {' or '.join(allowed)}; yours is {actor.role}.")


def acts_for(actor: Actor, venue_id: int | None) -> bool:
    """The office, or a host of this venue: who reports, corrects, reads the door list and sees
    the reporter's name and a venue's qualifier list as it is."""
    return actor.is_office or actor.hosts_venue(venue_id)


def _office_only(actor: Actor, what: str, rule: str | None = None) -> None:
    if not actor.is_office:
        raise Forbidden(f"Only the office {what}.", rule=rule)


def _hosts_only(
    actor: Actor, venue_id: int | None, why: str, rule: str | None = None, problems: Sequence[Problem] = ()
) -> None:
    if not acts_for(actor, venue_id):
        raise Forbidden(f"Your key does not host venue {venue_id}: {why}.", rule=rule, problems=problems)


# The office, or a host of the venue.


def may_post_results(actor: Actor, venue_id: int) -> None:
    """The console's venue pages (report, rows, corrections, reports): the office, or the venue's hosts."""
    _hosts_only(actor, venue_id, "you post results for your own venues")


def may_post_report(actor: Actor, venue_id: int) -> None:
    """R17: a report (or a correction) for a venue is the office's or that venue's hosts'."""
    _hosts_only(actor, venue_id, "a host reports for their own venues")


def may_change_report(actor: Actor, venue_id: int) -> None:
    """R17 (who): the office, or a host of the report's venue (then within the window, the rule's)."""
    _hosts_only(actor, venue_id, "a host changes their own venues' reports", rule="R17")


def changes_any_time(actor: Actor) -> bool:
    """R17: the office changes (and reports) a night any time; a host within the season's window."""
    return actor.is_office


def may_report_late(actor: Actor, why: str) -> None:
    """R17: past the hosts' window or into a published season, only the office reports a night."""
    if not changes_any_time(actor):
        raise Forbidden(
            f"Only the league office can report this night now, with a reason: {why}.", rule="R17"
        )


def overrides_sanctions(actor: Actor) -> bool:
    """R16: only the office stores a report naming a barred player (with a written reason)."""
    return actor.is_office


def may_read_door_list(actor: Actor, venue_id: int) -> None:
    """R16: a venue's door list is for its hosts and the office."""
    _hosts_only(actor, venue_id, "the door list is for its hosts")


def may_run_night(actor: Actor, venue_id: int) -> None:
    """R22: a night is opened and run by the venue's hosts or the office."""
    _hosts_only(actor, venue_id, "a host runs the nights of their own venues", rule="R22")


def may_manage_webhooks(actor: Actor) -> None:
    """R23: webhook subscriptions are the office's."""
    _office_only(actor, "manages webhooks", rule="R23")


def may_keep_structures(actor: Actor) -> None:
    """R22: blind structures are kept by the office."""
    _office_only(actor, "keeps blind structures", rule="R22")


def may_set_schedule(actor: Actor, venue_id: int) -> None:
    """R2: a venue's regular nights are set by its hosts or the office."""
    _hosts_only(actor, venue_id, "a host sets the schedule of their own venues")


def may_change_schedule(actor: Actor, venue_id: int) -> None:
    """R2: a venue's nights off and extra nights are changed by its hosts or the office."""
    _hosts_only(actor, venue_id, "a host changes the schedule of their own venues")


def may_read_schedule_changes(actor: Actor, venue_id: int) -> None:
    """R2: a venue's schedule changes are read by its hosts or the office."""
    _hosts_only(actor, venue_id, "a host reads the schedule changes of their own venues")


def may_register_player(actor: Actor, home_venue_id: int | None) -> None:
    """R19: a host registers players at their own venues (or with no home); the office at any."""
    if actor.is_host and home_venue_id is not None and not actor.hosts_venue(home_venue_id):
        # A home venue opens a player's personal fields to that venue's hosts.
        why = (
            "a host registers players at their own venues (or leaves home_venue_id out); "
            "the office sets another venue"
        )
        problem = Problem("home_venue_id", f"Not one of your venues: {home_venue_id}.", "R19")
        _hosts_only(actor, home_venue_id, why, rule="R19", problems=[problem])


def may_issue_sanction(actor: Actor, kind: str, venue_id: int | None) -> None:
    """R15: the office issues every kind; a host only bans players from their own venues."""
    if actor.is_office:
        return
    if kind != SanctionKind.VENUE_BAN:
        raise Forbidden(f"Only the office issues a {kind}: it is league-wide.", rule="R15")
    _hosts_only(actor, venue_id, "a host bans from their own venues", rule="R15")


def may_lift_sanction(actor: Actor, kind: str, venue_id: int | None) -> None:
    """R15: the office lifts any sanction; a host only a ban from their own venue."""
    if actor.is_office:
        return
    if kind != SanctionKind.VENUE_BAN or not actor.hosts_venue(venue_id):
        raise Forbidden("A host lifts only the bans of their own venues; ask the office.", rule="R15")


# What only the office is told.


def sees_identifier_owner(actor: Actor) -> bool:
    """R19: only the office is told which player an email or membership number already belongs to."""
    return actor.is_office


def sees_players_elsewhere(actor: Actor) -> bool:
    """R19: only the office is offered a report's names among the players of other venues."""
    return actor.is_office


# The office only.


def may_change_player(actor: Actor) -> None:
    """A player's record is changed by the office only."""
    _office_only(actor, "changes a player's record")


def may_rename_player(actor: Actor) -> None:
    """R19: a player's display name is set (in the console) by the office only."""
    _office_only(actor, "changes a player's display name", rule="R19")


def may_tell_players_apart(actor: Actor) -> None:
    """R5: only the office records that two players are different people."""
    _office_only(actor, "says which players are different people", rule="R5")


def may_merge_players(actor: Actor) -> None:
    """R17: only the office merges players and undoes merges."""
    _office_only(actor, "merges players and undoes merges", rule="R17")


def may_read_merges(actor: Actor) -> None:
    """R17: only the office reads player merges."""
    _office_only(actor, "reads player merges", rule="R17")


def may_export_player(actor: Actor) -> None:
    """R21: only the office exports a player's data."""
    _office_only(actor, "exports a player's data", rule="R21")


def may_erase_player(actor: Actor) -> None:
    """R21: only the office erases a player's personal data."""
    _office_only(actor, "erases a player's personal data", rule="R21")


def may_reapply_erasures(actor: Actor) -> None:
    """R21: only the office re-applies erasures."""
    _office_only(actor, "re-applies erasures", rule="R21")


def may_erase_inactive_players(actor: Actor) -> None:
    """R21: only the office erases inactive players (the retention sweep)."""
    _office_only(actor, "erases inactive players", rule="R21")


def may_manage_sanctions(actor: Actor) -> None:
    """R15: the console's sanctions pages are the office's (a host bans through the API)."""
    _office_only(actor, "issues and lifts sanctions")


def may_disqualify(actor: Actor) -> None:
    """R13: only the office disqualifies players from qualifying."""
    _office_only(actor, "disqualifies players")


def may_withdraw_disqualification(actor: Actor) -> None:
    """R13: only the office withdraws disqualifications."""
    _office_only(actor, "withdraws disqualifications")


def may_publish_qualifiers(actor: Actor) -> None:
    """R12, R14: only the office settles ties by draw and publishes qualifier lists."""
    _office_only(actor, "publishes qualifier lists")


def may_follow_seasons(actor: Actor) -> None:
    """The console's season at a glance (missing reports, provisional lists) is the office's."""
    _office_only(actor, "follows the seasons here")


def may_make_charts(actor: Actor) -> None:
    """R7: only the office makes points charts."""
    _office_only(actor, "makes points charts")


def may_change_charts(actor: Actor) -> None:
    """R7: only the office changes points charts."""
    _office_only(actor, "changes points charts")


def may_create_keys(actor: Actor) -> None:
    """Only the office creates API keys."""
    _office_only(actor, "creates API keys")


def may_read_keys(actor: Actor) -> None:
    """Only the office reads the API keys."""
    _office_only(actor, "reads the API keys")


def may_revoke_keys(actor: Actor) -> None:
    """Only the office revokes API keys."""
    _office_only(actor, "revokes API keys")


def is_own_key(actor: Actor, key_id: int) -> bool:
    """Whether the key is the one the caller is using (the console signed in with it)."""
    return actor.key_id is not None and actor.key_id == key_id


def may_revoke_key(actor: Actor, key_id: int) -> None:
    """Only the office revokes a key, and never the key it is using (it would shut itself out)."""
    may_revoke_keys(actor)
    if is_own_key(actor, key_id):
        raise Forbidden(
            f"API key {key_id} is the key you are using: it cannot revoke itself. "
            "Revoke it with another office key."
        )


def may_read_audit_log(actor: Actor) -> None:
    """R18: only the office reads the audit log."""
    _office_only(actor, "reads the audit log")


def sets_up_league(actor: Actor) -> bool:
    """Whether the caller sets the league up (`may_set_up_league` passes): a venue's settings page
    then offers its details to edit, not only its nights, and the home leads with a new league's
    first steps."""
    return actor.is_office


def may_set_up_league(actor: Actor) -> None:
    """Only the office sets the league up: regions, venues, seasons and the league's settings."""
    if not sets_up_league(actor):
        raise Forbidden("Only the office sets up regions, venues, seasons and the league's settings.")


def may_remove_demo(actor: Actor) -> None:
    """Only the office removes the demo league (from the console; the command needs the server)."""
    _office_only(actor, "removes the demo league")


def may_keep_email_consent(actor: Actor, of_their_venues: bool) -> None:
    """R23: a player's email consent is the office's, or a host's for a player of their venues (R19)."""
    if actor.is_office or (actor.is_host and of_their_venues):
        return
    raise Forbidden(
        "Only the office, or a host of a venue where the player plays, keeps their email consent.",
        rule="R23",
    )
