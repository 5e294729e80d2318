"""The web console (/console/): HTML pages for hosts and the office, over the same services as the
API, so every rule, refusal and audit entry is the API's. Signed in with an API key, which becomes
a server-side session: the browser holds only a random token (an HttpOnly, SameSite=Lax cookie,
Secure over HTTPS)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import cache, wraps
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app, flash, g, redirect, request, url_for
from marshmallow import ValidationError
from werkzeug.exceptions import Forbidden

from api import db, throttle
from api.console.forms import (
    AuditQueryForm,
    ConfirmForm,
    CorrectionForm,
    KeyForm,
    LiftForm,
    MergeForm,
    PublishForm,
    ReportForm,
    RevokeForm,
    SanctionForm,
    SearchForm,
    SignInForm,
    SignOutForm,
    TypedRowsForm,
    UndoForm,
    VoidForm,
)
from api.embed.theme import stylesheet
from api.errors import flatten_messages
from api.pages import html_page
from api.sanctions.schemas import SanctionIn
from api.tournaments.csv_body import parse_report_csv
from api.tournaments.routes import CORRECTION_IN, named_by, report_from_csv
from models.actor import PUBLIC, Actor
from models.entities import STATUSES, ApiKey, Player, Season, Tournament, Venue
from models.errors import LeagueError
from models.infra.clock import today, utcnow
from models.rules.notices import Notice
from models.services.audit_queries import AuditFilters, list_audit_entries
from models.services.console_sessions import sign_in, sign_out, signed_in
from models.services.discipline import issue_sanction, lift_sanction
from models.services.discipline_queries import SanctionFilters, door_list, get_sanction, list_sanctions
from models.services.keys import create_key, list_keys, revoke_key
from models.services.league_queries import venues_of_actor
from models.services.lookup import get_or_raise
from models.services.merge_queries import get_merge, list_merges
from models.services.merges import merge_players, undo_merge
from models.services.paging import PageRequest
from models.services.player_queries import (
    duplicate_candidates,
    players_by_id,
    players_of_venue,
    search_players,
)
from models.services.qualification import publish
from models.services.qualification_queries import season_qualification
from models.services.report_queries import ReportFilters, get_report, list_reports, missing_reports
from models.services.reports import correct_report, submit_report, void_report
from models.services.season_queries import list_seasons, season_for
from models.services.standings import venue_standings

bp = Blueprint("console", __name__, url_prefix="/console", template_folder="templates")

COOKIE = "league_console"
# A refusal's path that names a row of the sheet ("results.3", "results.3.player_id").
ROW_PATH = re.compile(r"results\.\d+(\.|$)")
SANCTION_IN = SanctionIn()
F = TypeVar("F", bound=Callable[..., Any])

CONSOLE_CSS = """
header.bar{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;justify-content:space-between;
border-bottom:1px solid var(--rule);padding-bottom:8px;margin-bottom:12px}
nav a{margin-right:12px}
a{color:var(--s0)}
label{display:block;font-weight:600;margin:10px 0 4px}
input,select,textarea,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);
border-radius:4px;padding:8px;max-width:100%}
textarea{width:100%;min-height:8rem;font-family:ui-monospace,monospace}
button{cursor:pointer;font-weight:600;background:var(--s0);color:#fff;border-color:var(--s0);margin-top:12px}
button.quiet{background:var(--bg);color:var(--fg);border-color:var(--muted)}
:focus-visible{outline:3px solid var(--s0);outline-offset:2px}
.error{color:var(--s4);font-weight:600}
.flash{border-left:4px solid var(--s2);padding:8px 12px;background:var(--stripe)}
.refused{border-left:4px solid var(--s4);padding:8px 12px;background:var(--stripe)}
.warnings{border-left:4px solid var(--s1);padding:8px 12px;background:var(--stripe)}
td.problem{color:var(--s4);font-weight:600}
@media print{header.bar,nav,form,.noprint{display:none}}
"""


@cache
def console_css() -> str:
    return stylesheet("light") + CONSOLE_CSS


def page(template: str, status: int = 200, **context: Any) -> Response:
    """A console page: its stylesheet allowed by hash and nothing else; never framed; never
    kept by a browser or proxy (it shows the signed-in user's data)."""
    response = html_page(
        template,
        console_css(),
        status,
        frame_ancestors="'none'",
        forms="'self'",
        theme="light",
        actor=current(),
        sign_out=SignOutForm(),
        **context,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def current() -> Actor:
    actor: Actor = g.get("console_actor") or PUBLIC
    return actor


@bp.before_request
def _who() -> None:
    """The signed-in user of this browser, from the cookie's token (None: signed out)."""
    token = request.cookies.get(COOKIE, "")
    g.console_actor = signed_in(db.session(), token, g.get("request_id")) if token else None
    if g.console_actor is not None:
        g.actor = g.console_actor  # what the services audit: the key signed in with


def signed_in_only(view: F) -> F:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if g.get("console_actor") is None:
            return redirect(url_for("console.sign_in_page", next=request.path))
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _venue_of_host(venue_id: int) -> Venue:
    """The venue, if the signed-in user may post for it: its hosts, or the office."""
    venue = get_or_raise(db.session(), Venue, venue_id, "venue")
    actor = current()
    if not (actor.is_office or actor.hosts_venue(venue_id)):
        raise Forbidden(f"Your key does not host {venue.name}: you post results for your own venues.")
    return venue


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in_page() -> Any:
    form = SignInForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            if "csrf_token" in form.errors:
                return page("console/refused_form.html", 400)
            return page("console/sign_in.html", 400, form=form)
        # Sign-ins are counted as wrong API keys are: per address, and an address that sent
        # too many waits (429) before its next key is even looked at.
        address = request.remote_addr or "unknown"
        throttle.refuse_when_over("RATELIMIT_AUTH_FAILURES", address)
        hours = int(current_app.config["CONSOLE_SESSION_HOURS"])
        opened = sign_in(db.session(), form.key.data.strip(), hours, g.get("request_id"))
        if opened is None:
            throttle.take("RATELIMIT_AUTH_FAILURES", address)
            form.key.errors = ["That key is not valid, or it was revoked. Ask the league office for yours."]
            return page("console/sign_in.html", 401, form=form)
        token, _actor = opened
        target = request.args.get("next", "")
        response = redirect(target if target.startswith("/console/") else url_for("console.home"))
        response.set_cookie(
            COOKIE,
            token,
            max_age=hours * 3600,
            path="/console/",
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
        return response
    return page("console/sign_in.html", form=form)


@bp.route("/sign-out", methods=["POST"])
def sign_out_page() -> Any:
    form = SignOutForm()
    if not form.validate_on_submit():
        return page("console/refused_form.html", 400)
    token = request.cookies.get(COOKIE, "")
    if token:
        sign_out(db.session(), token)
    response = redirect(url_for("console.sign_in_page"))
    response.delete_cookie(COOKIE, path="/console/", httponly=True, samesite="Lax", secure=request.is_secure)
    return response


@bp.route("/")
@signed_in_only
def home() -> Any:
    return page("console/home.html", venues=venues_of_actor(db.session(), current()))


@bp.route("/venues/<id:venue_id>/report", methods=["GET", "POST"])
@signed_in_only
def report(venue_id: int) -> Any:
    """Tonight's results: a spreadsheet's CSV, previewed (a dry run: nothing stored), then confirmed."""
    venue = _venue_of_host(venue_id)
    form = ReportForm()
    if request.method == "GET":
        return page("console/report.html", venue=venue, form=form)
    if not form.validate_on_submit():
        if "csrf_token" in form.errors:
            return page("console/refused_form.html", 400)
        return page("console/report.html", 400, venue=venue, form=form)
    csv = form.sheet.data.read() if form.sheet.data else (form.pasted.data or "").encode()
    if not csv.strip():
        form.sheet.errors = ["Choose the spreadsheet (saved as CSV), or paste its rows below."]
        return page("console/report.html", 400, venue=venue, form=form)
    fields = {
        "venue_id": str(venue.id),
        "date": form.date.data.isoformat(),
        "session": str(form.session.data),
        "kind": form.kind.data,
    }
    return _preview(venue, fields, csv)


@dataclass(frozen=True)
class Correction:
    """What a correction adds to a sheet: the report corrected, the version read, and why."""

    report: Tournament
    version: int | None
    reason: str


def _write(
    fields: dict[str, str], csv: bytes, correction: Correction | None
) -> tuple[Tournament, list[Notice]]:
    """The sheet stored as a new report, or as the correction of one: the API's own reading and
    services. A refusal names the sheet's rows and columns."""
    session, actor = db.session(), current()
    if correction is None:
        data, sheet = report_from_csv(csv, fields)
    else:
        data, sheet = report_from_csv(csv, {**fields, "reason": correction.reason}, CORRECTION_IN)
        data.pop("reason", None)
    with named_by(sheet):
        if correction is None:
            tournament, notices = submit_report(session, actor, data)
        else:
            tournament, notices = correct_report(
                session, actor, correction.report, data, correction.reason, correction.version
            )
    return tournament, [*sheet.notices, *notices]


def _preview(
    venue: Venue, fields: dict[str, str], csv: bytes, correction: Correction | None = None
) -> Response:
    """The report as it would be stored, or its refusal beside the rows it concerns; nothing is
    stored either way."""
    session = db.session()
    savepoint = session.begin_nested()
    started = utcnow()
    try:
        tournament, notices = _write(fields, csv, correction)
        rows = [
            {
                "place": result.place,
                "name": result.player.display_name,
                "status": result.status.replace("_", " "),
                "points": result.points,
                # Registered by this report (when it is stored).
                "new": result.player.created_at >= started,
            }
            for result in tournament.results
        ]
        confirm = ConfirmForm(formdata=None, **{name: fields[name] for name in ("date", "session", "kind")})
        confirm.csv.data = csv.decode("utf-8", "replace")
        if correction is not None:
            confirm.report_id.data = str(correction.report.id)
            confirm.version.data = str(correction.version or "")
            confirm.reason.data = correction.reason
        return page(
            "console/preview.html",
            venue=venue,
            fields=fields,
            rows=rows,
            notices=notices,
            confirm=confirm,
            correction=correction,
        )
    except LeagueError as refusal:
        try:
            sheet = parse_report_csv(csv)
        except LeagueError:
            sheet = None
        sheet_rows: list[dict[str, Any]] = sheet.results if sheet else []
        ids = {int(str(r["player_id"])) for r in sheet_rows if str(r.get("player_id", "")).isdigit()}
        # What no row is blamed for (the date, the whole order) is said above the rows.
        general = [p for p in refusal.problems if not (sheet and ROW_PATH.match(p.path))]
        names = {player_id: p.display_name for player_id, p in players_by_id(session, ids).items()}
        context = {
            "venue": venue,
            "fields": fields,
            "refusal": refusal,
            "sheet": sheet,
            "correction": correction,
        }
        return page(
            "console/refused.html", refusal.status, names=names, plain=plain, general=general, **context
        )
    finally:
        savepoint.rollback()


# The API's words for developers, as a bar manager would say them.
PLAINER = (
    ("; the office may override with override_reason", "; only the league office can let them play"),
    ("override_reason", "the office's override"),
)


def plain(message: str) -> str:
    """A refusal's message for the console: without the row and column it is written beside."""
    said = message.split(": ", 1)[-1] if message.lower().startswith("row ") else message
    for api_words, words in PLAINER:
        said = said.replace(api_words, words)
    return said


@bp.route("/venues/<id:venue_id>/report/confirm", methods=["POST"])
@signed_in_only
def confirm(venue_id: int) -> Any:
    """Store the previewed report (or correction): the same checks again, then the write."""
    venue = _venue_of_host(venue_id)
    form = ConfirmForm()
    if not form.validate_on_submit():
        return page("console/refused_form.html", 400)
    fields = {"venue_id": str(venue.id), "date": form.date.data, "session": form.session.data}
    fields["kind"] = form.kind.data
    correction = None
    if form.report_id.data:
        if not form.report_id.data.isdigit():
            return page("console/refused_form.html", 400)
        report = get_report(db.session(), current(), int(form.report_id.data))
        version = int(form.version.data) if (form.version.data or "").isdigit() else None
        correction = Correction(report, version, form.reason.data or "")
    csv = form.csv.data.encode()
    try:
        tournament, _notices = _write(fields, csv, correction)
    except LeagueError:
        # Something changed since the preview (a suspension, another report): preview again.
        return _preview(venue, fields, csv, correction)
    done = "Corrected" if correction else "Stored"
    flash(f"{done}: report {tournament.id}, {tournament.entrants} entrants on {tournament.date:%-d %B}.")
    return redirect(url_for("console.standings", venue_id=venue.id))


@bp.route("/reports/<id:tournament_id>/correct", methods=["GET", "POST"])
@signed_in_only
def correct(tournament_id: int) -> Any:
    """R17: a report's rows again (prefilled as a sheet), with the reason; previewed, then stored."""
    report = get_report(db.session(), current(), tournament_id)
    venue = _venue_of_host(report.venue_id)
    form = CorrectionForm()
    if request.method == "GET":
        form.pasted.data = "place,player_id,status\n" + "".join(
            f"{r.place},{r.player_id},{r.status}\n" for r in report.results
        )
        form.version.data = str(report.version)
        return page("console/correct.html", venue=venue, report=report, form=form)
    if not form.validate_on_submit():
        if "csrf_token" in form.errors:
            return page("console/refused_form.html", 400)
        return page("console/correct.html", 400, venue=venue, report=report, form=form)
    fields = {"venue_id": str(venue.id), "date": report.date.isoformat(), "session": str(report.session)}
    fields["kind"] = report.kind
    version = int(form.version.data) if (form.version.data or "").isdigit() else None
    correction = Correction(report, version, form.reason.data.strip())
    return _preview(venue, fields, (form.pasted.data or "").encode(), correction)


@bp.route("/venues/<id:venue_id>/standings")
@signed_in_only
def standings(venue_id: int) -> Any:
    """The venue's standings in its current season, with a print layout."""
    session = db.session()
    venue = get_or_raise(session, Venue, venue_id, "venue")
    season = season_for(session, venue, today())
    table = venue_standings(session, season, venue) if season is not None else None
    return page("console/standings.html", venue=venue, season=season, table=table)


@bp.route("/venues/<id:venue_id>/door-list")
@signed_in_only
def door(venue_id: int) -> Any:
    """R16: who may not play at the venue tonight, and why: printable for the door."""
    venue = _venue_of_host(venue_id)
    return page(
        "console/door_list.html", venue=venue, day=today(), barred=door_list(db.session(), venue.id, today())
    )


def _office_only() -> None:
    if not current().is_office:
        raise Forbidden("This page is for the league office.")


@bp.route("/sanctions")
@signed_in_only
def sanctions() -> Any:
    """Find a player to sanction (by name), and the sanctions issued lately."""
    _office_only()
    session, actor = db.session(), current()
    search = SearchForm(request.args)
    found = search_players(session, actor, PageRequest(1, 20), search.q.data) if search.q.data else None
    recent = list_sanctions(session, actor, SanctionFilters(), PageRequest(1, 30))
    return page("console/sanctions.html", search=search, found=found, recent=recent.items)


@bp.route("/players/<id:player_id>/sanctions", methods=["GET", "POST"])
@signed_in_only
def player_sanctions(player_id: int) -> Any:
    """R15: a player's sanctions, to lift one; and a new one, checked as the API checks it."""
    _office_only()
    session, actor = db.session(), current()
    player = get_or_raise(session, Player, player_id, "player")
    form = SanctionForm()
    form.venue_id.choices = [("", "—")] + [(str(v.id), v.name) for v in venues_of_actor(session, actor)]
    problems: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        if not form.validate_on_submit():
            if "csrf_token" in form.errors:
                return page("console/refused_form.html", 400)
            problems = {name: list(errors) for name, errors in form.errors.items()}
            status = 400
        else:
            raw = {
                "player_id": player.id,
                "kind": form.kind.data,
                "category": form.category.data,
                "venue_id": int(form.venue_id.data) if (form.venue_id.data or "").isdigit() else None,
                "first_day": form.first_day.data.isoformat() if form.first_day.data else None,
                "last_day": form.last_day.data.isoformat() if form.last_day.data else None,
                "reason": form.reason.data or "",
            }
            raw = {name: value for name, value in raw.items() if value is not None}
            try:
                issued = issue_sanction(session, actor, SANCTION_IN.load(raw))
            except ValidationError as invalid:
                problems, status = flatten_messages(invalid.messages), 422
            except LeagueError as refusal:
                problems, status = dict(refusal.errors or {"": [refusal.detail]}), refusal.status
            else:
                kind = issued.kind.replace("_", " ")
                flash(f"Issued: sanction {issued.id}, a {kind} of {player.display_name}.")
                return redirect(url_for("console.player_sanctions", player_id=player.id))
    listed = list_sanctions(session, actor, SanctionFilters(player_id=player.id), PageRequest(1, 100)).items
    return page(
        "console/player_sanctions.html",
        status,
        player=player,
        form=form,
        problems=problems,
        sanctions=listed,
        lift=LiftForm(formdata=None),
    )


def _with_reason(form: Any, back: str, missing: str, act: Callable[[str], str], failed: str) -> Any:
    """A change that needs a reason (lift, void, merge, undo): a form without its token is
    refused; without a reason nothing happens and the page says so; else the change is made, or
    its refusal told. Then back to the page it was made from."""
    if not form.validate_on_submit():
        return page("console/refused_form.html", 400)
    reason = (form.reason.data or "").strip()
    if not reason:
        flash(missing)
    else:
        try:
            flash(act(reason))
        except LeagueError as refusal:
            flash(f"{failed}{refusal.detail}")
    return redirect(back)


@bp.route("/sanctions/<id:sanction_id>/lift", methods=["POST"])
@signed_in_only
def lift(sanction_id: int) -> Any:
    """R15: end a sanction early, with the reason kept."""
    _office_only()
    session, actor = db.session(), current()
    sanction = get_sanction(session, actor, sanction_id)

    def lifted(reason: str) -> str:
        lift_sanction(session, actor, sanction, reason)
        return f"Lifted: sanction {sanction.id}."

    back = url_for("console.player_sanctions", player_id=sanction.player_id)
    missing = "Give the reason the sanction ends early: it is kept with the record."
    return _with_reason(LiftForm(), back, missing, lifted, "")


@bp.route("/venues/<id:venue_id>/reports")
@signed_in_only
def reports(venue_id: int) -> Any:
    """R17: the venue's recent reports, newest first, each with its results; void one, with a
    reason (hosts within the season's correction window, the office any time: the service says)."""
    venue = _venue_of_host(venue_id)
    found = list_reports(db.session(), current(), ReportFilters(venue_id=venue.id), PageRequest(1, 20))
    return page("console/reports.html", venue=venue, reports=found.items, void=VoidForm(formdata=None))


@bp.route("/reports/<id:tournament_id>/void", methods=["POST"])
@signed_in_only
def void(tournament_id: int) -> Any:
    session, actor = db.session(), current()
    tournament = get_report(session, actor, tournament_id)
    form = VoidForm()

    def voided(reason: str) -> str:
        read = int(form.version.data) if (form.version.data or "").isdigit() else None
        void_report(session, actor, tournament, reason, read)
        return f"Voided: report {tournament.id} of {tournament.date:%-d %B}. It no longer counts anywhere."

    not_voided = f"Report {tournament.id} was not voided: "
    back = url_for("console.reports", venue_id=tournament.venue_id)
    return _with_reason(
        form, back, not_voided + "give the reason (it is kept with the record).", voided, not_voided
    )


@bp.route("/keys", methods=["GET", "POST"])
@signed_in_only
def keys() -> Any:
    """Every key (never a secret but the new one's, once), a host key made for a venue, a key
    revoked."""
    _office_only()
    session, actor = db.session(), current()
    form = KeyForm()
    form.venue_id.choices = [(str(v.id), v.name) for v in venues_of_actor(session, actor)]
    made, status = None, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            if "csrf_token" in form.errors:
                return page("console/refused_form.html", 400)
            status = 400
        else:
            try:
                venue = [int(form.venue_id.data)] if (form.venue_id.data or "").isdigit() else []
                made = create_key(session, actor, form.name.data.strip(), "host", venue)
            except LeagueError as refusal:
                form.name.errors = [refusal.detail]
                status = refusal.status
    listed = list_keys(session, PageRequest(1, 500)).items
    return page(
        "console/keys.html", status, form=form, keys=listed, made=made, revoke=RevokeForm(formdata=None)
    )


@bp.route("/keys/<id:key_id>/revoke", methods=["POST"])
@signed_in_only
def revoke(key_id: int) -> Any:
    _office_only()
    session = db.session()
    if not RevokeForm().validate_on_submit():
        return page("console/refused_form.html", 400)
    key = get_or_raise(session, ApiKey, key_id, "API key")
    revoke_key(session, current(), key)
    flash(f"Revoked: key {key.id} ({key.name}). It no longer works, in the API or here.")
    return redirect(url_for("console.keys"))


@bp.route("/audit")
@signed_in_only
def audit() -> Any:
    """R18: who changed what, newest first, filtered."""
    _office_only()
    form = AuditQueryForm(request.args)
    filters = AuditFilters()
    if form.validate():
        filters = AuditFilters(
            entity=form.entity.data or None,
            entity_id=form.entity_id.data,
            action=form.action.data or None,
            actor=form.actor.data or None,
        )
    entries = list_audit_entries(db.session(), filters, PageRequest(1, 100)).items
    return page("console/audit.html", form=form, entries=entries)


@bp.route("/seasons")
@signed_in_only
def seasons() -> Any:
    """The seasons running today at a glance: venues with no report this week, to chase, and each
    venue's provisional qualifiers (R12)."""
    _office_only()
    session = db.session()
    monday = today() - timedelta(days=today().weekday())
    running = list_seasons(session, PageRequest(1, 20), active_on=today()).items
    glance = [
        {
            "season": season,
            "missing": missing_reports(session, season, monday),
            "lists": season_qualification(session, season, changes=False).lists,
        }
        for season in running
    ]
    return page("console/seasons.html", glance=glance, monday=monday)


@bp.route("/seasons/<id:season_id>/qualifiers", methods=["GET", "POST"])
@signed_in_only
def qualifiers(season_id: int) -> Any:
    """R12-R14: every venue's list with who was skipped and why; ties at the cut settled by the
    league's draw (ticked here), then the lists published, after the season's last day."""
    _office_only()
    session, actor = db.session(), current()
    season = get_or_raise(session, Season, season_id, "season")
    form = PublishForm()
    refusal: LeagueError | None = None
    status = 200
    if request.method == "POST":
        if not form.validate_on_submit():
            return page("console/refused_form.html", 400)
        settlements = []
        for ticked in request.form.getlist("settle"):
            venue_id, _, player_id = ticked.partition(":")
            if venue_id.isdigit() and player_id.isdigit():
                settlements.append({"venue_id": int(venue_id), "player_id": int(player_id)})
        try:
            published = publish(session, actor, season, (form.note.data or "").strip() or None, settlements)
        except LeagueError as refused:
            refusal, status = refused, refused.status
        else:
            flash(f"Published: the lists of {season.name} ({len(published.lists)} venues).")
            return redirect(url_for("console.qualifiers", season_id=season.id))
    found = season_qualification(session, season, changes=False)
    return page("console/qualifiers.html", status, season=season, found=found, form=form, refusal=refusal)


@bp.route("/duplicates")
@signed_in_only
def duplicates() -> Any:
    """R5, R17: players registered in the last 60 days whose names closely match others, to merge
    (the newer into the older, or as the office judges), and the latest merges, to undo."""
    _office_only()
    session = db.session()
    candidates = duplicate_candidates(session, utcnow() - timedelta(days=60))
    merges = list_merges(session, PageRequest(1, 20)).items
    names = players_by_id(session, {m.survivor_id for m in merges} | {m.duplicate_id for m in merges})
    return page(
        "console/duplicates.html",
        candidates=candidates,
        merges=merges,
        names=names,
        merge=MergeForm(formdata=None),
        undo=UndoForm(formdata=None),
    )


@bp.route("/players/<id:player_id>/merge", methods=["POST"])
@signed_in_only
def merge(player_id: int) -> Any:
    """R17: the duplicate's results, sanctions and details move to this player; undoable."""
    _office_only()
    session = db.session()
    survivor = get_or_raise(session, Player, player_id, "player")
    form = MergeForm()
    missing = "Not merged: give the reason they are the same person (it is kept with the merge)."

    def merged(reason: str) -> str:
        if not form.duplicate_id.data.isdigit():
            return missing
        done = merge_players(session, current(), survivor, int(form.duplicate_id.data), reason)
        into = f"{survivor.display_name} ({survivor.id})"
        return f"Merged: player {done.duplicate_id} into {into}, merge {done.id}."

    return _with_reason(form, url_for("console.duplicates"), missing, merged, "Not merged: ")


@bp.route("/merges/<id:merge_id>/undo", methods=["POST"])
@signed_in_only
def undo(merge_id: int) -> Any:
    _office_only()
    session = db.session()
    done = get_merge(session, merge_id)

    def undone(reason: str) -> str:
        undo_merge(session, current(), done, reason)
        return f"Undone: merge {done.id}; player {done.duplicate_id} is on their own again."

    missing = "Not undone: give the reason (it is kept with the merge)."
    return _with_reason(UndoForm(), url_for("console.duplicates"), missing, undone, "Not undone: ")


MOST_TYPED_ROWS = 200
PICKED = re.compile(r"\(#(\d{1,10})\)\s*$")


@bp.route("/venues/<id:venue_id>/rows", methods=["GET", "POST"])
@signed_in_only
def typed_rows(venue_id: int) -> Any:
    """Tonight's results typed in, a row per place: a player picked by name (the browser offers
    the venue's players as you type), or a new one's full name and email. Read as the same sheet
    an upload gives, previewed before anything is stored."""
    venue = _venue_of_host(venue_id)
    session = db.session()
    asked = request.args.get("rows", "12")
    count = min(int(asked), MOST_TYPED_ROWS) if asked.isdigit() and int(asked) > 0 else 12
    form = TypedRowsForm()
    known = players_of_venue(session, venue.id, 3000)
    if request.method == "GET" or not form.validate_on_submit():
        if request.method == "POST" and "csrf_token" in form.errors:
            return page("console/refused_form.html", 400)
        status = 400 if request.method == "POST" else 200
        return page(
            "console/rows.html", status, venue=venue, form=form, count=count, known=known, statuses=STATUSES
        )
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(["place", "player_id", "full_name", "email", "status"])
    place = 0
    for number in range(1, MOST_TYPED_ROWS + 1):
        who = (request.form.get(f"player_{number}") or "").strip()
        email = (request.form.get(f"email_{number}") or "").strip()
        if not who and not email:
            continue
        place += 1
        picked = PICKED.search(who)
        entrant_status = request.form.get(f"status_{number}") or "played"
        if picked:
            out.writerow([place, picked.group(1), "", "", entrant_status])
        else:
            out.writerow([place, "", who, email, entrant_status])
    fields = {
        "venue_id": str(venue.id),
        "date": form.date.data.isoformat(),
        "session": str(form.session.data),
    }
    fields["kind"] = form.kind.data
    return _preview(venue, fields, buffer.getvalue().encode())
