"""R18: the office reads and filters the append-only audit log, as JSON or CSV."""

from __future__ import annotations

from typing import Any

from flask import Response, after_this_request
from flask.views import MethodView

from api import db
from api.audit_log.csv_answer import audit_csv
from api.audit_log.schemas import AuditCsvQuery, AuditOut, AuditQuery
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import csv_too
from api.csv_export import CSV_ANSWER, varies_by_accept, wants_csv
from api.pagination import page_request, page_schema
from models.services import wall_clock
from models.services.audit_log.queries import AuditFilters, every_audit_entry, list_audit_entries

blp = Blueprint("audit_log", __name__, url_prefix="/api/v1", description="Audit log (R18).")


def _csv(args: dict[str, Any]) -> Response:
    """Every entry the filters keep, newest first, as CSV."""
    session = db.session()
    entries = every_audit_entry(session, current_actor(), AuditFilters(**args))
    return audit_csv(entries, wall_clock.in_league(session).isoformat())


@blp.route("/audit-log")
@cached_by(DATA_VERSION, why="the audit log: every write adds to it, and no scope covers it")
class AuditViews(MethodView):
    @blp.doc(operationId="list_audit_log")
    @csv_too
    @office_only
    @blp.arguments(AuditQuery, location="query")
    @blp.response(200, page_schema(AuditOut, "AuditPage"))
    def get(self, args: dict[str, Any]) -> Any:
        """Read the audit log, newest first (office)

        Filtered by what changed (`entity`, `entity_id`), who (`actor`), `action`, and when
        (`since`, `until`). The same URL answers CSV to `Accept: text/csv` or `?format=csv`
        (generated clients: `list_audit_log_csv`): every entry the filters keep, whatever `page`
        and `per_page` say, with the JSON's fields as columns (`before` and `after` as JSON).
        """
        page = page_request(args)
        wanted = args.pop("format", None)
        after_this_request(varies_by_accept)
        if wanted == "csv" or (wanted is None and wants_csv()):
            return _csv(args)
        return list_audit_entries(db.session(), current_actor(), AuditFilters(**args), page)


@blp.route("/audit-log.csv")
@cached_by(DATA_VERSION, why="the audit log: every write adds to it, and no scope covers it")
class AuditCsvViews(MethodView):
    @blp.doc(operationId="list_audit_log_csv", responses=CSV_ANSWER)
    @office_only
    @blp.arguments(AuditCsvQuery, location="query")
    def get(self, args: dict[str, Any]) -> Response:
        """The audit log as CSV, for spreadsheets (office; R18)

        Every entry the filters keep, newest first: this operation takes no `page` or `per_page`.
        """
        return _csv(args)
