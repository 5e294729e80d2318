"""The answers written by hand beside their schemas (api/<resource>/answers.py: for speed, they
write the JSON directly instead of the schema's dump) are exactly the schema's dump of the same
object: every writer, for every caller it answers (R19: players' labels and who reported a
report differ by caller; R13: who reads why a player is skipped), on data made through the API.
Each writer is wrapped where its route calls it, so it is held to the schema on the very object
the route gives it; and the route's answer is the writer's output."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from api.qualifiers import answers as qualifier_answers
from api.qualifiers import routes as qualifier_routes
from api.qualifiers.schemas import SeasonQualifiersOut
from api.reports import pages
from api.reports import routes as report_routes
from api.reports.answers import report_answer
from api.reports.schemas import ReportDryRun, ReportOut, ReportWritten
from api.standings import answers as standing_answers
from api.standings.schemas import RowOut, StandingsOut
from models.actor import Actor
from models.entities import Report
from models.rules.notices import Notice, unregistered
from models.rules.players import player_labels
from models.rules.qualifier_lists import regions_of
from models.rules.standings import Row
from models.services.paging import Page
from models.services.qualifiers.queries import Qualification
from models.services.reports.queries import SeenReport, reporter_role, reporter_seen_by, seen_by
from models.services.reports.stored import Written
from models.services.standings.queries import VenueStandings
from tests.builders import (
    TOURNAMENTS,
    MakeScene,
    Scene,
    days_ago,
    ended_season,
    person,
    qualifiers_path,
    unique_email,
)
from tests.support.league import Caller

ROW_FIELDS = [name for name in RowOut().fields if name != "player"]


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


# The schema's dump of what each writer is given ------------------------------------------------


def standings_dump(table: VenueStandings, page: Page[Row]) -> Any:
    """StandingsOut's dump of the table's page: each row's player labelled as the whole table
    labels them (R19)."""
    return StandingsOut().dump(
        {
            "season_id": table.season.id,
            "venue_id": table.venue.id,
            "as_of": table.as_of,
            "tournaments": table.tournaments,
            "entrants": table.entrants,
            "average_attendance": table.average_attendance_shown,
            "total": page.total,
            "page": page.page,
            "per_page": page.per_page,
            "pages": page.pages,
            "standings": [
                {
                    **{name: getattr(row, name) for name in ROW_FIELDS},
                    "player": {
                        "id": row.player_id,
                        "display_name": row.display_name,
                        "label": table.labels[row.player_id],
                    },
                }
                for row in page.items
            ],
        }
    )


def season_dump(found: Qualification) -> Any:
    """SeasonQualifiersOut's dump of the season's lists, as the publication's answer dumps them."""
    head = qualifier_answers.qualification_head(found)
    return SeasonQualifiersOut().dump({**head, "venues": found.lists, "regions": regions_of(found.lists)})


def report_fields(seen: SeenReport) -> dict[str, Any]:
    return {name: getattr(seen, name) for name in ReportOut().fields}


def written_dump(actor: Actor, report: Report, notices: list[Notice]) -> Any:
    return ReportWritten().dump({**report_fields(seen_by(actor, report)), "warnings": notices})


def dry_run_dump(actor: Actor, written: Written) -> Any:
    """ReportDryRun's dump of what would be stored: a player it would register has no id, and
    is labelled by their name (R19)."""
    report, registered = written.report, written.registered
    labels = player_labels((r.player.id, r.player.display_name) for r in report.results)

    def player(result: Any) -> dict[str, Any]:
        new = result.player.id in registered
        name = result.player.display_name
        return {
            "id": None if new else result.player.id,
            "display_name": name,
            "label": name if new else labels[result.player.id],
            "new": new,
        }

    def knocker(result: Any) -> dict[str, Any]:
        # R8a: a knocker the report would register has no id either.
        return {"knocked_out_by_id": None} if result.knocked_out_by_id in registered else {}

    return ReportDryRun().dump(
        {
            "dry_run": True,
            "venue_id": report.venue_id,
            "season_id": report.season_id,
            "date": report.date,
            "session": report.session,
            "kind": report.kind,
            "entrants": report.entrants,
            "reported_by": reporter_seen_by(actor, report),
            "reported_by_role": reporter_role(report),
            "results": [
                {**vars_of(result), "player": player(result), **knocker(result)} for result in report.results
            ],
            "warnings": [unregistered(notice, registered) for notice in written.notices],
        }
    )


