"""Who goes out of a night (R22, R4, R6): bust-outs, several on one hand ordered by their chips
before it (more chips finish higher; equal chips in the host's order); a declared withdrawal,
an absent player blinded off and a no-show, each at the place they left; the undo of the last
of these (or of a sign-in or a re-entry), whole or one player of its hand (the others' places
counted again); who knocked each player out (R8a); the early end by chip counts (001 §8); and the night
become its venue's report, through the checks every report passes (R2-R6, R16), posted once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities import NightAction, NightEntry
from models.errors import Conflict, InvalidInput, LeagueError, Problem, RuleViolation
from models.rules.drafts import ReportDraft
from models.rules.knockouts import no_show_knocker
from models.rules.nights import Out, hand_order, places
from models.services.audit_log.writes import record
from models.services.nights.runs import Run
from models.services.nights.sign_ins import apply_moves
from models.services.reports.writes import submit_report
from models.services.webhooks.tell import night_told

Done = tuple[dict[str, Any], dict[str, Any]]
OUT_STATUS = {"bust": "out", "withdraw": "declared_withdrawal", "absent": "absent", "no_show": "no_show"}
# R6: a night's statuses as a report's.
REPORTED_STATUS = {
    "playing": "played",
    "out": "played",
    "declared_withdrawal": "declared_withdrawal",
    "absent": "absent",
    "no_show": "no_show",
}
UNDOABLE = ("sign_in", "bust", "withdraw", "absent", "no_show", "re_enter")
# Undone only in order: after these, nothing before them is undone.
BARRIERS = ("seat", "end_early")


def _playing_entry(run: Run, player_id: int, path: str) -> NightEntry:
    entry = run.entry(player_id)
    if entry is None:
        raise InvalidInput.at(path, f"Player {player_id} is not signed in tonight.", rule="R22")
    if entry.status != "playing":
        raise Conflict(
            f"Player {player_id} is out already.", rule="R22", problems=[Problem(path, "Out already.", "R22")]
        )
    return entry


def _knocker(run: Run, knocker: int, ids: list[int], path: str) -> None:
    """A player knocked out is knocked out by a player still in after the hand (R22): never one
    going out on the same hand, never themself; and never a no-show, who never played (R8a)."""
    entry = run.entry(knocker)
    if entry is not None and entry.status == "no_show":
        raise RuleViolation.at(path, no_show_knocker(f"Player {knocker}"), rule="R8a")
    if knocker in ids:
        said = (
            "A player does not knock themselves out"
            if len(ids) == 1
            else f"Player {knocker} goes out on this hand too"
        )
        raise InvalidInput.at(
            path, f"{said}: a player is knocked out by one still in after the hand.", rule="R22"
        )
    if entry is None:
        raise InvalidInput.at(path, f"Player {knocker} is not signed in tonight.", rule="R22")
    if entry.status != "playing":
        raise RuleViolation.at(
            path, f"Player {knocker} is out already: a player is knocked out by one still in.", rule="R22"
        )


def _out(run: Run, kind: str, rows: list[dict[str, Any]], knocked_out_by: int | None) -> Done:
    """Players out on one hand (the sequence the action makes is their hand), each knocked out
    by the player their row names, else by the action's `knocked_out_by` (R8a)."""
    ids = [row["player_id"] for row in rows]
    entries = [_playing_entry(run, pid, f"players.{n}.player_id") for n, pid in enumerate(ids)]
    if len(set(ids)) != len(ids):
        raise InvalidInput.at("players", "A player goes out once.", rule="R4")
    if len(entries) >= len(run.playing):
        raise RuleViolation.at("players", "One player is always left: the last one left wins.", rule="R22")
    if len(rows) > 1 and any(row.get("chips") is None for row in rows):
        raise InvalidInput.at(
            "players",
            "Players out on one hand each give their chips before it: more chips finish higher.",
            rule="R4",
        )
    knockers: dict[int, int | None] = {}
    for n, row in enumerate(rows):
        own = row.get("knocked_out_by")
        knockers[row["player_id"]] = own if own is not None else knocked_out_by
        if own is not None:
            _knocker(run, own, ids, f"players.{n}.knocked_out_by")
    if knocked_out_by is not None:
        _knocker(run, knocked_out_by, ids, "knocked_out_by")
    chips = {row["player_id"]: row.get("chips") for row in rows}
    order = hand_order([(pid, chips[pid]) for pid in ids])
    seats = {}
    for rank, pid in enumerate(order):
        entry = run.entry(pid)
        assert entry is not None
        seats[str(pid)] = [entry.table_no, entry.seat_no]
        entry.status = OUT_STATUS[kind]
        entry.out_hand, entry.out_rank, entry.chips_before = run.night.sequence, rank, chips[pid]
        entry.knocked_out_by_id = knockers[pid]
    run.session.flush()
    moves = apply_moves(run)
    kept: dict[str, Any] = {"players": [_row_kept(row) for row in rows]}
    if knocked_out_by is not None:
        kept["knocked_out_by"] = knocked_out_by
    return kept, {"order": order, "seats": seats, "moves": moves}


