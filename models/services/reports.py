"""Result reports (R2-R7, R17, R18): check a finishing order whole, store it scored, correct it,
void it. Nothing is written unless the whole report passes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from models.actor import Actor
from models.base import utcnow
from models.clock import today
from models.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    LeagueError,
    NotFound,
    RuleViolation,
)
from models.league import Season, Venue
from models.players import Player
from models.rules.charts import NoBandForEntrants
from models.rules.players import (
    normalise_email,
    normalise_name,
    parse_membership_number,
    similar_names,
)
from models.rules.reports import missing_places, place_problems, score_report
from models.services.audit import plain, record
from models.services.league import chart_rule
from models.services.players import create_player
from models.services.seasons import season_for
from models.tournaments import Result, Tournament


@dataclass
class Resolved:
    """Who each result names: an existing player, or a new one to create once all is checked."""

    player: Player | None = None
    new: dict[str, Any] | None = None
    key: str = ""  # what makes two rows the same person (player id or new email)


@dataclass
class Checked:
    venue: Venue
    season: Season
    rows: list[dict[str, Any]]
    players: list[Resolved]
    warnings: list[dict[str, Any]] = field(default_factory=list)


def report_snapshot(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.id,
        "venue_id": tournament.venue_id,
        "season_id": tournament.season_id,
        "date": plain(tournament.date),
        "session": tournament.session,
        "kind": tournament.kind,
        "entrants": tournament.entrants,
        "version": tournament.version,
        "voided": tournament.voided,
        "void_reason": tournament.void_reason,
        "results": [
            {
                "place": r.place,
                "player_id": r.player_id,
                "status": r.status,
                "placement_points": r.placement_points,
                "participation_points": r.participation_points,
                "points": r.points,
            }
            for r in tournament.results
        ],
    }


def get_report(session: Session, actor: Actor, tournament_id: int) -> Tournament:
    """A report; a voided one only for the office and the venue's hosts (R17)."""
    tournament = session.get(
        Tournament,
        tournament_id,
        options=[selectinload(Tournament.results).selectinload(Result.player)],
    )
    if tournament is None or (
        tournament.voided and not (actor.is_office or actor.hosts_venue(tournament.venue_id))
    ):
        raise NotFound(f"There is no report with id {tournament_id}.")
    return tournament


# Checking a report ------------------------------------------------------------------------


def _may_report_for(actor: Actor, venue_id: int) -> None:
    if not (actor.is_office or actor.hosts_venue(venue_id)):
        raise Forbidden(f"Your key does not host venue {venue_id}: a host reports for their own venues.")


def _season_of(session: Session, report: dict[str, Any], venue: Venue) -> Season:
    """R2: a regular report's season contains its date; a playoff or championship names its
    season and is held after the season's last day."""
    day: date = report["date"]
    if day > today():
        message = f"{day.isoformat()} is in the future; report a tournament once it is played."
        raise RuleViolation(message, rule="R2", errors={"date": [message]})
    if report["kind"] == "regular":
        season = season_for(session, venue, day)
        if season is None:
            message = f"No season covers venue {venue.id} on {day.isoformat()}."
            raise RuleViolation(message, rule="R2", errors={"date": [message]})
        if report.get("season_id") not in (None, season.id):
            message = f"The season of {day.isoformat()} at this venue is {season.id}."
            raise RuleViolation(message, rule="R2", errors={"season_id": [message]})
        return season
    if report.get("season_id") is None:
        message = f"A {report['kind']} report names its season."
        raise RuleViolation(message, rule="R2", errors={"season_id": [message]})
    named = session.get(Season, report["season_id"])
    if named is None:
        message = f"There is no season with id {report['season_id']}."
        raise InvalidInput(message, errors={"season_id": [message]})
    if day <= named.ends_on:
        message = f"A {report['kind']} is held after the season's last day ({named.ends_on.isoformat()})."
        raise RuleViolation(message, rule="R2", errors={"date": [message]})
    if report["kind"] == "playoff" and not named.covers_region(venue.region_id):
        message = f"Season {named.id} does not cover venue {venue.id}'s region."
        raise RuleViolation(message, rule="R3", errors={"venue_id": [message]})
    return named