def vars_of(result: Any) -> dict[str, Any]:
    names = (
        "place",
        "status",
        "placement_points",
        "participation_points",
        "points",
        "knocked_out_by_id",
        "knockouts",
        "knockout_points",
    )
    return {name: getattr(result, name) for name in names}


# The writers, and the data each is asked for --------------------------------------------------


@dataclass(frozen=True)
class Writer:
    """A hand-written answer: where its route calls it (`module.name`), the schema's dump of its
    arguments, its output as JSON data (from its arguments and what it returned), and the
    requests that make it write, each answering the writer's output (`answered`)."""

    module: ModuleType
    name: str
    dump: Callable[..., Any]
    output: Callable[[tuple[Any, ...], Any], Any]
    requests: Callable[[Scene, Caller], list[Any]]
    answered: Callable[[Any], Any] = lambda body: body


def returned(_args: tuple[Any, ...], value: Any) -> Any:
    return value


def standings_requests(scene: Scene, caller: Caller) -> list[Any]:
    twins = scene.players("Sam T.", "Sam T.")
    scene.report([twins[0], *scene.fillers(4), twins[1]])
    scene.report([*scene.fillers(3), twins[1]])
    path = scene.path()
    return [caller.get(path), caller.get(f"{path}?per_page=2&page=2")]


def qualifiers_requests(scene: Scene, caller: Caller) -> list[Any]:
    # The first filler is a third "Sam T.": once they would come in, only `changes` names them (R19).
    ace, sam, sam_too, *fillers = [
        person(scene, name, date_of_birth="1990-01-01")
        for name in ("Ace", "Sam T.", "Sam T.", "Sam T.", *(f"~f{i}" for i in range(5)))
    ]
    report = scene.report([ace, sam, sam_too, *fillers])
    # R13: skipped as disqualified; the public reads it as `ineligible`.
    disqualified = scene.office.post(
        f"/api/v1/seasons/{scene.season_id}/disqualifications",
        json={"player_id": ace, "reason": "Collusion at the final table."},
    )
    assert disqualified.status_code == 201, disqualified.get_data(as_text=True)
    path = qualifiers_path(scene.season_id)
    before = caller.get(path)
    published = scene.office.post(f"{path}/publish", json={"note": "Spring playoffs.", "settlements": []})
    assert published.status_code == 201, published.get_data(as_text=True)
    # A correction since: the published lists' `changes` name who would come in and drop out.
    correction = {
        "results": scene.body([*fillers[:2], ace, sam, sam_too, *fillers[2:]])["results"],
        "reason": "Misread.",
    }
    corrected = scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=correction)
    assert corrected.status_code == 200, corrected.get_data(as_text=True)
    return [before, caller.get(path), caller.get(f"{path}?view=current")]


def report_body(scene: Scene) -> dict[str, Any]:
    """A report naming two players who share a display name (R19) and a new player like a known
    one (a warning, R5)."""
    scene.league.player("Jonathan Whitfield")
    body = scene.body(scene.players("Sam T.", "Sam T.", "Cy"), days_ago(1))
    body["results"].append(
        {"place": 4, "new_player": {"full_name": "Jonathon Whitfield", "email": unique_email()}}
    )
    return body


def written_requests(scene: Scene, caller: Caller) -> list[Any]:
    body = report_body(scene)
    posted = caller.post(TOURNAMENTS, json=body)
    assert posted.status_code == 201, posted.get_data(as_text=True)
    correction = {"results": body["results"][:3], "reason": "Typo."}
    corrected = caller.put(f"{TOURNAMENTS}/{posted.get_json()['id']}", json=correction)
    return [posted, corrected]


