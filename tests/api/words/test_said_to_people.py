"""Words for people (api/words) without a page: a refusal at the door as the night's page says
it (through `said_to_people`: once, the field by its label, the player by name, the date in the
league's format, the rule kept for its link), an error page's problem, codes and small words."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from api.words import FORMS, Said, in_words, plural, problem_said, said_to_people, sentence
from models.errors import Conflict, LeagueError, Problem, refuse
from models.rules.people_dates import DateWords
from models.rules.sanctions import Barred, SanctionKind, Terms, barred_problem
from tests.support.console_forms import api_words_in


def door_refusal() -> Any:
    """R16 at the door as the night's sign-in refuses it: a suspended player, at `player.player_id`."""
    terms = Terms(SanctionKind.SUSPENSION, "outside_alcohol", date(2026, 6, 1), date(2026, 12, 14))
    problem = barred_problem(Barred(0, 12, 3, terms, who="Wendy P."))
    try:
        refuse("The sign-in is refused", [replace(problem, path="player.player_id")])
    except LeagueError as refused:
        return refused
    raise AssertionError("not refused")


def test_r16_r22_at_the_door_a_refusal_reads_once_by_label_name_and_the_leagues_date() -> None:
    """The night's page says a refused sign-in through `said_to_people`: "player.player_id",
    "override_reason", "outside_alcohol" and the ISO date are gone, the player named, the date
    in the league's format, the refusal said once, its rule kept for the "why?" link."""
    refusal = door_refusal()
    lines = said_to_people(refusal, FORMS["night"], {12: "Wendy P."}, DateWords())
    assert lines == [
        "The sign-in is refused.",
        "Player: Wendy P. is suspended league-wide until Mon 14 Dec 2026 (sanction 3, outside alcohol); "
        "only the league office can let them play, with its reason.",
    ]
    assert all(isinstance(line, Said) and line.rule == "R16" for line in lines)
    assert not any(api_words_in(line) for line in lines)
    numbered = said_to_people(
        refuse_at("player", "Player 12 is signed in already."), FORMS["night"], {12: "Wendy P."}
    )
    assert numbered == ["Player: Wendy P. is signed in already."]


def refuse_at(path: str, message: str) -> Any:
    return Conflict(message, rule="R22", problems=[Problem(path, message, "R22")])


def test_a_name_ending_in_a_full_stop_ends_a_sentence_once() -> None:
    assert sentence("Issued: a warning of Wendy P.") == "Issued: a warning of Wendy P."
    assert sentence("Issued: a warning of Wendy") == "Issued: a warning of Wendy."
    assert sentence("Wait...") == "Wait..."
    assert plural(1, "season") == "1 season" and plural(2, "season") == "2 seasons"
    assert in_words("venue_ban", "sanction_kind") == "venue ban"
    assert in_words("no_show", "status") == "no-show (signed in, never played)"


def test_an_error_pages_problem_names_what_was_sent_and_leads_with_no_rule_id() -> None:
    """An error page (the console's, an embed's) says a problem+json body: no "R19:" leading it,
    no field path, an option of the URL named as it was sent."""
    lines = problem_said(
        {
            "detail": "R19: The request is refused; rows: Must be greater than or equal to 1 and less than "
            "or equal to 500.",
            "rule": "R19",
            "errors": {"rows": ["Must be greater than or equal to 1 and less than or equal to 500."]},
        }
    )
    assert lines == ["The request is refused.", "“rows”: Write a number from 1 to 500."]
    assert all(line.rule == "R19" for line in lines)