def _row_kept(row: dict[str, Any]) -> dict[str, Any]:
    kept = {"player_id": row["player_id"], "chips": row.get("chips")}
    if row.get("knocked_out_by") is not None:
        kept["knocked_out_by"] = row["knocked_out_by"]
    return kept


def bust(run: Run, body: dict[str, Any]) -> Done:
    return _out(run, "bust", body["players"], body.get("knocked_out_by"))


def one_out(run: Run, body: dict[str, Any]) -> Done:
    """A declared withdrawal, an absent player blinded off, or a no-show (R6), at this place. A
    player who knocked someone out tonight played a hand: never a no-show (R8a)."""
    knocked = [e.player_id for e in run.entries if e.knocked_out_by_id == body["player_id"]]
    if body["type"] == "no_show" and knocked:
        who = f"Player {body['player_id']}, who knocked out player {knocked[0]} tonight,"
        raise RuleViolation.at("player_id", no_show_knocker(who), rule="R8a")
    kept, effect = _out(run, body["type"], [{"player_id": body["player_id"]}], None)
    return {"player_id": body["player_id"]}, effect


def last_undoable(session: Session, night_id: int) -> NightAction | None:
    """The last sign-in, bust-out, withdrawal, absence, no-show or re-entry not undone yet; None
    when there is none, or when a seat draw or the early end came after it (undone in order)."""
    last = session.scalar(
        select(NightAction)
        .where(
            NightAction.night_id == night_id,
            NightAction.undone_at.is_(None),
            NightAction.kind.in_((*UNDOABLE, *BARRIERS)),
        )
        .order_by(NightAction.sequence.desc())
        .limit(1)
    )
    return last if last is not None and last.kind in UNDOABLE else None


def players_of(action: NightAction) -> list[int]:
    """Who an undoable action concerns: who signed in or re-entered, or who went out (of a hand,
    best placed first; those already brought back by an undo of their own left out)."""
    if action.kind == "sign_in":
        return [int(action.effect["player_id"])]
    if action.kind == "re_enter":
        return [int(action.body["player_id"])]
    return [int(pid) for pid in action.effect.get("order", [])]


def _back_to_seats(run: Run, moves: list[dict[str, Any]]) -> None:
    """The action's moves taken back, the last first (every seat freed first: two moves may swap)."""
    for move in reversed(moves):
        entry = run.entry(move["player_id"])
        assert entry is not None
        entry.table_no = None
    run.session.flush()
    for move in reversed(moves):
        entry = run.entry(move["player_id"])
        assert entry is not None
        entry.table_no, entry.seat_no = move["from"]