def dry_run_requests(scene: Scene, caller: Caller) -> list[Any]:
    body = report_body(scene)
    checked = caller.post(f"{TOURNAMENTS}?dry_run=1", json=body)
    posted = caller.post(TOURNAMENTS, json=body)
    assert posted.status_code == 201, posted.get_data(as_text=True)
    correction = {"results": body["results"][:3], "reason": "Typo."}
    return [checked, caller.put(f"{TOURNAMENTS}/{posted.get_json()['id']}?dry_run=1", json=correction)]


def page_requests(scene: Scene, caller: Caller) -> list[Any]:
    scene.posted(scene.body([*scene.players("Sam T.", "Sam T."), *scene.fillers(3)], days_ago(1)))
    return [caller.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}")]


def page_output(args: tuple[Any, ...], _value: Any) -> Any:
    """The report's answer, labelled over the report alone (as its schema labels it)."""
    seen, _label = args
    labels = player_labels((r.player.id, r.player.display_name) for r in seen.results)
    return report_answer(seen, lambda player_id, _name: labels[player_id])


WRITERS = {
    "standings": Writer(standing_answers, "standings_answer", standings_dump, returned, standings_requests),
    "season qualifiers": Writer(
        qualifier_routes,
        "season_body",
        season_dump,
        lambda _args, response: json.loads(response.get_data()),
        qualifiers_requests,
    ),
    "report written": Writer(report_routes, "written_answer", written_dump, returned, written_requests),
    "report dry run": Writer(report_routes, "dry_run_answer", dry_run_dump, returned, dry_run_requests),
    "report in a page": Writer(
        pages,
        "report_answer",
        lambda seen, _label: ReportOut().dump(seen),
        page_output,
        page_requests,
        answered=lambda body: body["items"][0],
    ),
}

# Who asks: every caller each answer is written for (R19, R13: the office and a venue's hosts
# read more than the public and other venues' hosts).
CALLERS = {
    "standings": ("public", "office"),
    "season qualifiers": ("public", "host", "other host", "office"),
    "report written": ("host", "office"),
    "report dry run": ("host", "office"),
    "report in a page": ("public", "host", "other host", "office"),
}
CASES = [(writer, caller) for writer, callers in CALLERS.items() for caller in callers]


@pytest.mark.parametrize(("writer_name", "caller_name"), CASES, ids=[f"{w}, {c}" for w, c in CASES])
def test_a_hand_written_answer_is_its_schemas_dump_r19(
    make_scene: MakeScene, monkeypatch: pytest.MonkeyPatch, writer_name: str, caller_name: str
) -> None:
    """R19, R13: the writer's output equals its schema's dump of the same object, for this
    caller, and it is what the route answers."""
    writer = WRITERS[writer_name]
    scene = make_scene(**ended_season()) if writer_name == "season qualifiers" else make_scene()
    elsewhere = int(scene.league.venue(scene.region["id"])["id"])
    caller = {
        "public": scene.public,
        "office": scene.office,
        "host": scene.host,
        "other host": scene.host_for(elsewhere, name="Host: Elsewhere"),
    }[caller_name]
    written = getattr(writer.module, writer.name)
    seen: list[tuple[Any, Any]] = []  # (the writer's output, the schema's dump), each time it wrote

    def held_to_the_schema(*args: Any) -> Any:
        value = written(*args)
        seen.append((as_json(writer.output(args, value)), as_json(writer.dump(*args))))
        return value

    monkeypatch.setattr(writer.module, writer.name, held_to_the_schema)
    answers = writer.requests(scene, caller)
    assert len(seen) == len(answers) > 0
    for answer, (output, dumped) in zip(answers, seen, strict=True):
        assert output == dumped
        assert answer.status_code in (200, 201), answer.get_data(as_text=True)
        assert writer.answered(answer.get_json()) == output
