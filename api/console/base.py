"""The console's blueprint and what its pages share: a page, the signed-in user, the sign-in
guard, and the small helpers every group of pages uses (a refused form, an id from a hidden
field, the fields of a sheet). The pages themselves are in the modules beside this one."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import date
from functools import cache, wraps
from typing import Any, TypeVar

from flask import Blueprint, Response, flash, g, redirect, request, url_for
from flask_wtf import FlaskForm

from api import db
from api.console.forms import SignOutForm
from api.embed.theme import stylesheet
from api.html import html_page
from api.words import said_to_people, tell
from models.actor import PUBLIC, Actor
from models.entities import Venue
from models.errors import LeagueError
from models.services.access import may_post_results
from models.services.api_keys.sign_ins import signed_in
from models.services.lookup import get_or_raise

bp = Blueprint("console", __name__, url_prefix="/console", template_folder="templates")

COOKIE = "league_console"
F = TypeVar("F", bound=Callable[..., Any])

CONSOLE_CSS = """
header.bar{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;justify-content:space-between;
border-bottom:1px solid var(--rule);padding-bottom:8px;margin-bottom:12px}
header.bar form{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center}
header.bar button{margin-top:0}
nav a{margin-right:12px;display:inline-block;padding:4px 0}
a{color:var(--s0)}
h1,h2,p,li{overflow-wrap:break-word}
label{display:block;font-weight:600;margin:10px 0 4px}
input,select,textarea,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);
border-radius:4px;padding:8px;max-width:100%}
textarea{width:100%;min-height:8rem;font-family:ui-monospace,monospace}
button{cursor:pointer;font-weight:600;background:var(--s0);color:#fff;border-color:var(--s0);margin-top:12px}
button.quiet{background:var(--bg);color:var(--fg);border-color:var(--muted)}
.actions button{margin-right:8px}
:focus-visible{outline:3px solid var(--s0);outline-offset:2px}
.error{color:var(--s4);font-weight:600}
.flash{border-left:4px solid var(--s2);padding:8px 12px;background:var(--stripe)}
.refused{border-left:4px solid var(--s4);padding:8px 12px;background:var(--stripe)}
.warnings{border-left:4px solid var(--s1);padding:8px 12px;background:var(--stripe)}
.problem{color:var(--s4);font-weight:600}
td.problem,tbody th{overflow-wrap:anywhere}
tr.flagged>*{border-bottom:0}
table.rows tbody tr{background:none}
tr.changed>*{background:var(--stripe)}
.flag.changed{border-color:var(--s1);color:var(--s1);font-weight:600}
.typed input{width:100%}
td form input:not([type=checkbox]):not([type=radio]){width:100%;min-width:6rem}
.typed td{min-width:6rem}
.typed td.place{min-width:0}
.window{color:var(--muted)}
details.report{margin:0;border-bottom:1px solid var(--rule)}
details.report>summary{padding:10px 0;overflow-wrap:anywhere}
td.mark{white-space:nowrap}
.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(13rem,100%),1fr));gap:0 16px}
.filters .filter{min-width:0}
.filters .filter input,.filters .filter select{width:100%}
.filters .filter-actions{grid-column:1/-1}
.entries{list-style:none;margin:0;padding:0}
table.changes th,table.changes td{overflow-wrap:anywhere}
.erased{font-style:italic;color:var(--muted)}
.pager a,.pager strong,.pager span{display:inline-block;padding:8px 12px 8px 0;margin-right:0}
.offline-note{position:sticky;top:0;z-index:10;margin:0 0 8px;padding:8px 12px;font-weight:600;
border-left:4px solid var(--s1);background:var(--bg);box-shadow:0 2px 6px rgba(0,0,0,.2)}
form.out select,.hand select{width:100%}
details.undo{margin-top:12px}
details.undo>summary{cursor:pointer;padding:8px 0;font-weight:600}
@media (max-width:520px){
table.stack>thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap}
table.stack,table.stack>caption,table.stack>tbody,table.stack>tbody>tr,table.stack>tbody>tr>*{display:block;
width:100%}
table.stack>tbody>tr{padding:6px 0;border-bottom:1px solid var(--rule)}
table.stack>tbody>tr>*{border:0;padding:2px 0}
table.stack>tbody>tr.flagged{border-bottom:0}
table.stack [data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-weight:400}
table.typed>tbody>tr:not(.reason){display:grid;grid-template-columns:minmax(0,1fr) minmax(0,10rem);gap:0 8px}
table.typed>tbody>tr>td{grid-column:1/-1}
table.typed>tbody>tr>td.place{font-weight:600}
table.typed>tbody>tr>td.place::before{content:"Place "}
table.typed>tbody>tr>td.email{grid-column:1}
table.typed>tbody>tr>td.status{grid-column:2}
.typed label{margin:4px 0 2px}
.typed select{width:100%}
.wide{display:none}
}
@media print{header.bar,nav,form,.noprint{display:none}}
"""


# The door list (R16): one line a player, wrapping on a phone; on paper, compact, to fit one sheet.
DOOR_LIST_CSS = """
.door{list-style:none;margin:0 0 8px;padding:0}
.door li{padding:6px 0;border-bottom:1px solid var(--rule)}
@media print{.door-list{font-size:10pt;line-height:1.25}.door-list h1{font-size:12pt}
.door-list h2{font-size:10.5pt;margin:6px 0 2px}.door-list p{margin:0 0 3px}
.door li{padding:1px 0;break-inside:avoid}}
"""


@cache
def zone_names() -> list[str]:
    """The IANA time zones a form offers (R2a), sorted."""
    return sorted(zone for zone in zoneinfo.available_timezones() if "/" in zone or zone == "UTC")


@cache
def console_css() -> str:
    return stylesheet("light") + CONSOLE_CSS + DOOR_LIST_CSS


@bp.app_template_filter("venue_label")
def venue_label(venue: Venue) -> str:
    """A venue as the console lists it: its name, with " (demo)" when it is the demo league's
    (`Venue.in_demo`), so the office tells the demo's venues from its own in every list."""
    return f"{venue.name} (demo)" if venue.in_demo else venue.name


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