def undo(run: Run, body: dict[str, Any]) -> Done:
    """The last sign-in, bust-out, withdrawal, absence, no-show or re-entry not undone yet, taken
    back whole (its moves too); or, with `player_id`, that one player of the last hand brought
    back, the others of the hand staying out, their places derived again (R4). Audited."""
    session, night = run.session, run.night
    last = last_undoable(session, night.id)
    if last is None:
        barrier = session.scalar(
            select(NightAction.kind)
            .where(NightAction.night_id == night.id, NightAction.kind.in_(BARRIERS))
            .where(NightAction.undone_at.is_(None))
            .order_by(NightAction.sequence.desc())
            .limit(1)
        )
        after = f" after the {barrier.replace('_', ' ')}" if barrier is not None else ""
        raise Conflict(
            f"Nothing to undo{after}.", rule="R22", problems=[Problem("type", "Nothing to undo.", "R22")]
        )
    concerned = players_of(last)
    asked = body.get("player_id")
    if asked is not None and asked not in concerned:
        message = (
            f"Player {asked} is not one of the last action's players (a {last.kind.replace('_', ' ')} "
            f"of player{'s' if len(concerned) > 1 else ''} {', '.join(map(str, concerned))}): only "
            "the last action is taken back, whole or one of its players."
        )
        raise Conflict(message, rule="R22", problems=[Problem("player_id", message, "R22")])
    if asked is not None and len(concerned) > 1:
        return _undo_one(run, last, asked)
    effect = last.effect
    _back_to_seats(run, effect.get("moves", []))
    if last.kind == "sign_in":
        entry = run.entry(effect["player_id"])
        assert entry is not None
        session.delete(entry)
        run.entries.remove(entry)
    elif last.kind == "re_enter":
        entry = run.entry(last.body["player_id"])
        assert entry is not None
        before = effect["before"]
        entry.status, entry.re_entered = before["status"], False
        entry.out_hand, entry.out_rank = before["out_hand"], before["out_rank"]
        entry.chips_before, entry.knocked_out_by_id = before["chips_before"], before["knocked_out_by_id"]
        entry.table_no, entry.seat_no = before["seat"]
    else:
        for pid, seat in effect["seats"].items():
            entry = run.entry(int(pid))
            assert entry is not None
            entry.status, entry.out_hand, entry.out_rank = "playing", None, None
            entry.chips_before = entry.knocked_out_by_id = None
            entry.table_no, entry.seat_no = seat
    last.undone_at = night.sequence
    session.flush()
    undone = {"sequence": last.sequence, "type": last.kind, "body": _asked(last), "players": concerned}
    record(session, run.actor, "night.undo", "night", night.id, before=undone)
    return {**({"player_id": asked} if asked is not None else {})}, {"undone": undone}


def _asked(action: NightAction) -> dict[str, Any]:
    return {key: value for key, value in action.body.items() if key != "asked"}  # not its digest


def _undo_one(run: Run, last: NightAction, player_id: int) -> Done:
    """One player of the last hand back in, on their seat before it: the hand's moves taken back,
    the player seated, the tables balanced again (the hand keeps the new moves, to take back
    whole later). The others stay out on that hand, in their order: their places follow (R4)."""
    session, night = run.session, run.night
    effect = dict(last.effect)
    _back_to_seats(run, effect.get("moves", []))
    session.flush()
    entry = run.entry(player_id)
    assert entry is not None
    entry.status, entry.out_hand, entry.out_rank = "playing", None, None
    entry.chips_before = entry.knocked_out_by_id = None
    entry.table_no, entry.seat_no = effect["seats"][str(player_id)]
    session.flush()
    moves = apply_moves(run)
    effect["order"] = [pid for pid in effect["order"] if pid != player_id]
    effect["seats"] = {pid: seat for pid, seat in effect["seats"].items() if pid != str(player_id)}
    effect["moves"] = moves
    effect["brought_back"] = [*effect.get("brought_back", []), player_id]
    last.effect = effect
    session.flush()
    undone = {
        "sequence": last.sequence,
        "type": last.kind,
        "body": _asked(last),
        "players": [player_id],
        "staying_out": effect["order"],
    }
    record(session, run.actor, "night.undo", "night", night.id, before=undone)
    return {"player_id": player_id}, {"undone": undone, "moves": moves}


