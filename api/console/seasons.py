"""The office's seasons in the console (R2, R7-R14): every season with its state, a new one, and a
season's settings, made and changed by the API's schemas and services (api/console/api_forms.py).
A change that would rescore stored results or move anyone in the standings is previewed first
(who moves, venue by venue: models/services/seasons/previews.py), nothing stored, then saved when
the office confirms the same fields."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from flask import flash, redirect, request, url_for
from marshmallow import Schema
from sqlalchemy.orm import Session

from api import db
from api.console.api_forms import ApiForm, Choices
from api.console.base import bp, current, page, refused_form, signed_in_only
from api.console.forms import TokenForm
from api.people_dates import people_date
from api.schemas import patch_of
from api.seasons.schemas import SeasonIn, SeasonOut, SeasonPatch
from api.words import FORMS, choices
from models.entities import SEASON_DEFAULTS, Season
from models.errors import LeagueError
from models.rules.knockouts import Bounty
from models.rules.qualifiers import DoubleQualifierPolicy, season_state
from models.services import wall_clock
from models.services.access import may_set_up_league
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.points_charts.queries import chart_in_force, list_charts
from models.services.qualifiers.queries import latest_publication_ids
from models.services.regions.queries import list_regions
from models.services.seasons.previews import SeasonPreview, may_move_standings, preview_season_change
from models.services.seasons.queries import list_seasons
from models.services.seasons.writes import create_season, update_season

T = TypeVar("T")

BOUNTY_WORDS: Choices = choices("bounty", [bounty.value for bounty in Bounty])
POLICY_WORDS: Choices = choices("double_qualifier_policy", [policy.value for policy in DoubleQualifierPolicy])
# What a new season's form shows at first: the rulebook's defaults, as the API's answer writes them.
NEW_SEASON = SeasonOut(only=tuple(SEASON_DEFAULTS)).dump(SEASON_DEFAULTS)


def season_form(session: Session, schema: Schema, **options: Any) -> ApiForm:
    """The form of a season's schema, the regions and charts offered by name."""
    regions = list_regions(session, PageRequest(1, 1000)).items
    charts = list_charts(session, PageRequest(1, 1000)).items
    choices = {
        "region_ids": [(str(r.id), f"{r.name} (demo)" if r.demo else r.name) for r in regions],
        "points_chart_id": [(str(c.id), c.name) for c in charts],
        "double_qualifier_policy": POLICY_WORDS,
        "bounty": BOUNTY_WORDS,
    }
    labels = FORMS["season_settings"] if isinstance(schema, SeasonPatch) else FORMS["season"]
    return ApiForm(schema, labels, choices=choices, **options)


@bp.route("/seasons/all")
@signed_in_only
def season_list() -> Any:
    """R2, R12: every season, newest first: its dates, regions, chart and state, and its pages."""
    session, actor = db.session(), current()
    may_set_up_league(actor)
    seasons = list_seasons(session, PageRequest(1, 1000)).items
    regions = {r.id: r.name for r in list_regions(session, PageRequest(1, 1000)).items}
    published = latest_publication_ids(session, [season.id for season in seasons])
    today = wall_clock.in_league(session)  # R2a: whether a season runs is the league's matter
    rows = [
        {
            "season": season,
            "regions": [regions[r] for r in season.region_ids if r in regions],
            "chart": chart_in_force(season),
            "state": season_state(season.starts_on, season.ends_on, today, season.id in published),
        }
        for season in seasons
    ]
    return page("console/season_list.html", rows=rows)


@bp.route("/seasons/new", methods=["GET", "POST"])
@signed_in_only
def season_new() -> Any:
    """R2: a new season with every setting the API takes, refused as the API refuses it."""
    session, actor = db.session(), current()
    may_set_up_league(actor)
    token, form = TokenForm(), season_form(session, SeasonIn(), values=NEW_SEASON)
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        made = form.submit(request.form, lambda data: create_season(session, actor, data))
        if made is not None:
            flash(f"Season {made.name} made, {people_date(made.starts_on)} to {people_date(made.ends_on)}.")
            return redirect(url_for("console.season", season_id=made.id))
        status = form.status
    inputs = form.inputs(request.form if request.method == "POST" else None)
    return page("console/season_new.html", status, form=form, inputs=inputs, token=token)


@bp.route("/seasons/<id:season_id>/settings", methods=["GET", "POST"])
@signed_in_only
def season_settings(season_id: int) -> Any:
    """R2, R7-R14, R18: a season's dates, regions and settings changed. A change that rescores
    stored results or moves players in the standings shows who moves first (nothing stored);
    posted again with the preview's confirmation, it is saved (with the reason a rescoring needs)."""
    session, actor = db.session(), current()
    may_set_up_league(actor)
    season = get_or_raise(session, Season, season_id, "season")
    token = TokenForm()
    form = season_form(session, patch_of(SeasonPatch), values=SeasonOut().dump(season), changes_only=True)
    preview: SeasonPreview | None = None
    confirm = ""
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        confirm = fingerprint(form.body(request.form))
        confirmed = request.form.get("confirm") == confirm
        asked: dict[str, Any] = {}

        def save(changes: dict[str, Any]) -> SeasonPreview | tuple[Season, int]:
            reason = changes.pop("reason", None)
            asked.update(changes)
            if not confirmed and may_move_standings(changes):
                found = preview_season_change(session, actor, season, changes)
                if found.changes_anything:
                    return found
            return undone_if_refused(session, lambda: update_season(session, actor, season, changes, reason))

        outcome = form.submit(request.form, save)
        if isinstance(outcome, SeasonPreview):
            preview = outcome
        elif outcome is not None:
            saved, rescored = outcome
            flash(f"Saved: the settings of {saved.name}." + rescored_words(rescored))
            return redirect(url_for("console.season_settings", season_id=saved.id))
        else:
            status = form.status
            if confirmed and set(form.problems) == {"reason"}:
                # Asked for the reason a rescoring needs: who moves is shown again beside it.
                preview = preview_season_change(session, actor, season, asked)
    inputs = form.inputs(request.form if request.method == "POST" else None)
    context = {"form": form, "inputs": inputs, "token": token, "preview": preview}
    return page("console/season_settings.html", status, season=season, confirm=confirm, **context)


def fingerprint(body: dict[str, Any]) -> str:
    """What a preview showed, as its confirmation carries it: the changes posted, but the reason.
    A confirmation whose fields differ (changed after the preview) is previewed again."""
    changes = {name: value for name, value in body.items() if name != "reason"}
    return hashlib.sha256(json.dumps(changes, sort_keys=True, default=str).encode()).hexdigest()[:32]


def undone_if_refused(session: Session, write: Callable[[], T]) -> T:
    """The write in a savepoint, rolled back if refused: the page shown with the refusal reads
    the season as it is, not half changed."""
    savepoint = session.begin_nested()
    try:
        done = write()
    except LeagueError:
        savepoint.rollback()
        raise
    savepoint.commit()
    return done


def rescored_words(rescored: int) -> str:
    if not rescored:
        return ""
    return f" {rescored} stored result{'' if rescored == 1 else 's'} rescored."
