"""Who comes into a night (R22): sign-in at the door (a player named as a report's row names
one, R5, or registered new), the door list enforced there (R16: the office may override with a
reason), late registration closed where the venue says (past it, the host may let a player in
as a late entry); the seat draw; a late entrant's open seat; re-entry at a break (002)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from models.entities import NightEntry, Player
from models.errors import Conflict, InvalidInput, Problem, RuleViolation, refuse
from models.rules.drafts import ResultDraft
from models.rules.nights import balance, draw, open_seat, re_entry_problem
from models.rules.sanctions import barred_rows, sanction_override
from models.rules.structures import late_registration_open, said_closing
from models.services.access import overrides_sanctions
from models.services.audit_log.writes import record
from models.services.nights.runs import Run
from models.services.players.writes import register_players
from models.services.reports.checks import identify_players, labelled, players_by_name, too_many_entrants
from models.services.sanctions.queries import barring_sanctions

Done = tuple[dict[str, Any], dict[str, Any]]


def _at_the_door(path: str) -> str:
    """A report row's problem path (`results.0.email`) as the sign-in's (`player.email`)."""
    return "player" + path.removeprefix("results.0") if path.startswith("results.0") else path


def _named(run: Run, row: ResultDraft) -> Player:
    """R5: the player the row names, or the one it registers (its possible duplicates noticed)."""
    venue = run.night.venue
    matches = players_by_name(run.session, run.actor, [row], venue)
    (entrant,), notices, problems = identify_players(run.session, [row], run.night.date, matches)
    refuse("The sign-in is refused", [replace(p, path=_at_the_door(p.path)) for p in problems])
    run.notices += notices
    if entrant.new is not None:
        ((player, registered),) = register_players(
            run.session, run.actor, [(entrant.new, "player")], run.night.date
        )
        run.notices += registered
        return player
    assert entrant.player is not None
    return entrant.player


def sign_in(run: Run, body: dict[str, Any]) -> Done:
    night = run.night
    # A night becomes a report: it holds no more entrants than one (the league's max_entrants),
    # checked before anyone is looked up.
    full = too_many_entrants(run.session, len(run.entries) + 1)
    if full:
        raise RuleViolation.at(
            "player", full[0].message.replace("this one has", "this sign-in would make"), rule="R4"
        )
    player = _named(run, body["player"])
    already = run.entry(player.id)
    if already is not None:
        raise Conflict(
            f"{labelled(player)} is signed in already.",
            rule="R22",
            problems=[Problem("player", "Signed in already.", "R22")],
        )
    reason = body.get("override_reason")
    sanctions = [(s.id, s.player_id, s.terms) for s in barring_sanctions(run.session, [player.id])]
    barred = [
        replace(b, who=labelled(player))
        for b in barred_rows([player.id], sanctions, night.venue_id, night.date)
    ]
    overridden, problems = sanction_override(overrides_sanctions(run.actor), barred, reason)
    refuse("The sign-in is refused", [replace(p, path=_at_the_door(p.path)) for p in problems])
    late = False
    if night.clock_started_at is not None and not late_registration_open(
        run.rules, run.late_rule, run.played
    ):
        if not body.get("late"):
            closed = said_closing(run.rules, run.late_rule)
            raise RuleViolation.at(
                "late",
                f"Late registration closed {closed}: the host may still let the player in as a late entry.",
                rule="R22",
            )
        late = True
    seat = open_seat(_seated(run), night.table_size, run.rng) if night.drawn else None
    entry = NightEntry(
        night_id=night.id,
        player_id=player.id,
        table_no=seat[0] if seat else None,
        seat_no=seat[1] if seat else None,
        status="playing",
        late=late,
        re_entered=False,
        override_reason=reason if overridden else None,
        signed_in_at=run.now,
    )
    run.session.add(entry)
    run.session.flush()
    run.entries.append(entry)
    # A late entrant at a new table (every other one full): the tables are balanced again.
    moves = apply_moves(run) if seat is not None else []
    if overridden:
        record(
            run.session,
            run.actor,
            "night.override",
            "night",
            night.id,
            after={"player_id": player.id, "sanction_ids": [b.sanction_id for b in overridden]},
            reason=reason,
        )
    if late:
        record(run.session, run.actor, "night.late_entry", "night", night.id, after={"player_id": player.id})
    # The reason is the entry's (and the audit log's), not the action's: erasure scrubs it there.
    kept = {"player_id": player.id, "late": late, "overridden": bool(overridden)}
    return kept, {"player_id": player.id, "seat": list(seat) if seat else None, "moves": moves}


def _label(run: Run, entry: NightEntry) -> str:
    player = run.session.get(Player, entry.player_id)
    return player.display_name if player is not None else f"Player {entry.player_id}"


def _seated(run: Run) -> dict[int, tuple[int, int]]:
    return {
        e.player_id: (e.table_no, e.seat_no)
        for e in run.playing
        if e.table_no is not None and e.seat_no is not None
    }


def draw_seats(run: Run, _body: dict[str, Any]) -> Done:
    """R22: the seat draw, at tables of the venue's size; once (a late entrant then draws an open
    seat)."""
    night = run.night
    if night.drawn:
        raise Conflict(
            "The seats are drawn already.", rule="R22", problems=[Problem("type", "Drawn already.", "R22")]
        )
    playing = run.playing
    if len(playing) < 2:
        raise RuleViolation.at("type", "The draw needs two players signed in or more.", rule="R22")
    seats = draw([e.player_id for e in playing], night.table_size, run.rng)
    for entry in playing:
        entry.table_no, entry.seat_no = seats[entry.player_id]
    night.drawn = True
    run.session.flush()
    return {}, {"seats": {str(player): list(seat) for player, seat in seats.items()}}


def apply_moves(run: Run) -> list[dict[str, Any]]:
    """R22 (001 §7): the moves that keep the tables within one player of each other, applied."""
    if not run.night.drawn:
        return []
    moves = balance(_seated(run), run.night.table_size, run.rng)
    by_player = {e.player_id: e for e in run.playing}
    # Two moves may swap seats: free every seat first, so no two rows ever hold one (the index).
    for move in moves:
        by_player[move.player_id].table_no = None
    run.session.flush()
    for move in moves:
        by_player[move.player_id].table_no, by_player[move.player_id].seat_no = move.to
    run.session.flush()
    return [{"player_id": m.player_id, "from": list(m.source), "to": list(m.to)} for m in moves]


def re_enter(run: Run, body: dict[str, Any]) -> Done:
    """R22 (002): a player out may re-enter once, at a break, where the venue allows it (and
    until the break it says), on their own seat where it is free; still one entrant, with one
    place (R4)."""
    entry = run.entry(body["player_id"])
    if entry is None or entry.status != "out":
        raise InvalidInput.at(
            "player_id", "Only a player out (not withdrawn or absent) re-enters.", rule="R22"
        )
    if entry.re_entered:
        raise RuleViolation.at(
            "player_id", f"A player re-enters once: {_label(run, entry)} re-entered already.", rule="R22"
        )
    refused = re_entry_problem(run.rules, run.re_entry, run.played, run.night.clock_started_at is not None)
    if refused is not None:
        raise RuleViolation.at("player_id", refused, rule="R22")
    before = {
        "status": entry.status,
        "out_hand": entry.out_hand,
        "out_rank": entry.out_rank,
        "chips_before": entry.chips_before,
        "knocked_out_by_id": entry.knocked_out_by_id,
        "seat": [entry.table_no, entry.seat_no],
    }
    seated = _seated(run)
    own = (entry.table_no, entry.seat_no)
    tables = {table for table, _seat in seated.values()}
    free = own[0] in tables and own not in set(seated.values())
    seat = (
        own
        if free
        else (open_seat(seated, run.night.table_size, run.rng) if run.night.drawn else (None, None))
    )
    entry.status, entry.re_entered = "playing", True
    entry.out_hand = entry.out_rank = entry.chips_before = entry.knocked_out_by_id = None
    entry.table_no, entry.seat_no = seat
    run.session.flush()
    moves = apply_moves(run)
    return {"player_id": entry.player_id}, {"before": before, "seat": list(seat), "moves": moves}