def end_early(run: Run, body: dict[str, Any]) -> Done:
    """R22 (001 §8): the players left, placed by their chips (equal chips in the host's order)."""
    rows = body["chips"]
    given = [row["player_id"] for row in rows]
    left = {e.player_id for e in run.playing}
    if sorted(given) != sorted(left) or len(set(given)) != len(given):
        missing, extra = sorted(left - set(given)), sorted(set(given) - left)
        said = "; ".join(
            part
            for part in (
                f"missing players {', '.join(map(str, missing))}" if missing else "",
                f"not in: {', '.join(map(str, extra))}" if extra else "",
            )
            if part
        )
        raise InvalidInput.at(
            "chips",
            f"Give the chips of every player left, once each ({said or 'a player twice'}).",
            rule="R4",
        )
    order = hand_order([(row["player_id"], row["chips"]) for row in rows])
    for row in rows:
        entry = run.entry(row["player_id"])
        assert entry is not None
        entry.chips_before = row["chips"]
    _finish(run, order)
    return {"chips": rows}, {"order": order}


def finish_if_one_left(run: Run, kind: str) -> None:
    """When a player going out leaves one, the night is over: its report is posted."""
    if kind in OUT_STATUS and len(run.playing) == 1:
        _finish(run, [run.playing[0].player_id])


def _finish(run: Run, left: list[int]) -> None:
    night = run.night
    out = [Out(e.player_id, e.out_hand or 0, e.out_rank or 0) for e in run.entries if e.status != "playing"]
    placed = places(len(run.entries), out, left)
    if sorted(placed.values()) != list(range(1, len(run.entries) + 1)):  # never a gap (R4)
        raise RuleViolation.at("type", "The night's order has a gap: nothing is posted.", rule="R4")
    night.state, night.finished_at = "finished", run.now
    night.places = {str(pid): place for pid, place in placed.items()}
    run.session.flush()
    record(run.session, run.actor, "night.end", "night", night.id, after={"places": night.places})
    post_report(run, placed)
    night_told(run.session, "night.ended", night)  # R23: with the report it became


def post_report(run: Run, placed: dict[int, int], override_reason: str | None = None) -> None:
    """The night as its venue's report (the checks of every report); once: a refusal is kept
    with the night (`report_problems`), to post again once it is put right."""
    night, session = run.night, run.session
    by_player = {e.player_id: e for e in run.entries}
    draft: ReportDraft = {
        "venue_id": night.venue_id,
        "date": night.date,
        "session": night.session,
        "kind": "regular",
        "results": [
            {
                "place": place,
                "player_id": pid,
                "status": REPORTED_STATUS[by_player[pid].status],
                "knocked_out_by": by_player[pid].knocked_out_by_id,  # R8a
            }
            for pid, place in sorted(placed.items(), key=lambda item: item[1])
        ],
        "admitted": {e.player_id: e.override_reason for e in run.entries if e.override_reason},
    }
    if override_reason:
        draft["override_reason"] = override_reason
    try:
        with session.begin_nested():
            written = submit_report(session, run.actor, draft)
    except LeagueError as refused:
        night.report_problems = [
            {"path": p.path, "message": p.message, "rule": p.rule} for p in refused.problems
        ] or [{"path": "", "message": refused.detail, "rule": refused.rule}]
        session.flush()
        return
    night.tournament_id, night.state, night.report_problems = written.report.id, "reported", None
    session.flush()


def report_again(run: Run, body: dict[str, Any]) -> Done:
    """A finished night's report, refused when the night ended, posted again (the office may
    override a sanction issued since, with a reason)."""
    night = run.night
    if night.state != "finished":
        raise Conflict(
            "The night's report is posted already."
            if night.state == "reported"
            else "The night is not over.",
            rule="R22",
            problems=[Problem("type", "Nothing to post.", "R22")],
        )
    placed = {int(pid): place for pid, place in (night.places or {}).items()}
    post_report(run, placed, body.get("override_reason"))
    return {"overridden": bool(body.get("override_reason"))}, {"tournament_id": night.tournament_id}
