"""Who goes out of a night (R22, R4, R6): bust-outs, several on one hand ordered by their chips
before it (more chips finish higher; equal chips in the host's order); a declared withdrawal,
an absent player blinded off and a no-show, each at the place they left; the undo of the last
of these (or of a sign-in or a re-entry); the early end by chip counts (001 §8); and the night
become its venue's report, through the checks every report passes (R2-R6, R16), posted once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from models.entities import NightAction, NightEntry
from models.errors import Conflict, InvalidInput, LeagueError, Problem, RuleViolation
from models.rules.drafts import ReportDraft
from models.rules.knockouts import no_show_knocker
from models.rules.nights import Out, hand_order, places
from models.services.audit_log.writes import record
from models.services.nights.runs import Run
from models.services.nights.sign_ins import apply_moves
from models.services.tournaments.writes import submit_report
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


def _out(run: Run, kind: str, rows: list[dict[str, Any]], knocked_out_by: int | None) -> Done:
    """Players out on one hand (the sequence the action makes is their hand)."""
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
    if knocked_out_by is not None:
        knocker = run.entry(knocked_out_by)
        if knocker is not None and knocker.status == "no_show":  # R8a: never played a hand
            raise RuleViolation.at("knocked_out_by", no_show_knocker(f"Player {knocked_out_by}"), rule="R8a")
        winner = _playing_entry(run, knocked_out_by, "knocked_out_by")
        if winner.player_id in ids:
            raise InvalidInput.at("knocked_out_by", "A player does not knock themselves out.", rule="R22")
    chips = {row["player_id"]: row.get("chips") for row in rows}
    order = hand_order([(pid, chips[pid]) for pid in ids])
    seats = {}
    for rank, pid in enumerate(order):
        entry = run.entry(pid)
        assert entry is not None
        seats[str(pid)] = [entry.table_no, entry.seat_no]
        entry.status = OUT_STATUS[kind]
        entry.out_hand, entry.out_rank, entry.chips_before = run.night.sequence, rank, chips[pid]
        entry.knocked_out_by_id = knocked_out_by
    run.session.flush()
    moves = apply_moves(run)
    kept: dict[str, Any] = {"players": [{"player_id": pid, "chips": chips[pid]} for pid in ids]}
    if knocked_out_by is not None:
        kept["knocked_out_by"] = knocked_out_by
    return kept, {"order": order, "seats": seats, "moves": moves}


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


def undo(run: Run, _body: dict[str, Any]) -> Done:
    """The last sign-in, bust-out, withdrawal, absence, no-show or re-entry not undone yet, taken
    back whole (its moves too); audited."""
    session, night = run.session, run.night
    last = session.scalar(
        select(NightAction)
        .where(
            NightAction.night_id == night.id,
            NightAction.undone_at.is_(None),
            NightAction.kind.in_((*UNDOABLE, *BARRIERS)),
        )
        .order_by(NightAction.sequence.desc())
        .limit(1)
    )
    if last is None or last.kind not in UNDOABLE:
        after = f" after the {last.kind.replace('_', ' ')}" if last is not None else ""
        raise Conflict(
            f"Nothing to undo{after}.", rule="R22", problems=[Problem("type", "Nothing to undo.", "R22")]
        )
    effect = last.effect
    for move in reversed(effect.get("moves", [])):
        entry = run.entry(move["player_id"])
        assert entry is not None
        entry.table_no = None
    session.flush()
    for move in reversed(effect.get("moves", [])):
        entry = run.entry(move["player_id"])
        assert entry is not None
        entry.table_no, entry.seat_no = move["from"]
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
    asked = {key: value for key, value in last.body.items() if key != "asked"}  # not its digest
    undone = {"sequence": last.sequence, "type": last.kind, "body": asked}
    record(session, run.actor, "night.undo", "night", night.id, before=undone)
    return {}, {"undone": undone}


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
    night.tournament_id, night.state, night.report_problems = written.tournament.id, "reported", None
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
