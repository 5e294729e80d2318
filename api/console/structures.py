"""The office's blind structures in the console (R22): every structure with its levels and breaks
in a line, where each is played (the league's, venues'), a new one started from the built-in
structure, and each one changed; made and changed by the API's schemas and services
(api/console/api_forms.py), so a refusal is the API's, beside its row."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for

from api import db
from api.console.api_forms import ApiForm
from api.console.base import bp, current, page, refused_form, signed_in_only
from api.console.forms import TokenForm
from api.schemas import patch_of
from api.structures.schemas import StructureIn, StructureOut, StructurePatch
from api.words import FORMS
from models.entities import Structure
from models.services.access import may_keep_structures
from models.services.lookup import get_or_raise
from models.services.structures.queries import played_where
from models.services.structures.writes import (
    built_in,
    create_structure,
    list_structures,
    update_structure,
)

# Room for this many more levels and breaks than the structure has.
MORE_ROWS = 4


def summary(levels: list[dict[str, Any]], breaks: list[dict[str, Any]]) -> str:
    """A structure in a line: each level's blinds and minutes, the breaks where they fall."""
    after = {pause["after_level"]: pause["minutes"] for pause in breaks}
    parts = []
    for n, level in enumerate(levels, start=1):
        parts.append(f"{level['small_blind']}/{level['big_blind']} ({level['minutes']})")
        if n in after:
            parts.append(f"break ({after[n]})")
    return ", ".join(parts)


@bp.route("/structures", methods=["GET", "POST"])
@signed_in_only
def structures() -> Any:
    """R22: every structure, and a new one (started from the built-in)."""
    session, actor = db.session(), current()
    may_keep_structures(actor)
    token = TokenForm()
    start = {**built_in(), "name": ""}
    form = ApiForm(StructureIn(), FORMS["structure"], values=start, blank_rows=MORE_ROWS)
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        made = form.submit(request.form, lambda data: create_structure(session, actor, data))
        if made is not None:
            flash(f"Structure {made.id} ({made.name}) made. A venue plays it once it names it.")
            return redirect(url_for("console.structures"))
        status = form.status
    kept = [StructureOut().dump(structure) for structure in list_structures(session)]
    context = {
        "built_in": built_in(),
        "kept": kept,
        "summary": summary,
        "where": played_where(session),
        "form": form,
        "inputs": form.inputs(request.form if request.method == "POST" else None),
        "token": token,
    }
    return page("console/structures.html", status, **context)


@bp.route("/structures/<int:structure_id>", methods=["GET", "POST"])
@signed_in_only
def structure(structure_id: int) -> Any:
    """R22: one structure changed; nights already opened keep the one they opened with."""
    session, actor = db.session(), current()
    may_keep_structures(actor)
    kept = get_or_raise(session, Structure, structure_id, "structure")
    token = TokenForm()
    values = StructureOut().dump(kept)
    form = ApiForm(
        patch_of(StructurePatch), FORMS["structure"], values=values, changes_only=True, blank_rows=MORE_ROWS
    )
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        changed = form.submit(
            request.form, lambda changes: update_structure(session, actor, structure_id, changes)
        )
        if changed is not None:
            flash(f"Structure {changed.id} ({changed.name}) saved. Nights opened from now play it.")
            return redirect(url_for("console.structure", structure_id=structure_id))
        status = form.status
    context = {
        "structure": values,
        "summary": summary,
        "form": form,
        "inputs": form.inputs(request.form if request.method == "POST" else None),
        "token": token,
    }
    return page("console/structure.html", status, **context)
