"""R18: the office reads and filters the append-only audit log."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.audit_log.schemas import AuditOut, AuditQuery
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.pagination import page_request, page_schema
from models.services.audit_log.queries import AuditFilters, ReadEntry, list_audit_entries
from models.services.paging import Page

blp = Blueprint("audit_log", __name__, url_prefix="/api/v1/audit-log", description="Audit log (R18).")


@blp.route("")
class AuditViews(MethodView):
    @blp.doc(operationId="list_audit_log")
    @office_only
    @blp.arguments(AuditQuery, location="query")
    @blp.response(200, page_schema(AuditOut, "AuditPage"))
    def get(self, args: dict[str, Any]) -> Page[ReadEntry]:
        """Read the audit log, newest first (office)"""
        page = page_request(args)
        return list_audit_entries(db.session(), current_actor(), AuditFilters(**args), page)