def _resolve(
    session: Session, rows: list[dict[str, Any]]
) -> tuple[list[Resolved], dict[str, list[str]], list[dict[str, Any]]]:
    """R5: find each named player; plan new ones. Returns (resolved, problems, warnings)."""
    problems: dict[str, list[str]] = {}
    warnings: list[dict[str, Any]] = []
    resolved: list[Resolved] = []
    for index, row in enumerate(rows):
        at = f"results.{index}"
        found: Player | None = None
        if row.get("player_id") is not None:
            found = session.get(Player, row["player_id"])
            if found is None:
                problems[f"{at}.player_id"] = [f"There is no player with id {row['player_id']}."]
        elif row.get("membership_number") is not None:
            number = row["membership_number"].strip()
            try:
                parse_membership_number(number, today=today())
            except ValueError as exc:
                problems[f"{at}.membership_number"] = [str(exc)]
            else:
                found = session.scalar(select(Player).where(Player.membership_number == number))
                if found is None:
                    problems[f"{at}.membership_number"] = [f"No player has membership number {number}."]
        elif row.get("email") is not None:
            email = normalise_email(row["email"])
            found = session.scalar(select(Player).where(Player.email == email))
            if found is None and row.get("full_name"):
                # email with full_name: this player, registered now if the email is new (R5).
                new = {"full_name": row["full_name"], "email": email}
                resolved.append(Resolved(new=new, key=f"email:{email}"))
                continue
            if found is not None and row.get("full_name") and not _same_person(found, row["full_name"]):
                problems[f"{at}.full_name"] = [_not_that_player(found)]
                resolved.append(Resolved(key=f"row:{index}"))
                continue
            if found is None:
                problems[f"{at}.email"] = [
                    f"No player has the email {email}; to register them, send new_player "
                    "with full_name and email."
                ]
        elif row.get("new_player") is not None:
            new = dict(row["new_player"])
            new["email"] = normalise_email(new["email"])
            found = session.scalar(select(Player).where(Player.email == new["email"]))
            if found is None:
                problems.update(_new_player_problems(session, new, f"{at}.new_player"))
                resolved.append(Resolved(new=new, key=f"email:{new['email']}"))
                continue
            if not _same_person(found, new["full_name"]):
                problems[f"{at}.new_player.email"] = [_not_that_player(found)]
                resolved.append(Resolved(key=f"row:{index}"))
                continue
            warnings.append(
                {
                    "code": "existing_player",
                    "message": f"results.{index}: {new['email']} already belongs to player {found.id}, "
                    "who was used instead of registering a new player.",
                    "player_ids": [found.id],
                }
            )
        else:
            problems[at] = ["Name the player by player_id, membership_number, email or new_player."]
        if found is not None and found.merged_into_id is not None:
            survivor = session.get(Player, found.merged_into_id)
            warnings.append(
                {
                    "code": "merged_player",
                    "message": f"results.{index}: player {found.id} was merged into player "
                    f"{found.merged_into_id}, who was used.",
                    "player_ids": [found.merged_into_id],
                }
            )
            found = survivor
        resolved.append(Resolved(player=found, key=f"id:{found.id}" if found else f"row:{index}"))
    # Two new players of one report cannot share a membership number (R5): named here, not a
    # 409 from create_player half-way through writing.
    number_at: dict[str, int] = {}
    for index, item in enumerate(resolved):
        number = (item.new or {}).get("membership_number")
        if number is None:
            continue
        if number in number_at:
            problems.setdefault(f"results.{index}.new_player.membership_number", []).append(
                f"Also given to the new player at results.{number_at[number]} (R5)."
            )
        else:
            number_at[number] = index
    first_at: dict[str, int] = {}
    for index, item in enumerate(resolved):
        if item.key in first_at:
            field_name = next(
                (
                    k
                    for k in ("player_id", "membership_number", "email", "new_player")
                    if rows[index].get(k) is not None
                ),
                "player_id",
            )
            problems.setdefault(f"results.{index}.{field_name}", []).append(
                f"The same player as results.{first_at[item.key]}: a player appears once (R4)."
            )
        else:
            first_at[item.key] = index
    return resolved, problems, warnings


def _same_person(player: Player, full_name: str) -> bool:
    """R5: a name given with a registered email must closely match that player's name, or the
    points would land on someone else."""
    return bool(similar_names(normalise_name(full_name), [(player.id, player.name_key)]))


