"""What the league website writes against a client generated from openapi.yaml: read standings
(a page of them) and a profile, post and correct a report, read a problem. Type-checked with
mypy --strict by tests/client/test_generated_client.py; never imported by the suite itself."""

from __future__ import annotations

import datetime

from league_client import AuthenticatedClient, Client
from league_client.api.players import get_player
from league_client.api.standings import get_standings, get_standings_csv
from league_client.api.tournaments import correct_report, get_report, post_report
from league_client.models import (
    CorrectionIn,
    PlayerProfileOut,
    Problem,
    ProblemErrors,
    ReportIn,
    ReportOut,
    ReportWritten,
    ResultIn,
    StandingsOut,
)


def leaders(client: Client, season_id: int, venue_id: int) -> list[tuple[int, str, int]]:
    answer = get_standings.sync(season_id=season_id, venue_id=venue_id, client=client)
    if not isinstance(answer, StandingsOut):
        return []
    return [(row.rank, row.player.display_name, row.points) for row in answer.standings]


def standings_page(client: Client, season_id: int, venue_id: int, page: int) -> tuple[list[int], int]:
    """One page of a long table: its rows keep their ranks in the whole; `total` counts them all."""
    answer = get_standings.sync(
        season_id=season_id, venue_id=venue_id, client=client, page=page, per_page=500
    )
    if not isinstance(answer, StandingsOut):
        return [], 0
    return [row.rank for row in answer.standings], answer.total


def standings_sheet(client: Client, season_id: int, venue_id: int) -> str:
    answer = get_standings_csv.sync(season_id=season_id, venue_id=venue_id, client=client)
    return answer if isinstance(answer, str) else ""


def seasons_played(client: Client, player_id: int) -> list[tuple[int, int, int | None]]:
    answer = get_player.sync(player_id=player_id, client=client)
    if not isinstance(answer, PlayerProfileOut):
        return []
    return [(s.season_id, s.venue_id, s.rank) for s in answer.seasons]


def report_tonight(client: AuthenticatedClient, venue_id: int, player_ids: list[int]) -> int | str:
    body = ReportIn(
        venue_id=venue_id,
        date=datetime.date(2026, 3, 4),
        results=[ResultIn(place=place, player_id=pid) for place, pid in enumerate(player_ids, start=1)],
    )
    answer = post_report.sync(client=client, body=body, idempotency_key="crown-2026-03-04")
    if isinstance(answer, ReportWritten):
        return answer.id
    if isinstance(answer, Problem):
        return f"{answer.rule}: {answer.detail}"
    return "no answer"


def fix_order(client: AuthenticatedClient, report_id: int) -> str:
    """Reverse a stored report's places: the fetched report's fields (one ReportKind, one
    EntrantStatus) go into the correction as they are."""
    stored = get_report.sync(tournament_id=report_id, client=client)
    if not isinstance(stored, ReportOut):
        return "not found"
    last = len(stored.results)
    correction = CorrectionIn(
        venue_id=stored.venue_id,
        date=stored.date,
        session=stored.session,
        kind=stored.kind,
        results=[
            ResultIn(place=last - r.place + 1, player_id=r.player.id, status=r.status) for r in stored.results
        ],
        reason="Places were reversed.",
    )
    answer = correct_report.sync(tournament_id=report_id, client=client, body=correction)
    if isinstance(answer, Problem):
        return problem_line(answer)
    return "corrected" if isinstance(answer, ReportWritten) else "no answer"


def problem_line(problem: Problem) -> str:
    """A refusal as the website shows it: status, rule, and the fields named."""
    fields = sorted(problem.errors.additional_properties) if isinstance(problem.errors, ProblemErrors) else []
    rule = problem.rule if isinstance(problem.rule, str) else "-"
    return f"{problem.status} {rule} {problem.title}: {problem.detail} ({', '.join(fields)})"
