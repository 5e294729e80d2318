"""The office's season in the console (R12-R14): the seasons running today at a glance (venues to
chase, provisional qualifiers), and a season's qualifier lists, ties at the cut settled by the
league's draw, then published."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import flash, redirect, request, url_for

from api import db
from api.console.base import bp, current, hidden_id, page, refused_form, signed_in_only
from api.console.forms import PublishForm
from api.schemas import with_labels
from api.words import Said, said_to_people
from models.entities import Season
from models.errors import LeagueError
from models.services import wall_clock
from models.services.access import may_follow_seasons, may_publish_qualifiers
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.qualifiers.queries import qualification_seen_by, season_qualification
from models.services.qualifiers.writes import publish
from models.services.seasons.queries import list_seasons
from models.services.venues.schedule_queries import missing_reports


@bp.route("/seasons")
@signed_in_only
def seasons() -> Any:
    """The seasons running today at a glance: venues with no report this week, to chase, and each
    venue's provisional qualifiers (R12)."""
    may_follow_seasons(current())
    session, actor = db.session(), current()
    today = wall_clock.in_league(session)  # R2a: the league's week, Monday to Sunday
    monday = today - timedelta(days=today.weekday())
    running = list_seasons(session, PageRequest(1, 20), active_on=today).items
    glance = [
        {
            "season": season,
            "missing": missing_reports(session, season, monday),
            "lists": with_labels(
                qualification_seen_by(actor, season_qualification(session, season, changes=False)).lists
            ),
        }
        for season in running
    ]
    return page("console/seasons.html", glance=glance, monday=monday)


@bp.route("/seasons/<id:season_id>/qualifiers", methods=["GET", "POST"])
@signed_in_only
def qualifiers(season_id: int) -> Any:
    """R12-R14: every venue's list with who was skipped and why; ties at the cut settled by the
    league's draw (ticked here), then the lists published, after the season's last day."""
    session, actor = db.session(), current()
    may_publish_qualifiers(actor)
    season = get_or_raise(session, Season, season_id, "season")
    form = PublishForm()
    refusal: list[Said] = []
    status = 200
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form()
        try:
            published = publish(
                session, actor, season, (form.note.data or "").strip() or None, _settlements()
            )
        except LeagueError as refused:
            refusal, status = said_to_people(refused), refused.status
        else:
            flash(f"Published: the lists of {season.name} ({len(published.lists)} venues).")
            return redirect(url_for("console.qualifiers", season_id=season.id))
    found = qualification_seen_by(actor, season_qualification(session, season, changes=False))
    lists = with_labels(found.lists)
    venue_names = {venue["venue_id"]: venue["venue_name"] for venue in lists}
    context = {"found": found, "lists": lists, "form": form, "refusal": refusal, "venue_names": venue_names}
    return page("console/qualifiers.html", status, season=season, **context)


def _settlements() -> list[dict[str, int]]:
    """The ties ticked as settled by the draw: `venue:player` pairs (hand-edited ones name nobody)."""
    settled = []
    for ticked in request.form.getlist("settle"):
        venue_id, _, player_id = ticked.partition(":")
        venue, player = hidden_id(venue_id), hidden_id(player_id)
        if venue is not None and player is not None:
            settled.append({"venue_id": venue, "player_id": player})
    return settled