def refused_form() -> Response:
    """A post without its form's valid CSRF token, or with hand-edited hidden fields: a 400
    that changes nothing."""
    return page("console/refused_form.html", 400)


def token_missing(form: FlaskForm) -> bool:
    """Whether a posted form failed on its CSRF token (refused whole, not shown again)."""
    return "csrf_token" in form.errors


def hidden_id(value: str | None) -> int | None:
    """An id or version from a hidden field: digits, else None (a hand-edited field names
    nothing)."""
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None


def sheet_fields(
    venue: Venue,
    day: date | str,
    session_no: int | str,
    kind: str,
    late_reason: str | None = None,
    override_reason: str | None = None,
) -> dict[str, str]:
    """The fields a sheet's query string would give the API: which venue, night and session, the
    office's reason for a night reported late (R17), and its reason to let a sanctioned player
    stand (R16), when given."""
    fields = {
        "venue_id": str(venue.id),
        "date": day if isinstance(day, str) else day.isoformat(),
        "session": str(session_no),
        "kind": kind,
    }
    if late_reason and late_reason.strip():
        fields["reason"] = late_reason.strip()
    if override_reason and override_reason.strip():
        fields["override_reason"] = override_reason.strip()
    return fields


def asked_day(default: date) -> date:
    """The night a link asks a form to be dated (`?date=2026-12-01`: a missed night's link, R17),
    else `default` (tonight); a text that is no ISO date asks nothing."""
    text = request.args.get("date", "")
    try:
        return date.fromisoformat(text) if len(text) == 10 else default
    except ValueError:
        return default


def current() -> Actor:
    """The signed-in user (the key signed in with), or the public."""
    actor: Actor = g.get("console_actor") or PUBLIC
    return actor


@bp.before_request
def _who() -> None:
    """The signed-in user of this browser, from the cookie's token (None: signed out)."""
    token = request.cookies.get(COOKIE, "")
    g.console_actor = signed_in(db.session(), token, g.get("request_id")) if token else None


def signed_in_only(view: F) -> F:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if g.get("console_actor") is None:
            return redirect(url_for("console.sign_in_page", next=request.path))
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def hosted_venue(venue_id: int, may: Callable[[Actor, int], None] = may_post_results) -> Venue:
    """The venue, if the signed-in user may use this page of it (`may`: a permission of
    models/services/access, its hosts' and the office's)."""
    venue = get_or_raise(db.session(), Venue, venue_id, "venue")
    may(current(), venue.id)
    return venue


def with_reason(form: Any, back: str, missing: str, act: Callable[[str], str], failed: str) -> Any:
    """A change that needs a reason (lift, void, merge, undo): a form without its token is
    refused; without a reason nothing happens and the page says so; else the change is made, or
    its refusal told. Then back to the page it was made from."""
    if not form.validate_on_submit():
        return refused_form()
    reason = (form.reason.data or "").strip()
    if not reason:
        flash(missing)
    else:
        try:
            flash(act(reason))
        except LeagueError as refusal:
            tell(said_to_people(refusal), first=failed)
    return redirect(back)