def _not_that_player(player: Player) -> str:
    return (
        f"This email is registered to player {player.id} ({player.display_name}), whose name "
        "does not match; check the email, or name that player by email alone."
    )


def _new_player_problems(session: Session, new: dict[str, Any], at: str) -> dict[str, list[str]]:
    """R5: a new player's membership number is their date of birth and a PIN, and unused."""
    number = new.get("membership_number")
    if number is None:
        return {}
    try:
        born = parse_membership_number(number, today=today())
    except ValueError as exc:
        return {f"{at}.membership_number": [str(exc)]}
    if new.get("date_of_birth") not in (None, born):
        return {f"{at}.membership_number": ["Does not start with the date of birth given (R5)."]}
    owner = session.scalar(select(Player.id).where(Player.membership_number == number))
    if owner is not None:
        return {f"{at}.membership_number": [f"Already belongs to player {owner}."]}
    return {}


def check_report(session: Session, actor: Actor, report: dict[str, Any]) -> Checked:
    """Every check of a report, before anything is written. All problems are gathered and
    named together (venue and date, places, players, chart), then the report is refused whole."""
    problems: dict[str, list[str]] = {}
    rules: list[str] = []
    venue = session.get(Venue, report["venue_id"])
    season: Season | None = None
    if venue is None:
        problems["venue_id"] = [f"There is no venue with id {report['venue_id']}."]
    else:
        _may_report_for(actor, venue.id)
        try:
            season = _season_of(session, report, venue)
        except LeagueError as exc:
            problems.update(exc.errors)
            if exc.rule:
                rules.append(exc.rule)
    rows = report["results"]
    for index, messages in place_problems([row["place"] for row in rows]).items():
        problems[f"results.{index}.place"] = messages
    if any(key.endswith(".place") for key in problems):
        rules.append("R4")
        missing = missing_places([row["place"] for row in rows])
        if missing:
            shown = ", ".join(map(str, missing[:20])) + (" …" if len(missing) > 20 else "")
            problems["results"] = [f"Places must be exactly 1..{len(rows)}; missing: {shown}."]
    resolved, player_problems, warnings = _resolve(session, rows)
    if player_problems:
        problems.update(player_problems)
        messages = [m for msgs in player_problems.values() for m in msgs]
        if any("(R4)" in m for m in messages) and "R4" not in rules:
            rules.append("R4")  # the same player twice
        if any("(R4)" not in m for m in messages):
            rules.append("R5")  # a player not found
    if season is not None:
        try:
            chart_rule(season.points_chart).points_for(len(rows))
        except NoBandForEntrants as exc:
            rules.append("R7")
            problems.setdefault("results", []).append(f"R7: {exc}.")
    if problems:
        summary = "; ".join(f"{k}: {v[0]}" for k, v in list(problems.items())[:5])
        if not rules:
            raise InvalidInput(f"the report is refused whole; {summary}", errors=problems)
        raise RuleViolation(
            f"{', '.join(rules)}: the report is refused whole; {summary}",
            rule=rules[0],
            errors=problems,
        )
    assert venue is not None and season is not None
    return Checked(venue=venue, season=season, rows=rows, players=resolved, warnings=warnings)


# Writing ----------------------------------------------------------------------------------


def _scored_results(session: Session, actor: Actor, checked: Checked) -> list[Result]:
    season = checked.season
    chart = chart_rule(season.points_chart)
    earned = score_report(
        chart,
        [(row["place"], row["status"]) for row in checked.rows],
        season.participation_points,
        season.absent_keeps_place_points,
    )
    results = []
    for index, (row, who, points) in enumerate(zip(checked.rows, checked.players, earned, strict=True)):
        player = who.player
        if player is None:
            assert who.new is not None
            player, candidates = create_player(session, actor, who.new)
            if candidates:
                checked.warnings.append(
                    {
                        "code": "possible_duplicate",
                        "message": f"results.{index}: the new player {player.display_name} (id "
                        f"{player.id}) closely matches existing players; the office can merge them (R5).",
                        "player_ids": candidates,
                    }
                )
        results.append(
            Result(
                player_id=player.id,
                place=row["place"],
                status=row["status"],
                placement_points=points.placement_points,
                participation_points=points.participation_points,
                points=points.points,
            )
        )
    return results


def _refuse_taken_slot(session: Session, report: dict[str, Any], exclude_id: int | None) -> None:
    query = select(Tournament.id).where(
        Tournament.venue_id == report["venue_id"],
        Tournament.date == report["date"],
        Tournament.session == report["session"],
        Tournament.voided_at.is_(None),
    )
    if exclude_id is not None:
        query = query.where(Tournament.id != exclude_id)
    clash = session.scalar(query)
    if clash is not None:
        raise Conflict(
            f"Report {clash} already holds venue {report['venue_id']}, {report['date'].isoformat()}, "
            f"session {report['session']}: correct it (PUT) or use another session number.",
            errors={"session": [f"Already reported as report {clash}."]},
        )


def submit_report(
    session: Session, actor: Actor, report: dict[str, Any]
) -> tuple[Tournament, list[dict[str, Any]]]:
    """Store a new report; returns it and its warnings (possible duplicates, R5)."""
    checked = check_report(session, actor, report)
    _refuse_taken_slot(session, report, None)
    tournament = Tournament(
        venue_id=checked.venue.id,
        season_id=checked.season.id,
        date=report["date"],
        session=report["session"],
        kind=report["kind"],
        entrants=len(checked.rows),
        reported_by=actor.name,
        reported_by_key_id=actor.key_id,
    )
    tournament.results = sorted(_scored_results(session, actor, checked), key=lambda r: r.place)
    session.add(tournament)
    session.flush()
    record(
        session, actor, "tournament.create", "tournament", tournament.id, after=report_snapshot(tournament)
    )
    return tournament, checked.warnings


def _may_change(actor: Actor, tournament: Tournament) -> None:
    """R17: the office any time; a host of the venue within the season's correction_days."""
    if actor.is_office:
        return
    if not actor.hosts_venue(tournament.venue_id):
        raise Forbidden(f"Your key does not host venue {tournament.venue_id}.")
    _within_window(tournament.season.correction_days, tournament.date)


def _within_window(days: int, day: date) -> None:
    last_day = day + timedelta(days=days)
    if today() > last_day:
        raise Forbidden(
            f"R17: a host may change a report within {days} days of the tournament "
            f"(until {last_day.isoformat()}); ask the office."
        )


def correct_report(
    session: Session, actor: Actor, tournament: Tournament, report: dict[str, Any], reason: str
) -> tuple[Tournament, list[dict[str, Any]]]:
    """R17: replace a report whole (results, date, session, kind); points are recomputed."""
    if tournament.voided:
        raise Conflict(f"Report {tournament.id} is voided; report the tournament anew instead.")
    _may_change(actor, tournament)
    before = report_snapshot(tournament)
    report = {"session": tournament.session, "kind": tournament.kind, **report}
    if report["kind"] != "regular":
        report.setdefault("season_id", tournament.season_id)
    checked = check_report(session, actor, report)
    if not actor.is_office and report["date"] != tournament.date:
        # A host may move a report only to a date that is itself still in the window.
        _within_window(checked.season.correction_days, report["date"])
    _refuse_taken_slot(session, report, tournament.id)
    # Old results go first: the new ones reuse places and players (unique per report).
    tournament.results.clear()
    session.flush()
    tournament.venue_id = checked.venue.id
    tournament.season_id = checked.season.id
    tournament.date = report["date"]
    tournament.session = report["session"]
    tournament.kind = report["kind"]
    tournament.entrants = len(checked.rows)
    tournament.version += 1
    tournament.results = _scored_results(session, actor, checked)
    session.flush()
    session.refresh(tournament)
    record(
        session,
        actor,
        "tournament.correct",
        "tournament",
        tournament.id,
        before=before,
        after=report_snapshot(tournament),
        reason=reason,
    )
    return tournament, checked.warnings


def void_report(session: Session, actor: Actor, tournament: Tournament, reason: str) -> Tournament:
    """R17: a voided report counts nowhere; it stays readable by the office."""
    if tournament.voided:
        raise Conflict(f"Report {tournament.id} is already voided.")
    _may_change(actor, tournament)
    before = report_snapshot(tournament)
    tournament.voided_at = utcnow()
    tournament.voided_by = actor.name
    tournament.void_reason = reason
    session.flush()
    record(
        session,
        actor,
        "tournament.void",
        "tournament",
        tournament.id,
        before=before,
        after=report_snapshot(tournament),
        reason=reason,
    )
    return tournament
